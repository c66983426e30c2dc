"""The admin's "Print session summary" button and the view behind it."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import formats, timezone

from clients.models import AccessEvent
from homework.models import Entry
from tests.conftest import login
from tests.factories import SessionFactory

from .conftest import add, pdf_text, record

pytestmark = pytest.mark.django_db


def url(client_id: int) -> str:
    return reverse("admin:clients_client_summary", args=[client_id])


def test_client_page_has_the_print_button(cast):
    page = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    assert url(cast.alice.pk) in page.text
    assert "Print session summary" in page.text


def test_print_opens_the_pdf_and_logs_it_as_printed(cast):
    response = login(cast.tara).get(url(cast.alice.pk))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("inline;")
    assert cast.alice_entry.response["what_happened"] in pdf_text(response.content)
    event = AccessEvent.objects.get()
    assert (event.actor, event.client, event.action) == (cast.tara, cast.alice, "printed")


def test_another_therapists_client_is_not_found(cast):
    assert login(cast.theo).get(url(cast.alice.pk)).status_code == 404
    assert login(cast.theo).get("/admin/clients/client/not-a-number/summary/").status_code == 404
    assert not AccessEvent.objects.exists()


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("since=31/02/2026", "since", "Enter a date as DD/MM/YYYY"),
        ("until=9999-12-31", "until", "This is in the future. Choose today or earlier."),
        ("until=0001-01-01", "until", "This is too long ago"),
        ("since=2026-03-10&until=2026-03-01", "until", "The end date is before the start date."),
        (
            "since=2024-01-01&until=2026-03-01",
            "until",
            "The period can be at most 400 days long. Move the start and end dates closer",
        ),
    ],
)
def test_a_refused_choice_shows_the_form_again_with_the_dates_kept(cast, query, field, message):
    """The form opened a new tab on the client page, the dates gone and the
    message naming "since" or "until": now the tab holds the form, the dates
    as chosen, and why, in plain words beside the date it is about."""
    response = login(cast.tara).get(url(cast.alice.pk) + "?" + query)
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    text = response.content.decode()
    form = text[text.index(f'action="{url(cast.alice.pk)}"') :]
    form = form[: form.index("</form>")]
    for name, value in (part.split("=") for part in query.split("&")):
        if len(value) == 10 and value[4] == "-":  # a date as the date field sends it
            assert f'name="{name}" value="{value}"' in form
    assert message in form
    assert f'id="print-{field}-error"' in form  # beside its field, which points to it
    assert f'aria-describedby="print-{field}-error"' in form
    assert "Since:" not in text
    assert "Until:" not in text
    assert not AccessEvent.objects.exists()


def test_the_next_sessions_day_may_end_the_chosen_dates(cast):
    """The regular summary runs to the next session's day: choosing that day
    as the end was refused as "in the future"."""
    starts = timezone.localtime() + dt.timedelta(days=3)
    SessionFactory.create(client=cast.alice, starts_at=starts)
    since = timezone.localdate() - dt.timedelta(days=7)
    http = login(cast.tara)
    response = http.get(
        url(cast.alice.pk), {"since": since.isoformat(), "until": f"{starts:%Y-%m-%d}"}
    )
    assert response.status_code == 200
    after = starts.date() + dt.timedelta(days=1)
    response = http.get(
        url(cast.alice.pk), {"since": since.isoformat(), "until": after.isoformat()}
    )
    assert response.status_code == 400
    assert "after the next session" in response.content.decode()
    # The form's dates are the admin's own fields; the server's check above is the rule.
    page = http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]))
    assert (
        'class="vDateField" size="10" name="until" value="" placeholder="DD/MM/YYYY"' in page.text
    )


def test_the_dates_follow_the_admins_date_format(cast):
    """Typed and shown as the admin's date fields are (DATE_INPUT_FORMATS),
    with its calendar; the same days as ISO from the API."""
    http = login(cast.tara)
    page = http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]))
    assert (
        'class="vDateField" size="10" name="since" value="" placeholder="DD/MM/YYYY"' in page.text
    )
    assert "admin/js/admin/DateTimeShortcuts.js" in page.text
    today = timezone.localdate()
    week_ago = today - dt.timedelta(days=7)
    typed = http.get(
        url(cast.alice.pk), {"since": f"{week_ago:%d/%m/%Y}", "until": f"{today:%d/%m/%Y}"}
    )
    assert typed.status_code == 200
    assert typed["Content-Type"] == "application/pdf"


def queries_for(http, client_id: int) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert http.get(url(client_id)).status_code == 200
    return len(queries)


def test_queries_hold_at_one_entry_and_at_a_year_of_them(cast):
    http = login(cast.tara)
    queries_for(http, cast.alice.pk)  # warm the practice settings cache
    # Each time with entries not read yet: printing them marks them read.
    Entry.objects.bulk_create([record(cast.alice_assignment, days_ago=0.01)])
    one = queries_for(http, cast.alice.pk)
    Entry.objects.bulk_create(
        [record(cast.alice_assignment, days_ago=n / 20 + 0.01) for n in range(365)]
    )
    assert queries_for(http, cast.alice.pk) == one


def test_printing_reads_nothing_so_the_client_may_still_take_their_words_back(cast):
    """Printing is a look, logged: only the therapist's "Mark as read" fixes
    an entry (services.entries_mark_read)."""
    from homework.services import entry_set_private

    assert login(cast.tara).get(url(cast.alice.pk)).status_code == 200
    cast.alice_entry.refresh_from_db()
    assert cast.alice_entry.seen_at is None
    assert AccessEvent.objects.get().actor == cast.tara
    entry_set_private(user=cast.alice.portal_user, key=cast.alice_entry.key, private=True)


def test_a_flagged_safety_plan_is_not_read_by_printing_its_flag(cast):
    """Flagged, the plan is listed first as "6 of 6 parts filled in": none of
    its lines are on the page, so the client may still take it back."""
    from homework.services import entry_set_private
    from tests.factories import RESPONSES, AssignmentFactory, EntryFactory, ExerciseFactory

    plan = EntryFactory.create(
        assignment=AssignmentFactory.create(
            client=cast.alice, exercise=ExerciseFactory.create(kind="safety_plan")
        ),
        response=RESPONSES["safety_plan"](),
        felt_unsafe=True,
    )
    response = login(cast.tara).get(url(cast.alice.pk))
    assert "parts filled in" in pdf_text(response.content)
    plan.refresh_from_db()
    assert plan.seen_at is None
    entry_set_private(user=cast.alice.portal_user, key=plan.key, private=True)  # still theirs


def test_a_managers_print_is_logged_but_is_not_the_therapists_read(cast):
    assert login(cast.morgan).get(url(cast.alice.pk)).status_code == 200
    cast.alice_entry.refresh_from_db()
    assert cast.alice_entry.seen_at is None
    assert AccessEvent.objects.get().actor == cast.morgan


def test_each_session_on_the_home_page_prints_its_own_summary(cast):
    """With a session today and another tomorrow, tomorrow's row printed
    today's (the client's next session): each row now names its own."""
    now = timezone.localtime()
    today = SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(hours=1))
    tomorrow = SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=1))
    http = login(cast.tara)
    home = http.get(reverse("admin:index")).text
    for session in (today, tomorrow):
        link = f"{url(cast.alice.pk)}?session={session.pk}"
        assert link in home
        text = pdf_text(http.get(link).content)
        when = formats.date_format(timezone.localtime(session.starts_at), "l j F Y")
        assert f"for the session on {when}" in text


def test_a_past_session_prints_the_summary_it_had(cast):
    """From the sessions list: the period between a past session and the one
    before it, whatever is booked next."""
    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=20))
    past = SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=6))
    SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=1))
    add(cast.alice_assignment, days_ago=10, what_happened="Before the past session.")
    add(cast.alice_assignment, days_ago=2, what_happened="After the past session.")
    http = login(cast.tara)
    sessions = http.get(reverse("admin:clients_session_changelist")).text
    link = f"{url(cast.alice.pk)}?session={past.pk}"
    assert link.replace("&", "&amp;") in sessions
    text = pdf_text(http.get(link).content)
    assert "Before the past session." in text
    assert "After the past session." not in text


def test_another_clients_or_therapists_session_is_refused_by_name(cast):
    bobs = SessionFactory.create(client=cast.bob, starts_at=timezone.now() + dt.timedelta(days=1))
    http = login(cast.tara)
    for session_id in (bobs.pk, 999_999):
        response = http.get(f"{url(cast.alice.pk)}?session={session_id}")
        assert response.status_code == 400
        assert "This client has no such session." in response.content.decode()
    assert not AccessEvent.objects.exists()


def test_the_client_pages_offer_full_detail_and_chosen_dates(cast):
    """The safety plan prints "its contents print only with full detail", and
    the period may be chosen dates: both are a click away, not a URL to edit."""
    http = login(cast.tara)
    for page in ("admin:clients_client_change", "admin:clients_client_since_last_session"):
        text = http.get(reverse(page, args=[cast.alice.pk])).text
        assert f'href="{url(cast.alice.pk)}?full_detail=1"' in text
    text = http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])).text
    form = text[text.index(f'action="{url(cast.alice.pk)}"') :]
    form = form[: form.index("</form>")]
    for name in ('name="since"', 'name="until"', 'name="full_detail"'):
        assert name in form


HINT = "Entries are included by the day they were shared with you."


def test_the_dates_form_says_entries_are_chosen_by_the_day_they_were_shared(cast):
    """A therapist chose 30 November for a hard evening on the 30th, sent on
    1 December, and got "Nothing was shared": the form says which day counts."""
    http = login(cast.tara)
    page = http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]))
    refused = http.get(url(cast.alice.pk), {"since": "31/02/2026"})
    for text in (page.text, refused.content.decode()):
        form = text[text.index(f'action="{url(cast.alice.pk)}"') :]
        assert HINT in form[: form.index("</form>")]


def test_the_dates_form_as_a_browser_sends_it_prints_those_dates(cast):
    today = timezone.localdate()
    since = today - dt.timedelta(days=10)
    response = login(cast.tara).get(
        url(cast.alice.pk), {"since": since.isoformat(), "until": today.isoformat()}
    )
    assert response.status_code == 200
    assert "dates chosen" in pdf_text(response.content)
    # Its own name: saving it does not overwrite the regular summary's file.
    assert response["Content-Disposition"] == (
        f'inline; filename="summary-{since:%Y-%m-%d}-to-{today:%Y-%m-%d}.pdf"'
    )
    # An empty date field is sent as "": the period is then since the last session.
    response = login(cast.tara).get(url(cast.alice.pk), {"since": "", "until": ""})
    assert response.status_code == 200


def test_the_sessions_list_offers_since_last_session_only_for_the_session_it_prepares(cast):
    """That page reads from the last session to now: for the session coming
    next. Beside a past session it read as that session's, and was not."""
    now = timezone.now()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=6))
    SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=1))
    SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=8))
    sessions = login(cast.tara).get(reverse("admin:clients_session_changelist")).text
    since = reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    assert sessions.count(f'href="{since}"') == 1
    assert sessions.count("Print session summary") == 3
