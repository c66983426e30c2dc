"""Alerts that are answered: a flag that calls for the therapist is an alert, first on every staff
page until its therapist (or the manager) says in a few words what they did; the acknowledgement is
the practice's, never the client's to see (CLINICAL.md, Risk, flags and alerts)."""

import datetime as dt

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from homework.models import Alert, Entry, OutboxMessage
from homework.selectors import staff_home
from homework.selectors.alerts import HOME_ALERTS_SHOWN
from homework.selectors.caseload import caseload, sorted_rows
from homework.services.alerts import AlertAlreadyAcknowledged, alert_acknowledge, alerts_raise
from practice.models import PracticeSettings
from practice.selectors import forget_practice_settings
from tests.conftest import login
from tests.factories import ClientFactory, EntryFactory
from tests.helpers import posted
from tests.helpers_alerts import acknowledge, send_felt_unsafe, send_phq9
from tests.homework.summary.conftest import pdf_text
from tests.homework.test_watched_answers import SAFE_WORDS, THEIR_WORDS, send_check_in

pytestmark = pytest.mark.django_db

NOTE = "called, safe tonight"


# -- raising


def test_felt_unsafe_raises_an_alert_with_the_entry_and_the_discreet_email_at_once(cast):
    PracticeSettings.objects.filter(pk=1).update(weekly_digest=True)
    forget_practice_settings()
    entry = send_felt_unsafe(cast)
    [alert] = Alert.objects.all()
    assert (alert.entry, alert.client, alert.reason, alert.question_key, alert.answer) == (
        entry,
        cast.alice,
        Alert.Reason.FELT_UNSAFE,
        "",
        "",
    )
    assert alert.is_open and alert.escalated_at is None
    assert entry.shared_at is not None
    assert entry.shared_at <= alert.raised_at <= timezone.now()
    # Never only in the weekly digest: the discreet email goes now.
    [email] = mail.outbox
    assert "soon" in email.subject
    notice = OutboxMessage.objects.get(entry=entry, kind=OutboxMessage.Kind.FLAG_NOTICE)
    assert notice.state == OutboxMessage.State.SENT


def test_a_watched_answer_raises_an_alert_naming_the_answer_not_their_words(cast):
    entry = send_check_in(cast, safe=0)
    [alert] = Alert.objects.all()
    assert (alert.entry, alert.reason, alert.question_key) == (
        entry,
        Alert.Reason.WATCHED_ANSWER,
        "safe",
    )
    assert alert.answer == SAFE_WORDS
    assert THEIR_WORDS not in alert.answer
    assert "soon" in mail.outbox[0].subject


@pytest.mark.parametrize(("item_9", "raised"), [(0, 0), (1, 1), (3, 1)])
def test_phq9_item_9_above_0_raises_an_alert(cast, item_9, raised):
    send_phq9(cast, item_9)
    alerts = list(Alert.objects.all())
    assert len(alerts) == raised
    if raised:
        assert alerts[0].question_key == "phq9_9"
        assert alerts[0].answer.endswith(("Several days", "Nearly every day"))


def test_a_private_entry_raises_nothing_until_it_is_shared(cast):
    entry = send_felt_unsafe(cast, private="on")
    assert not Alert.objects.exists()
    with TestCase.captureOnCommitCallbacks(execute=True):
        login(cast.alice.portal_user).post(
            reverse("homework:entry_privacy", args=[entry.key]), {"private": "0"}
        )
    entry.refresh_from_db()
    assert entry.readable_by_staff
    assert Alert.objects.get().entry == entry


def edit(cast, entry: Entry, **fields: str) -> None:
    entry.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        page = login(cast.alice.portal_user).post(
            reverse("homework:entry_edit", args=[entry.key]),
            {**posted(entry.key, version=entry.version), **fields},
        )
    assert page.status_code == 302, page.content


def test_an_edit_saying_it_again_does_not_double_the_open_alert(cast):
    entry = send_felt_unsafe(cast)
    edit(cast, entry, felt_unsafe="on")
    assert Alert.objects.count() == 1


def test_an_edit_clearing_the_flag_keeps_the_alert_open_because_the_client_said_it(cast):
    entry = send_felt_unsafe(cast)
    edit(cast, entry)  # "felt unsafe" no longer ticked
    entry.refresh_from_db()
    assert not entry.felt_unsafe
    assert Alert.objects.get().is_open


def test_an_acknowledged_flag_said_again_the_same_way_is_not_raised_again(cast):
    entry = send_felt_unsafe(cast)
    alert_acknowledge(alert=Alert.objects.get(), by=cast.tara, note=NOTE)
    edit(cast, entry, felt_unsafe="on")
    assert list(Alert.objects.values_list("acknowledged_at", flat=True)) != [None]
    assert Alert.objects.count() == 1


def test_a_new_watched_answer_after_an_acknowledgement_is_a_new_alert_and_a_new_email(cast):
    entry = send_check_in(cast, safe=2)
    alert_acknowledge(alert=Alert.objects.get(), by=cast.tara, note=NOTE)
    mail.outbox.clear()
    entry.refresh_from_db()
    answers = {"pull": 5, "clarity": 5, "supported": 5, "safe": 0, "kindness": 5}
    with TestCase.captureOnCommitCallbacks(execute=True):
        page = login(cast.alice.portal_user).post(
            reverse("homework:entry_edit", args=[entry.key]),
            {
                "key": str(entry.key),
                "version": str(entry.version),
                **{f"r-{name}": str(value) for name, value in answers.items()},
            },
        )
    assert page.status_code == 302, page.content
    said = sorted(Alert.objects.values_list("answer", flat=True))
    assert said == sorted(["How safe have you felt? 2 / 10", SAFE_WORDS])
    [email] = mail.outbox
    assert "soon" in email.subject


def test_raising_twice_for_the_same_entry_makes_one_alert(cast):
    entry = EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True)
    alerts_raise(entry=entry)
    alerts_raise(entry=entry)
    assert Alert.objects.filter(entry=entry).count() == 1


# -- first on every page until acknowledged


def test_the_alert_is_first_on_the_home_page_until_acknowledged(cast):
    send_check_in(cast, safe=0)
    tara = login(cast.tara)
    page = tara.get(reverse("admin:index")).content.decode()
    card = page[page.index('id="alerts-title"') : page.index('id="today-title"')]
    assert page.index('id="alerts-title"') < page.index('id="review-title"')
    assert "Alice" in card and SAFE_WORDS in card and 'name="note"' in card
    home = reverse("admin:index")
    done = acknowledge(tara, Alert.objects.get(), NOTE, next_url=home)
    assert done.status_code == 302 and done["Location"] == home
    assert 'id="alerts-title"' not in tara.get(home).content.decode()


def test_the_manager_sees_every_open_alert_with_its_therapist(cast):
    send_felt_unsafe(cast)
    home = staff_home(user=cast.morgan, previous_visit=None, now=timezone.now())
    assert [alert.client for alert in home.alerts] == [cast.alice]
    assert staff_home(user=cast.theo, previous_visit=None, now=timezone.now()).alerts == []


def test_past_the_home_pages_few_every_open_alert_is_on_its_own_page(cast):
    for _ in range(HOME_ALERTS_SHOWN + 1):
        EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True)
    EntryFactory.create(assignment__client__therapist=cast.theo, felt_unsafe=True)
    tara = login(cast.tara)
    every = reverse("admin:alerts")
    assert f'href="{every}"' in tara.get(reverse("admin:index")).content.decode()
    page = tara.get(every).content.decode()
    assert page.count('name="note"') == HOME_ALERTS_SHOWN + 1  # theo's is not hers
    first = Alert.objects.filter(client=cast.alice).order_by("raised_at", "pk").first()
    assert first is not None
    done = acknowledge(tara, first, NOTE, next_url=every)
    assert done["Location"] == every
    assert tara.get(every).content.decode().count('name="note"') == HOME_ALERTS_SHOWN
    assert login(cast.theo).get(every).content.decode().count('name="note"') == 1


def test_the_caseload_sorts_clients_with_open_alerts_first_until_acknowledged(cast):
    quiet = ClientFactory.create(therapist=cast.tara, display_name="Aaron")
    EntryFactory.create(assignment__client=quiet, discuss_in_session=True)
    send_felt_unsafe(cast)
    Entry.objects.update(seen_at=timezone.now())  # read, but not yet acknowledged
    rows = sorted_rows(
        caseload(user=cast.tara, therapist=cast.tara, now=timezone.now()), order="-flags"
    )
    assert [(row.client, row.open_alerts) for row in rows[:2]] == [(cast.alice, 1), (quiet, 0)]
    page = login(cast.tara).get(reverse("admin:caseload")).content.decode()
    row_html = page[page.index(f'id="client-{cast.alice.pk}"') :]
    assert "1 alert to acknowledge" in row_html[: row_html.index("</tr>")]
    alert_acknowledge(alert=Alert.objects.get(), by=cast.tara, note=NOTE)
    [row] = [
        r
        for r in caseload(user=cast.tara, therapist=cast.tara, now=timezone.now())
        if r.client == cast.alice
    ]
    assert row.open_alerts == 0


def test_since_last_session_shows_the_open_alert_first_then_who_acknowledged_it(cast):
    send_felt_unsafe(cast)
    tara = login(cast.tara)
    url = reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    page = tara.get(url).content.decode()
    assert page.index('id="alerts-title"') < page.index('id="glance-title"')
    assert 'name="note"' in page
    acknowledge(tara, Alert.objects.get(), NOTE, next_url=url)
    page = tara.get(url).content.decode()
    card = page[page.index('id="alerts-title"') : page.index('id="glance-title"')]
    assert 'name="note"' not in card
    assert "by Tara:" in card and NOTE in card


def test_the_client_page_and_the_summary_say_who_acknowledged_when_and_what_they_did(cast):
    send_felt_unsafe(cast)
    tara = login(cast.tara)
    client_page = reverse("admin:clients_client_change", args=[cast.alice.pk])
    assert 'name="note"' in tara.get(client_page).content.decode()
    acknowledge(tara, Alert.objects.get(), NOTE, next_url=client_page)
    alert = Alert.objects.get()
    when = timezone.localtime(alert.acknowledged_at).strftime("%a %-d %b, %H:%M")
    said = f"acknowledged {when} by Tara: {NOTE}"
    page = tara.get(client_page).content.decode()
    assert said in " ".join(page.replace("\u2068", "").replace("\u2069", "").split())
    pdf = pdf_text(tara.get(reverse("admin:clients_client_summary", args=[cast.alice.pk])).content)
    assert "ALERTS" in pdf
    assert f"by Tara: {NOTE}" in pdf and "felt unsafe" in pdf


def test_the_note_is_stored_encrypted(cast):
    send_felt_unsafe(cast)
    alert_acknowledge(alert=Alert.objects.get(), by=cast.tara, note=NOTE)
    with connection.cursor() as cursor:
        cursor.execute("SELECT note FROM homework_alert")
        [(stored,)] = cursor.fetchall()
    assert NOTE not in stored and Alert.objects.get().note == NOTE


def test_the_client_never_sees_an_alert_or_its_acknowledgement(cast):
    entry = send_felt_unsafe(cast)
    alert_acknowledge(alert=Alert.objects.get(), by=cast.tara, note=NOTE)
    alice = login(cast.alice.portal_user)
    pages = [
        reverse("homework:dashboard"),
        reverse("homework:history"),
        reverse("homework:progress"),
        reverse("homework:entry", args=[entry.key]),
        "/account/",
        "/account/who-looked/",
        "/account/export.json",
        "/api/v1/assignments/",
        f"/api/v1/entries/{entry.key}/",
        "/api/v1/me/export/",
    ]
    for url in pages:
        response = alice.get(url)
        text = response.content.decode(errors="replace")
        assert response.status_code == 200, (url, response.status_code)
        assert NOTE not in text and "acknowledged" not in text.lower(), url
    assert alice.get(f"/api/v1/clients/{cast.alice.pk}/alerts/").status_code == 403


# -- acknowledging: bad input changes nothing


@pytest.mark.parametrize(
    ("note", "said"),
    [
        ("", "Say in a few words what you did"),
        ("   \n ", "Say in a few words what you did"),
        ("x" * 201, "201"),
    ],
)
def test_an_empty_or_overlong_note_is_refused_with_the_words_kept(cast, note, said):
    send_felt_unsafe(cast)
    alert = Alert.objects.get()
    page = acknowledge(login(cast.tara), alert, note)
    assert page.status_code == 400
    text = page.content.decode()
    assert said in text and "Nothing was changed" in text
    alert.refresh_from_db()
    assert alert.is_open and alert.note == ""


def test_a_note_of_200_characters_is_taken_trimmed(cast):
    send_felt_unsafe(cast)
    done = alert_acknowledge(alert=Alert.objects.get(), by=cast.tara, note=f"  {'y' * 200}  ")
    assert done.note == "y" * 200 and done.acknowledged_by == cast.tara


def test_another_therapist_finds_no_such_alert_and_nothing_changes(cast):
    send_felt_unsafe(cast)
    alert = Alert.objects.get()
    assert acknowledge(login(cast.theo), alert, NOTE).status_code == 404
    with pytest.raises(PermissionDenied):
        alert_acknowledge(alert=alert, by=cast.theo, note=NOTE)
    alert.refresh_from_db()
    assert alert.is_open


def test_the_manager_may_acknowledge(cast):
    send_felt_unsafe(cast)
    acknowledge(login(cast.morgan), Alert.objects.get(), "spoke to Tara, she is calling")
    assert Alert.objects.get().acknowledged_by == cast.morgan


def test_acknowledged_twice_the_second_is_told_by_whom_and_nothing_changes(cast):
    send_felt_unsafe(cast)
    alert = Alert.objects.get()
    alert_acknowledge(alert=alert, by=cast.tara, note=NOTE)
    with pytest.raises(AlertAlreadyAcknowledged) as second:
        alert_acknowledge(alert=alert, by=cast.morgan, note="calling now")
    assert second.value.alert.acknowledged_by == cast.tara
    page = acknowledge(login(cast.morgan), alert, "calling now", next_url=reverse("admin:index"))
    assert page.status_code == 302
    shown = login(cast.morgan).get(reverse("admin:index"))  # the message waits in the session
    alert.refresh_from_db()
    assert (alert.acknowledged_by, alert.note) == (cast.tara, NOTE)
    assert shown.status_code == 200


def test_acknowledging_is_in_the_admin_history_without_the_note(cast):
    from django.contrib.admin.models import LogEntry

    send_felt_unsafe(cast)
    alert_acknowledge(alert=Alert.objects.get(), by=cast.tara, note=NOTE)
    [line] = LogEntry.objects.filter(object_id=str(Alert.objects.get().pk))
    assert line.user == cast.tara and NOTE not in line.change_message


def test_a_get_is_not_an_acknowledgement(cast):
    send_felt_unsafe(cast)
    alert = Alert.objects.get()
    assert (
        login(cast.tara).get(reverse("admin:alert_acknowledge", args=[alert.pk])).status_code == 405
    )


def test_a_validation_error_names_the_note_field(cast):
    send_felt_unsafe(cast)
    with pytest.raises(ValidationError) as refused:
        alert_acknowledge(alert=Alert.objects.get(), by=cast.tara, note="")
    assert list(refused.value.message_dict) == ["note"]


def test_an_alert_on_an_entry_made_private_again_is_hidden_from_staff(cast):
    entry = send_felt_unsafe(cast)
    Entry.objects.filter(pk=entry.pk).update(private=True)
    assert staff_home(user=cast.tara, previous_visit=None, now=timezone.now()).alerts == []
    assert acknowledge(login(cast.tara), Alert.objects.get(), NOTE).status_code == 404


def test_raised_at_is_when_it_was_shared(cast):
    earlier = timezone.now() - dt.timedelta(hours=3)
    entry = EntryFactory.create(
        assignment=cast.alice_assignment, felt_unsafe=True, submitted_at=earlier
    )
    assert Alert.objects.get(entry=entry).raised_at == earlier


def test_erasing_the_client_erases_their_alerts_and_the_admin_history_of_them(cast):
    from django.contrib.admin.models import LogEntry
    from django.contrib.contenttypes.models import ContentType

    from tests.homework.test_erasure import confirm, erase_url

    send_felt_unsafe(cast)
    alert_acknowledge(alert=Alert.objects.get(), by=cast.tara, note=NOTE)
    http = login(cast.morgan)
    _page, data = confirm(http, cast.alice)
    assert http.post(erase_url(cast.alice), data).status_code == 302
    assert not Alert.objects.exists()
    assert not LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(Alert))
