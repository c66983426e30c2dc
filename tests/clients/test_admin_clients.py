"""The client's page: sessions, archiving (never deleting), and lists that show only yours."""

import datetime as dt
import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from clients import services
from clients.models import Client, Session
from homework.models import Entry
from tests.conftest import login, save_change_form
from tests.factories import AssignmentFactory, SessionFactory, daily_assignment
from tests.helpers import form_on, session_data

CHANGELIST = "admin:clients_client_changelist"


def archive_url(client):
    return reverse("admin:clients_client_archive", args=[client.pk])


# -- archive, never delete ---------------------------------------------------------


def test_archiving_keeps_the_records_and_takes_the_client_out_of_lists_and_portal(cast):
    http = login(cast.tara)
    confirm = http.get(archive_url(cast.alice))
    assert "Everything they wrote stays" in confirm.text
    assert Client.objects.get(pk=cast.alice.pk).status == "active"  # a GET changes nothing
    done = http.post(archive_url(cast.alice), follow=True)
    assert "Alice is archived. Their records are kept; nothing was deleted." in done.text
    assert Client.objects.get(pk=cast.alice.pk).status == "archived"
    assert Entry.objects.filter(pk=cast.alice_entry.pk).exists()
    assert "Alice" not in http.get(reverse(CHANGELIST)).text
    assert "Alice" in http.get(reverse(CHANGELIST) + "?status=archived").text
    # Out of the portal, but not shut out: their archived client's page (test_archived_client).
    portal = login(cast.alice.portal_user).get(reverse("homework:dashboard"))
    assert (portal.status_code, portal["Location"]) == (302, reverse("clients:closed"))


def test_restoring_brings_the_client_back(cast):
    services.client_archive(actor=cast.tara, client=cast.alice)
    login(cast.tara).post(archive_url(cast.alice))
    assert Client.objects.get(pk=cast.alice.pk).status == "active"


def test_another_therapist_cannot_archive_your_client(cast):
    response = login(cast.theo).post(archive_url(cast.alice))
    assert response.status_code == 302 and response["Location"] == reverse("admin:index")
    assert Client.objects.get(pk=cast.alice.pk).status == "active"
    with pytest.raises(PermissionDenied):
        services.client_archive(actor=cast.theo, client=cast.alice)


def test_archive_action_for_several_and_no_delete_anywhere(cast):
    http = login(cast.tara)
    page = http.get(reverse(CHANGELIST))
    actions = [value for value, _ in page.context["action_form"].fields["action"].choices]
    assert "delete_selected" not in actions and "archive_selected" in actions
    http.post(
        reverse(CHANGELIST),
        {"action": "archive_selected", ACTION_CHECKBOX_NAME: [str(cast.alice.pk)]},
    )
    assert Client.objects.get(pk=cast.alice.pk).status == "archived"
    deleting = http.post(
        reverse("admin:clients_client_delete", args=[cast.alice.pk]), {"post": "yes"}
    )
    assert deleting.status_code == 403
    assert Client.objects.filter(pk=cast.alice.pk).exists()


def test_status_cannot_be_changed_by_a_crafted_form(cast):
    http = login(cast.tara)
    url = reverse("admin:clients_client_change", args=[cast.alice.pk])
    form = http.get(url).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(
        {
            "display_name": "Alice",
            "timezone": "Europe/London",
            "status": "archived",
            "sessions-TOTAL_FORMS": "0",
            "sessions-INITIAL_FORMS": "0",
        }
    )
    response = save_change_form(http, url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Client.objects.get(pk=cast.alice.pk).status == "active"


# -- sessions on the client's page ---------------------------------------------------


def test_the_next_session_is_recorded_on_the_client_page(cast):
    when = timezone.localtime() + dt.timedelta(days=6)
    response = save_change_form(
        login(cast.tara),
        reverse("admin:clients_client_change", args=[cast.alice.pk]),
        session_data(
            [
                {
                    "starts_at_0": when.strftime("%d/%m/%Y"),
                    "starts_at_1": "10:30:00",
                    "client": str(cast.alice.pk),
                }
            ]
        ),
    )
    assert response.status_code == 302, response.context["inline_admin_formsets"][0].formset.errors
    session = Session.objects.get(client=cast.alice)
    assert timezone.localtime(session.starts_at).strftime("%d %H:%M") == when.strftime("%d 10:30")


def test_a_session_time_reads_in_hours_and_minutes(cast):
    """A therapist books 10:30, not 10:30:00: the seconds were noise on every
    row, and the admin's "Now" shortcut wrote them too (it reads the same
    first time format through the JavaScript catalog)."""
    SessionFactory.create(
        client=cast.alice,
        starts_at=timezone.make_aware(
            dt.datetime.combine(timezone.localdate() + dt.timedelta(days=2), dt.time(10, 30))
        ),
    )
    client = login(cast.tara)
    page = client.get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    assert 'value="10:30"' in page.content.decode()
    catalog = client.get(reverse("admin:jsi18n")).content.decode()
    assert re.search(r'"TIME_INPUT_FORMATS": \[\s*"%H:%M",', catalog)


def test_a_session_with_seconds_shows_them_and_saves_unchanged(cast):
    """Set by "Now" before it wrote none: shown without its seconds, the row
    would read as changed on every save of the page, and be checked again."""
    starts = timezone.make_aware(
        dt.datetime.combine(timezone.localdate() + dt.timedelta(days=2), dt.time(10, 30, 17))
    )
    SessionFactory.create(client=cast.alice, starts_at=starts)
    page = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    assert 'value="10:30:17"' in page.content.decode()


def test_a_session_time_typed_with_seconds_is_still_read(cast):
    when = timezone.localtime() + dt.timedelta(days=3)
    save_change_form(
        login(cast.tara),
        reverse("admin:clients_client_change", args=[cast.alice.pk]),
        session_data(
            [
                {
                    "starts_at_0": when.strftime("%d/%m/%Y"),
                    "starts_at_1": "09:15:00",
                    "client": str(cast.alice.pk),
                }
            ]
        ),
    )
    session = Session.objects.get(client=cast.alice)
    assert timezone.localtime(session.starts_at).strftime("%H:%M") == "09:15"


def test_two_sessions_at_the_same_time_are_explained(cast):
    existing = SessionFactory.create(client=cast.alice)
    local = timezone.localtime(existing.starts_at)
    response = save_change_form(
        login(cast.tara),
        reverse("admin:clients_client_change", args=[cast.alice.pk]),
        session_data(
            [
                {
                    "id": str(existing.pk),
                    "client": str(cast.alice.pk),
                    "starts_at_0": local.strftime("%d/%m/%Y"),
                    "starts_at_1": local.strftime("%H:%M:%S"),
                },
                {
                    "client": str(cast.alice.pk),
                    "starts_at_0": local.strftime("%d/%m/%Y"),
                    "starts_at_1": local.strftime("%H:%M:%S"),
                },
            ],
            initial=1,
        ),
    )
    assert response.status_code == 200
    assert "already has a session at that time" in response.text or "duplicate" in response.text
    assert Session.objects.filter(client=cast.alice).count() == 1


def test_a_past_session_can_be_removed(cast):
    past = SessionFactory.create(client=cast.alice, starts_at=timezone.now() - dt.timedelta(days=3))
    local = timezone.localtime(past.starts_at)
    response = save_change_form(
        login(cast.tara),
        reverse("admin:clients_client_change", args=[cast.alice.pk]),
        session_data(
            [
                {
                    "id": str(past.pk),
                    "client": str(cast.alice.pk),
                    "starts_at_0": local.strftime("%d/%m/%Y"),
                    "starts_at_1": local.strftime("%H:%M:%S"),
                    "DELETE": "on",
                }
            ],
            initial=1,
        ),
    )
    assert response.status_code == 302
    assert not Session.objects.filter(pk=past.pk).exists()


def test_the_client_list_shows_the_next_session(cast):
    soon = SessionFactory.create(client=cast.alice, starts_at=timezone.now() + dt.timedelta(days=2))
    SessionFactory.create(client=cast.alice, starts_at=timezone.now() - dt.timedelta(days=2))
    page = login(cast.tara).get(reverse(CHANGELIST))
    alice = next(c for c in page.context["cl"].result_list if c.pk == cast.alice.pk)
    assert alice.upcoming == soon.starts_at


def open_work_in_the_list(cast) -> dict[str, object]:
    page = login(cast.tara).get(reverse(CHANGELIST) + "?status=all")
    changelist = page.context["cl"]
    return {
        row.display_name: changelist.model_admin.open_assignments(row)
        for row in changelist.result_list
    }


def test_open_work_is_what_the_progress_column_calls_open_or_overdue(cast):
    today = timezone.localdate()
    # cast.alice_assignment: one-off, already sent (cast.alice_entry): done.
    daily_assignment(  # ended
        cast.alice, starts_on=today - dt.timedelta(days=30), ends_on=today - dt.timedelta(days=20)
    )
    assert open_work_in_the_list(cast)["Alice"] == 0
    AssignmentFactory.create(client=cast.alice, due_on=today + dt.timedelta(days=3))  # open
    AssignmentFactory.create(  # overdue
        client=cast.alice,
        starts_on=today - dt.timedelta(days=9),
        due_on=today - dt.timedelta(days=2),
    )
    AssignmentFactory.create(client=cast.alice, status="cancelled")
    assert open_work_in_the_list(cast)["Alice"] == 2


def test_an_archived_client_has_no_open_work(cast):
    AssignmentFactory.create_batch(3, client=cast.alice)
    services.client_archive(actor=cast.tara, client=cast.alice)
    assert open_work_in_the_list(cast)["Alice"] == 0


# -- lists show only yours ------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "admin:homework_assignment_changelist",
        "admin:homework_entry_changelist",
    ],
)
def test_the_client_filter_names_only_your_clients(cast, url):
    page = login(cast.tara).get(reverse(url))
    client_filter = next(
        spec for spec in page.context["cl"].filter_specs if spec.parameter_name == "client"
    )
    assert [name for _, name in client_filter.lookup_choices] == ["Alice"]
    crafted = login(cast.tara).get(reverse(url) + f"?client={cast.bob.pk}")
    assert crafted.context["cl"].result_count == 0


def test_search_and_popups_never_reach_another_therapists_clients(cast):
    http = login(cast.tara)
    assert http.get(reverse(CHANGELIST) + "?q=Bob").context["cl"].result_count == 0
    popup = http.get(reverse(CHANGELIST) + "?_popup=1&_to_field=id")
    assert [c.display_name for c in popup.context["cl"].result_list] == ["Alice"]
    entries = http.get(reverse("admin:homework_entry_changelist") + "?q=Bob")
    assert entries.context["cl"].result_count == 0


def test_the_manager_sees_and_filters_the_whole_practice(cast):
    page = login(cast.morgan).get(reverse(CHANGELIST))
    assert {c.display_name for c in page.context["cl"].result_list} == {"Alice", "Bob"}
    assert any(spec.title == "therapist" for spec in page.context["cl"].filter_specs)


def test_staff_never_see_the_address_a_client_signs_in_with(cast):
    """The welcome form promises it is shown to no one here."""
    address = cast.alice.portal_user.email
    page = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    assert page.status_code == 200
    assert "Set up on" in page.text
    assert address not in page.text
    users = login(cast.morgan).get(reverse("admin:practice_user_changelist"))
    assert users.status_code == 200
    assert cast.tara.email in users.text and address not in users.text
    account = reverse("admin:practice_user_change", args=[cast.alice.portal_user.pk])
    assert login(cast.morgan).get(account).status_code == 302  # "no such user": the admin's list


def test_the_client_page_leads_to_their_work_and_only_theirs(cast):
    http = login(cast.tara)
    page = http.get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    work = f"{reverse('admin:homework_assignment_changelist')}?client={cast.alice.pk}"
    assert work in page.text
    listed = http.get(work)
    assert listed.status_code == 200
    assert list(listed.context["cl"].result_list) == [cast.alice_assignment]


def test_a_therapist_adding_a_client_is_not_shown_an_empty_therapist_line(cast):
    """The client will be theirs: a read-only "Therapist: -" said nothing.
    A manager chooses whose client it is."""
    url = reverse("admin:clients_client_add")
    _name, first = login(cast.tara).get(url).context["adminform"].fieldsets[0]
    assert "therapist" not in first["fields"]
    _name, first = login(cast.morgan).get(url).context["adminform"].fieldsets[0]
    assert "therapist" in first["fields"]


def test_a_therapist_adds_a_client_of_their_own(cast):
    page = login(cast.tara).post(
        reverse("admin:clients_client_add"),
        {
            "display_name": "Jordan",
            "timezone": "Europe/London",
            "sessions-TOTAL_FORMS": "0",
            "sessions-INITIAL_FORMS": "0",
        },
    )
    assert page.status_code == 302, page.context and page.context["adminform"].form.errors
    assert Client.objects.get(display_name="Jordan").therapist == cast.tara


def test_the_client_page_offers_no_reminder_control_of_its_own(cast):
    # Reminders follow the client's contact profile alone (tests/clients/test_contact_admin.py).
    page = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    form = page.context["adminform"].form
    assert not {"reminder_channel", "quiet_hours_start", "quiet_hours_end"} & set(form.fields)


def test_after_adding_a_client_the_therapist_is_offered_the_invitation(cast):
    http = login(cast.tara)
    added = http.post(
        reverse("admin:clients_client_add"),
        {
            "display_name": "Jordan",
            "contact_email": "",
            "timezone": "Europe/London",
            "sessions-TOTAL_FORMS": "0",
            "sessions-INITIAL_FORMS": "0",
        },
    )
    jordan = Client.objects.get(display_name="Jordan")
    assert added.status_code == 302
    assert added["Location"] == reverse("admin:clients_client_change", args=[jordan.pk])
    page = http.get(added["Location"]).text
    assert "Jordan was added" in page
    assert f'href="{reverse("admin:clients_client_invite", args=[jordan.pk])}"' in page
    assert "Invite them to the portal" in page


def test_the_session_rows_on_a_clients_page_have_labelled_fields(cast):
    """A tabular inline shows its labels as column headings, which do not name
    the fields: a screen reader heard "edit text" for each session's date and time."""
    SessionFactory.create(client=cast.alice)
    page = login(cast.tara).get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    inputs = re.findall(r'<input[^>]*name="sessions-\d+-starts_at_\d"[^>]*>', page.text)
    assert len(inputs) == 4  # the session's date and time, and the new row's
    for tag in inputs:
        part = re.search(r'starts_at_(\d)"', tag)
        assert part is not None
        label = {"0": "Session date", "1": "Session time"}[part.group(1)]
        assert f'aria-label="{label}"' in tag, tag


# -- the sessions table: the recent ones, and a link to them all -------------------


def test_the_client_page_draws_recent_and_coming_sessions_and_links_to_all(cast):
    now = timezone.now()
    past = [
        SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=7 * weeks))
        for weeks in range(1, 13)
    ]
    coming = [
        SessionFactory.create(client=cast.alice, starts_at=now + dt.timedelta(days=days))
        for days in (3, 10)
    ]
    SessionFactory.create(client=cast.bob, starts_at=now - dt.timedelta(days=2))
    http = login(cast.tara)
    url = reverse("admin:clients_client_change", args=[cast.alice.pk])
    page = http.get(url)
    drawn = [form.instance.pk for form in page.context["inline_admin_formsets"][0].formset]
    assert set(drawn) - {None} == {s.pk for s in coming + past[:10]}  # the two oldest are not
    # Saving the page as drawn still saves (its fingerprint is of the rows it shows).
    assert http.post(url, form_on(page, "client")).status_code == 302
    sessions = reverse("admin:clients_session_changelist") + f"?client={cast.alice.pk}"
    assert f'href="{sessions.replace("&", "&amp;")}"' in page.text
    listed = http.get(sessions).context["cl"].result_list
    assert {s.pk for s in listed} == {s.pk for s in past + coming}
