"""Going back never looks like loss: the do page opened again by Back after
sending (its address names the page's key, autosave.js) shows what was sent,
not a blank form that reads as though the words were gone."""

import uuid

from django.urls import reverse

from homework.models import Entry
from tests.conftest import login
from tests.helpers import do_url, posted

WORDS = "The door was locked and I waited outside."


def again(assignment, key) -> str:
    return f"{do_url(assignment)}?key={key}"


def test_back_after_sending_shows_the_sent_entry_not_a_blank_form(cast):
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    sent = http.post(do_url(cast.alice_assignment), posted(key, what_happened=WORDS))
    assert sent.status_code == 302
    back = http.get(again(cast.alice_assignment, key), follow=True)
    assert back.redirect_chain == [(reverse("homework:entry", args=[key]), 302)]
    assert WORDS in back.text
    assert "This was sent. Here it is, just as you sent it." in back.text
    assert 'name="r-what_happened"' not in back.text
    assert Entry.objects.filter(key=key, status=Entry.Status.SUBMITTED).count() == 1


def test_a_page_opened_again_with_its_draft_carries_on_with_that_draft(cast):
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    saved = http.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]),
        posted(key, what_happened=WORDS),
    )
    assert saved.status_code == 200
    page = http.get(again(cast.alice_assignment, key))
    assert page.status_code == 200
    assert WORDS in page.text and f'value="{key}"' in page.text


def test_another_clients_key_or_no_key_at_all_opens_a_fresh_page(cast):
    http = login(cast.alice.portal_user)
    bobs = cast.bob_entry
    for address in (again(cast.alice_assignment, bobs.key), again(cast.alice_assignment, "nope")):
        page = http.get(address)
        assert page.status_code == 200
        assert str(bobs.key) not in page.text
        assert 'name="r-what_happened"' in page.text
