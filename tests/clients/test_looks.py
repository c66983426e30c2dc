"""How a look is caught: where a client's words are read, for staff only, once per client."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from clients.models import AccessEvent
from clients.services.access_log import looks_noted, looks_record
from homework.models import Entry
from tests.conftest import Cast, login
from tests.factories import AssignmentFactory, EntryFactory


def test_words_read_outside_a_request_note_no_look(cast: Cast):
    Entry.objects.get(pk=cast.alice_entry.pk).response  # noqa: B018 (the read is the test)
    assert not AccessEvent.objects.exists()


def test_a_request_notes_each_client_whose_words_it_read_and_only_those(cast: Cast):
    with looks_noted() as looks:
        Entry.objects.get(pk=cast.alice_entry.pk).status  # noqa: B018 (no words: no look)
        assert looks.client_ids() == set()
        Entry.objects.get(pk=cast.alice_entry.pk).response  # noqa: B018
        joined = Entry.objects.select_related("assignment").get(pk=cast.alice_entry.pk)
        joined.response  # noqa: B018
    assert looks.client_ids() == {cast.alice.pk}


def test_a_client_reading_her_own_words_is_no_look(cast: Cast):
    page = login(cast.alice.portal_user).get(reverse("homework:entry", args=[cast.alice_entry.key]))
    assert page.status_code == 200
    assert not AccessEvent.objects.exists()


def test_a_private_entry_in_the_staff_list_is_no_look_at_its_words(cast: Cast):
    """The list shows that it exists, never what it says: no line for bob."""
    bob_assignment = AssignmentFactory.create(client=cast.bob)
    EntryFactory.create(assignment=bob_assignment, private=True)
    Entry.objects.filter(assignment__client=cast.bob, private=False).update(private=True)
    page = login(cast.morgan).get(reverse("admin:homework_entry_changelist"))
    assert page.status_code == 200
    assert "Private: kept by the client for themselves" in page.content.decode()
    assert not AccessEvent.objects.filter(client=cast.bob).exists()
    assert AccessEvent.objects.filter(client=cast.alice).count() == 1


@pytest.mark.parametrize("who", ["tara", "morgan"])
def test_a_page_whose_service_names_the_look_writes_that_line_alone(cast: Cast, who):
    login(getattr(cast, who)).get(
        reverse("admin:homework_entry_change", args=[cast.alice_entry.pk])
    )
    assert list(AccessEvent.objects.values_list("what", flat=True)) == [
        f"{cast.alice_entry.assignment.exercise.title} ({cast.alice_entry.pk})"
    ]


def test_a_reload_within_the_repeat_window_is_one_line(cast: Cast):
    http = login(cast.tara)
    for _ in range(2):
        http.get(reverse("admin:clients_client_change", args=[cast.alice.pk]))
    assert AccessEvent.objects.filter(client=cast.alice).count() == 1


def test_words_read_of_a_client_not_theirs_are_refused_not_logged_as_theirs(cast: Cast):
    """A page that leaked another therapist's client's words would answer 403, not show them."""
    with looks_noted() as looks:
        Entry.objects.get(pk=cast.alice_entry.pk).response  # noqa: B018
        with pytest.raises(PermissionDenied):
            looks_record(actor=cast.theo, looks=looks, path="/admin/somewhere/")
    assert not AccessEvent.objects.exists()
