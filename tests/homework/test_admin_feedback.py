"""What came back: the since-last-session page, reading an entry, and comments."""

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from homework.models import Entry, EntryComment
from homework.selectors.period import PeriodQuery
from homework.summary import render
from homework.summary import selectors as summary_selectors
from practice.dates import calendar_day
from tests.conftest import login
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    SessionFactory,
    daily_assignment,
    weekly_assignment,
)


def since_url(client):
    return reverse("admin:clients_client_since_last_session", args=[client.pk])


def comment_url(entry):
    return reverse("admin:homework_entry_comment", args=[entry.pk])


def test_since_last_session_shows_flags_first_and_opening_it_reads_nothing(cast):
    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7))
    unsafe = EntryFactory.create(
        assignment=cast.alice_assignment,
        felt_unsafe=True,
        submitted_at=now - dt.timedelta(days=2),
        response={**cast.alice_entry.response, "what_happened": "They shouted at me."},
    )
    page = login(cast.tara).get(since_url(cast.alice))
    assert page.status_code == 200
    text = page.text
    # The summary's flags, each a link to its entry, before each kind's digest.
    flags = text[: text.index('class="ws-card ws-digest"')]
    assert "Felt unsafe" in flags and "They shouted at me." in flags
    assert reverse("admin:homework_entry_change", args=[unsafe.pk]) in flags
    assert Entry.objects.filter(pk__in=[unsafe.pk, cast.alice_entry.pk], seen_at=None).count() == 2
    # The button says what it would do for the client (Entry.client_can_edit).
    assert {e.pk for e in page.context["to_mark_read"]} == {unsafe.pk, cast.alice_entry.pk}
    said = " ".join(text[text.index("2 entries on this page are not marked as read yet") :].split())
    assert "can no longer change them or make them private again" in said[:300], said
    assert "Mark these 2 entries as read" in text


def test_since_last_session_never_shows_private_words(cast):
    secret = EntryFactory.create(
        assignment=cast.alice_assignment,
        private=True,
        felt_unsafe=True,
        response={**cast.alice_entry.response, "what_happened": "Only for me."},
    )
    page = login(cast.tara).get(since_url(cast.alice))
    assert "Only for me." not in page.text
    assert "Alice also kept 1 entry private" in page.text
    assert Entry.objects.get(pk=secret.pk).seen_at is None


def test_since_last_session_of_another_therapists_client_is_not_found(cast):
    response = login(cast.theo).get(since_url(cast.alice))
    assert response.status_code == 302 and response["Location"] == reverse("admin:index")
    assert Entry.objects.get(pk=cast.alice_entry.pk).seen_at is None


def test_since_last_session_says_where_the_window_starts(cast):
    page = login(cast.tara).get(since_url(cast.alice))
    assert "No earlier session is recorded: this shows the last 4 weeks." in page.text
    # Well past, whatever the date the suite runs on (a session under three
    # hours old still counts as going on).
    day = timezone.localdate() - dt.timedelta(days=40)
    SessionFactory.create(
        client=cast.alice, starts_at=timezone.make_aware(dt.datetime.combine(day, dt.time(10)))
    )
    page = login(cast.tara).get(since_url(cast.alice))
    shown = calendar_day(day, "l j F")  # the year too, if it is last year's
    assert f"Since the previous session, {shown}, 10:00." in page.text


def test_a_session_in_another_year_names_its_year(cast):
    SessionFactory.create(
        client=cast.alice, starts_at=timezone.make_aware(dt.datetime(1900, 1, 1, 10))
    )
    page = login(cast.tara).get(since_url(cast.alice))
    assert "Since the previous session, Monday 1 January 1900, 10:00." in page.text


def test_since_last_session_counts_each_schedule_in_its_own_unit(cast):
    """The same units as the summary: days, weeks for one day a week, and
    check-ins for several days a week."""
    today = timezone.localdate()
    for title, schedule, weekdays in (
        ("Every evening", "daily", []),
        ("Once a week", "weekly", [today.weekday()]),
        ("Twice a week", "weekly", [today.weekday(), (today.weekday() + 3) % 7]),
    ):
        AssignmentFactory.create(
            client=cast.alice,
            exercise=ExerciseFactory.create(title=title),
            schedule=schedule,
            weekdays=weekdays,
            starts_on=today - dt.timedelta(days=13),
            due_on=None,
            ends_on=today + dt.timedelta(days=13),
        )
    text = " ".join(login(cast.tara).get(since_url(cast.alice)).text.split())
    # Today's is not due until the client's day is over. All began within
    # the window (no earlier session: the last four weeks), so one count each.
    assert "Last 4 weeks: 0 of 13 days (27 in all)" in text
    assert "Last 4 weeks: 0 of 1 week (3 in all)" in text
    assert "Last 4 weeks: 0 of 3 check-ins (7 in all)" in text
    assert "Since it began" not in text


def test_since_last_session_says_when_the_first_one_is_due_or_that_it_was_sent_early(cast):
    """Before any slot is due the card said "none due yet", even with the
    first one already sent (filed under its slot, still to come)."""
    today = timezone.localdate()
    first = today + dt.timedelta(days=2)
    work = {
        title: weekly_assignment(
            cast.alice,
            exercise=ExerciseFactory.create(title=title),
            weekdays=[first.weekday()],
            starts_on=today,
            ends_on=first + dt.timedelta(days=13),
        )
        for title in ("Sent early", "Not yet")
    }
    EntryFactory.create(
        assignment=work["Sent early"], occurrence_on=first, submitted_at=timezone.now()
    )
    text = " ".join(login(cast.tara).get(since_url(cast.alice)).text.split())
    assert "First one sent early (2 in all)" in text
    assert f"First one due {calendar_day(first, 'D j M')} (2 in all)" in text
    assert "none due yet" not in text


def test_opening_an_entry_reads_nothing_and_offers_a_comment(cast):
    page = login(cast.tara).get(reverse("admin:homework_entry_change", args=[cast.alice_entry.pk]))
    assert Entry.objects.get(pk=cast.alice_entry.pk).seen_at is None
    assert "Mark this entry as read" in page.text
    text = page.text
    # The comment form follows the admin's own form: a form inside a form would not submit.
    entry_form_ends = text.index("</form>", text.index('id="entry_form"'))
    assert entry_form_ends < text.index(comment_url(cast.alice_entry))


def test_a_manager_reads_without_fixing_the_entry_and_cannot_comment(cast):
    page = login(cast.morgan).get(
        reverse("admin:homework_entry_change", args=[cast.alice_entry.pk])
    )
    assert page.status_code == 200
    assert comment_url(cast.alice_entry) not in page.text
    assert Entry.objects.get(pk=cast.alice_entry.pk).seen_at is None


def test_a_read_entry_does_not_say_the_client_may_still_change_it(cast):
    """Beside "First read by the therapist: <date>" the page went on: "Until
    then the client may still edit what they sent." Once read, it is fixed."""
    Entry.objects.filter(pk=cast.alice_entry.pk).update(seen_at=timezone.now())
    page = login(cast.tara).get(reverse("admin:homework_entry_change", args=[cast.alice_entry.pk]))
    text = " ".join(page.text.split())
    assert "may still" not in text
    assert "The client can no longer change what they sent" in text


def test_an_unread_entry_says_the_client_may_still_change_it(cast):
    page = login(cast.morgan).get(
        reverse("admin:homework_entry_change", args=[cast.alice_entry.pk])
    )
    text = " ".join(page.text.split())
    assert "may still change" in text
    assert "can no longer change" not in text


def test_therapist_comments_on_the_entry_one_click_from_since_last_session(cast):
    http = login(cast.tara)
    entry_page = reverse("admin:homework_entry_change", args=[cast.alice_entry.pk])
    entry_page += "?from=since-last-session"
    assert f'href="{entry_page}"' in http.get(since_url(cast.alice)).text
    page = http.get(entry_page)
    assert f'action="{comment_url(cast.alice_entry)}"' in page.text
    back = page.context["request"].get_full_path() + f"#entry-{cast.alice_entry.pk}"
    response = http.post(
        comment_url(cast.alice_entry), {"text": "That took courage.", "next": back}
    )
    assert response.status_code == 302 and response["Location"] == back
    assert EntryComment.objects.get().text == "That took courage."
    assert "That took courage." in http.get(entry_page).text


def test_a_comment_sent_twice_is_saved_once(cast):
    """A double click on "Save comment": the client would read the note twice."""
    http = login(cast.tara)
    first = http.post(comment_url(cast.alice_entry), {"text": "That took courage."})
    second = http.post(comment_url(cast.alice_entry), {"text": "That took courage. "})
    assert first.status_code == second.status_code == 302
    assert EntryComment.objects.filter(entry=cast.alice_entry).count() == 1
    # Other words are another note.
    http.post(comment_url(cast.alice_entry), {"text": "And you said it out loud."})
    assert EntryComment.objects.filter(entry=cast.alice_entry).count() == 2


def test_a_too_long_comment_comes_back_with_its_text_and_nothing_is_saved(cast):
    text = "word " * 500
    response = login(cast.tara).post(comment_url(cast.alice_entry), {"text": text})
    assert response.status_code == 400
    assert "up to 2,000 characters" in response.text
    assert text.strip()[:100] in response.text
    assert not EntryComment.objects.exists()


def test_an_empty_comment_is_explained(cast):
    response = login(cast.tara).post(comment_url(cast.alice_entry), {"text": "  "})
    assert response.status_code == 400 and "Write a few words first." in response.text
    # Nothing was written, so nothing is said to be kept "below".
    assert "Nothing you wrote is lost" not in response.text
    assert not EntryComment.objects.exists()


def test_a_refused_comment_page_has_the_apps_place_in_the_breadcrumbs(cast):
    response = login(cast.tara).post(comment_url(cast.alice_entry), {"text": ""})
    crumbs = response.text.split('class="breadcrumbs"', 1)[1].split("</div>", 1)[0]
    assert f'href="{reverse("admin:app_list", args=["homework"])}"' in crumbs


def test_a_comment_on_someone_elses_entry_changes_nothing(cast):
    response = login(cast.theo).post(comment_url(cast.alice_entry), {"text": "Hello"})
    assert response.status_code == 302 and response["Location"] == reverse("admin:index")
    assert not EntryComment.objects.exists()


def test_a_manager_is_told_only_the_therapist_comments(cast):
    response = login(cast.morgan).post(
        comment_url(cast.alice_entry), {"text": "Hello"}, follow=True
    )
    assert "Only the client&#x27;s own therapist can comment." in response.text
    assert not EntryComment.objects.exists()


def test_comment_never_sends_you_off_site(cast):
    response = login(cast.tara).post(
        comment_url(cast.alice_entry), {"text": "Noted.", "next": "https://evil.example/admin/"}
    )
    assert response["Location"] == reverse(
        "admin:homework_entry_change", args=[cast.alice_entry.pk]
    )


def test_the_client_sees_the_comment_beside_their_entry(cast):
    login(cast.tara).post(comment_url(cast.alice_entry), {"text": "Thank you for this."})
    page = login(cast.alice.portal_user).get(reverse("homework:entry", args=[cast.alice_entry.key]))
    assert "From your therapist" in page.text and "Thank you for this." in page.text
    other = login(cast.bob.portal_user).get(reverse("homework:entry", args=[cast.alice_entry.key]))
    assert other.status_code == 404


def test_private_flags_stay_private_in_the_entry_list(cast):
    EntryFactory.create(assignment=cast.alice_assignment, private=True, felt_unsafe=True)
    page = login(cast.tara).get(reverse("admin:homework_entry_changelist") + "?flag=unsafe")
    assert page.context["cl"].result_count == 0


def test_the_entry_list_shows_words_so_it_is_in_each_clients_access_log(cast):
    from clients.models import AccessEvent

    http = login(cast.morgan)  # the manager's list holds both clients' words
    page = http.get(reverse("admin:homework_entry_changelist"))
    assert cast.alice_entry.response["what_happened"][:40] in page.text
    logged = AccessEvent.objects.filter(action="viewed", what="Entry list")
    assert {event.client for event in logged} == {cast.alice, cast.bob}
    http.get(reverse("admin:homework_entry_changelist"))  # a reload is the same look
    assert logged.count() == 2
    cast.alice_entry.refresh_from_db()
    assert cast.alice_entry.seen_at is None  # an excerpt is not a read


def test_a_list_of_private_entries_only_logs_nothing(cast):
    from clients.models import AccessEvent

    Entry.objects.update(private=True, shared_at=None)
    login(cast.tara).get(reverse("admin:homework_entry_changelist"))
    assert not AccessEvent.objects.exists()


def test_a_refused_comment_shows_the_entry_again_and_logs_the_look(cast):
    from clients.models import AccessEvent

    response = login(cast.tara).post(comment_url(cast.alice_entry), {"text": "  "})
    assert response.status_code == 400
    assert AccessEvent.objects.filter(client=cast.alice, actor=cast.tara).exists()


@pytest.mark.parametrize("next_session_in_days", [None, 2])
def test_the_glance_counts_the_period_as_the_summary_does_and_says_so(cast, next_session_in_days):
    """Daily work running longer than the window: the card counted it over
    its whole life ("21 of 21 days so far") under a title that reads as the
    period's, while the summary for the same period counted the period.
    With the next session booked days ahead the summary, too, leaves today
    open until the client's day is over: both say "5 of 7", not one "5 of 8"."""
    today = timezone.localdate()
    now = timezone.now()
    for days_ahead in (-7, next_session_in_days):
        if days_ahead is not None:
            SessionFactory.create(
                client=cast.alice,
                starts_at=timezone.make_aware(
                    dt.datetime.combine(today + dt.timedelta(days=days_ahead), dt.time(10))
                ),
            )
    work = daily_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(title="30 days of no contact"),
        starts_on=today - dt.timedelta(days=20),
        ends_on=today + dt.timedelta(days=9),
    )
    missed = {3, 10}  # days ago: one in the period, one before it
    for ago in range(1, 21):
        if ago not in missed:
            day = today - dt.timedelta(days=ago)
            EntryFactory.create(
                assignment=work,
                submitted_at=timezone.make_aware(dt.datetime.combine(day, dt.time(12))),
                # Kept private: the summary never counts it, the admin's whole count does.
                private=ago == 2,
            )

    period = summary_selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=now
    )
    data = summary_selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=now
    )
    html = " ".join(render.summary_document(data).html.split())
    printed = re.search(r"30 days of no contact\W* — ([^<]*)</p>", html)
    assert printed is not None and printed.group(1) == "5 of 7 days done"

    text = " ".join(login(cast.tara).get(since_url(cast.alice)).text.split())
    assert "Since the last session: 5 of 7 days" in text
    # The whole schedule is still there, named as such, and the difference said.
    assert "Since it began: 18 of 20 days (30 in all)" in text
    assert "The counts since the last session leave it out, as the session summary does." in text
