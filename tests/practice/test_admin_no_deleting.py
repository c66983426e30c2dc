"""Nothing with a client's records is deleted in the admin. A delete address
(typed from habit, bookmarked, from an older page) says so in the admin's
words and names what to do instead: not the portal's "ask your therapist"."""

import re

import pytest
from django.urls import reverse

from clients.models import Client, Session
from homework.models import Assignment, Entry, Exercise
from tests.conftest import login
from tests.factories import SessionFactory


def delete_urls(cast):
    session = SessionFactory.create(client=cast.alice)
    return {
        "client": (
            reverse("admin:clients_client_delete", args=[cast.alice.pk]),
            "archive",
        ),
        "assignment": (
            reverse("admin:homework_assignment_delete", args=[cast.alice_assignment.pk]),
            "Cancelled",
        ),
        "exercise": (
            reverse("admin:homework_exercise_delete", args=[cast.alice_assignment.exercise_id]),
            "In the library",
        ),
        "entry": (
            reverse("admin:homework_entry_delete", args=[cast.alice_entry.pk]),
            "private",
        ),
        "session": (
            reverse("admin:clients_session_delete", args=[session.pk]),
            "sessions",
        ),
    }


def counts():
    return [m.objects.count() for m in (Client, Session, Assignment, Entry, Exercise)]


@pytest.mark.parametrize("who", ["tara", "morgan"])
def test_a_delete_address_says_nothing_is_deleted_and_what_to_do_instead(cast, who):
    http = login(getattr(cast, who))
    for name, (url, instead) in delete_urls(cast).items():
        before = counts()
        for page in (http.get(url), http.post(url, {"post": "yes"})):
            text = page.content.decode()
            assert page.status_code == 403, name
            assert "Nothing is deleted here" in text, name
            assert instead in text, name
            assert "ask your therapist" not in text, name
        assert counts() == before, name


def test_the_page_says_nothing_of_another_therapists_client(cast):
    url = reverse("admin:clients_client_delete", args=[cast.alice.pk])
    page = login(cast.theo).get(url)
    assert page.status_code == 403
    assert "Alice" not in page.content.decode()
    unknown = login(cast.theo).get(reverse("admin:clients_client_delete", args=[999999]))

    def strip(html: str) -> str:  # the form tokens differ from page to page
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)

    assert strip(unknown.content.decode()) == strip(page.content.decode())


@pytest.mark.parametrize("who", ["tara", "morgan"])
def test_no_list_offers_deleting_and_a_hand_made_bulk_delete_deletes_nothing(cast, who):
    http = login(getattr(cast, who))
    chosen = {
        "/admin/clients/client/": cast.alice.pk,
        "/admin/clients/session/": SessionFactory.create(client=cast.alice).pk,
        "/admin/homework/assignment/": cast.alice_assignment.pk,
        "/admin/homework/entry/": cast.alice_entry.pk,
        "/admin/homework/exercise/": cast.alice_assignment.exercise_id,
    }
    before = counts()
    for url, pk in chosen.items():
        listed = http.get(url)
        assert "delete_selected" not in listed.content.decode(), url
        http.post(url, {"action": "delete_selected", "_selected_action": [pk], "post": "yes"})
    assert counts() == before
