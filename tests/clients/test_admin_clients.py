"""The client's page: sessions, archiving (never deleting), and lists that show only yours."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from clients import services
from clients.models import Client
from homework.models import Entry
from tests.conftest import login, save_change_form

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
        }
    )
    response = save_change_form(http, url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Client.objects.get(pk=cast.alice.pk).status == "active"


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
        },
    )
    jordan = Client.objects.get(display_name="Jordan")
    assert added.status_code == 302
    assert added["Location"] == reverse("admin:clients_client_change", args=[jordan.pk])
    page = http.get(added["Location"]).text
    assert "Jordan was added" in page
    assert f'href="{reverse("admin:clients_client_invite", args=[jordan.pk])}"' in page
    assert "Invite them to the portal" in page
