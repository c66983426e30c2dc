"""The contact profile on the therapist's side: read on the client's page,
set with the client in session (which marks it checked), re-checked when
older than the practice's period; the client's changes shown here."""

import datetime as dt

from django.utils import timezone

from clients.models import ContactChange, ContactProfile
from clients.services import contact_profile_update
from homework.selectors.period import PeriodQuery
from homework.summary import render, selectors
from practice.models import PracticeSettings
from tests.conftest import login
from tests.helpers import CONTACT_CHOICES, contact_form_data


def change_page(cast, user=None):
    return login(user or cast.tara).get(f"/admin/clients/client/{cast.alice.pk}/change/")


def contact_url(client) -> str:
    return f"/admin/clients/client/{client.pk}/contact/"


def checked(cast, *, days_ago: int | None) -> None:
    contact_profile_update(actor=cast.alice.portal_user, client=cast.alice, **CONTACT_CHOICES)
    day = None if days_ago is None else timezone.localdate() - dt.timedelta(days=days_ago)
    ContactProfile.objects.filter(client=cast.alice).update(checked_on=day)


def test_the_therapist_sets_the_profile_with_the_client_and_it_is_marked_checked(cast):
    http = login(cast.tara)
    assert http.get(contact_url(cast.alice)).status_code == 200

    response = http.post(contact_url(cast.alice), contact_form_data())

    assert response.status_code == 302
    profile = ContactProfile.objects.get(client=cast.alice)
    assert profile.email_is_safe and profile.checked_on == timezone.localdate()
    change = ContactChange.objects.get(client=cast.alice)
    assert change.by == ContactChange.By.STAFF and change.actor == cast.tara and change.checked


def test_the_therapists_form_chooses_no_day_for_the_client(cast):
    page = login(cast.tara).get(contact_url(cast.alice))
    form = page.context["form"]
    assert not any(name.endswith("_when") for name in form.initial)
    assert "checked" not in "".join(str(day["when"]) for day in form.days())
    response = login(cast.tara).post(contact_url(cast.alice), contact_form_data(wed_when=""))
    assert response.status_code == 400
    assert "on Wednesday" in response.context["form"].errors["wed_when"][0]
    assert not ContactProfile.objects.filter(client=cast.alice).exists()


def test_saving_unchanged_in_session_still_counts_as_checked(cast):
    checked(cast, days_ago=100)
    form = login(cast.tara).get(contact_url(cast.alice)).context["form"]
    data = {k: v for k, v in form.initial.items() if v not in (None, False)}
    data = {k: v.strftime("%H:%M") if isinstance(v, dt.time) else v for k, v in data.items()}
    data["email_is_safe"] = "on"
    login(cast.tara).post(contact_url(cast.alice), data)
    assert ContactProfile.objects.get(client=cast.alice).checked_on == timezone.localdate()
    latest = ContactChange.objects.filter(client=cast.alice).latest("at", "pk")
    assert latest.checked and latest.parts == []


def test_staff_of_another_therapist_find_no_such_page(cast):
    assert login(cast.theo).get(contact_url(cast.alice)).status_code == 404
    assert login(cast.theo).post(contact_url(cast.alice), contact_form_data()).status_code == 404
    assert not ContactProfile.objects.filter(client=cast.alice).exists()
    assert login(cast.tara).get("/admin/clients/client/not-a-number/contact/").status_code == 404


def test_bad_input_on_the_staff_form_is_refused_and_changes_nothing(cast):
    response = login(cast.tara).post(contact_url(cast.alice), contact_form_data(phone="12"))
    assert response.status_code == 400
    assert 'id="error-summary"' in response.text
    assert not ContactProfile.objects.filter(client=cast.alice).exists()


def test_staff_are_told_plainly_an_address_is_another_clients(cast):
    contact_profile_update(
        actor=cast.bob.portal_user,
        client=cast.bob,
        **{**CONTACT_CHOICES, "email": "shared@example.test"},
    )
    response = login(cast.tara).post(
        contact_url(cast.alice), contact_form_data(email="shared@example.test")
    )
    assert response.status_code == 400
    assert "another client's contact profile" in response.context["form"].errors["email"][0]


def test_the_client_page_shows_the_profile_and_the_clients_own_changes(cast):
    contact_profile_update(actor=cast.alice.portal_user, client=cast.alice, **CONTACT_CHOICES)
    page = change_page(cast).text
    assert "Safe ways:" in page and "Email" in page
    assert "alice.reminders@example.test" in page
    assert "The client" in page and "changed: email turned on, email address" in page
    assert contact_url(cast.alice) in page


def test_the_recheck_prompt_appears_when_never_or_too_long_ago_checked(cast):
    assert "Never checked with the client" in change_page(cast).text
    checked(cast, days_ago=3 * 7)
    page = change_page(cast).text
    assert "contact-recheck" not in page and "Last confirmed by the client in the portal on" in page
    checked(cast, days_ago=9 * 7)
    assert "go through it with them again" in change_page(cast).text
    PracticeSettings.objects.filter(pk=1).update(contact_recheck_weeks=2)
    from practice.selectors import forget_practice_settings

    forget_practice_settings()
    checked(cast, days_ago=3 * 7)
    assert "more than 2 weeks ago" in change_page(cast).text


def test_the_clients_own_save_counts_as_checked_in_the_admin_and_the_summary(cast):
    saved = login(cast.alice.portal_user).post("/account/contact/", contact_form_data())
    assert saved.status_code == 302
    today = timezone.localdate()
    page = change_page(cast).text
    assert "Never checked with the client" not in page
    assert f"Last confirmed by the client in the portal on {today:%-d %B %Y}" in page
    header = summary_header(cast)
    assert "never checked" not in header
    assert f"contact preferences checked {today:%-d %b %Y}<" in header


def test_a_reminder_time_outside_the_clients_safe_hours_is_named_on_their_page(cast):
    login(cast.alice.portal_user).post("/account/contact/", contact_form_data())
    page = change_page(cast).text
    assert "Their daily reminder time, 18:00, is outside the safe hours they chose" in page
    assert "on weekdays, 09:00–17:00; at the weekend, not at all" in page


def summary_header(cast) -> str:
    client = selectors.client_for_summary(user=cast.tara, client_id=cast.alice.pk)
    now = timezone.now()
    period = selectors.resolve_period(user=cast.tara, client=client, query=PeriodQuery(), now=now)
    data = selectors.summary_data(
        user=cast.tara, client=client, period=period, full_detail=False, now=now
    )
    html = render.summary_document(data).html
    return html[: html.index("</header>")]


def test_the_session_summary_says_when_contact_was_last_checked(cast):
    assert "contact preferences never checked with the client" in summary_header(cast)
    checked(cast, days_ago=2)
    day = timezone.localdate() - dt.timedelta(days=2)
    header = summary_header(cast)
    assert f"contact preferences checked {day:%-d %b %Y}<" in header
    checked(cast, days_ago=9 * 7)
    assert "due again" in summary_header(cast)
