"""A plan, a map or a ladder is updated from the last one sent: a page opened
before a newer one was sent (another tab, another device) must not quietly
replace it with the older words plus its own change."""

import uuid
from typing import Any

import pytest
from django.urls import reverse

from homework import services
from homework.models import Entry
from homework.services import EntryConflict, EntrySentSince, Flags
from tests.conftest import login
from tests.factories import AssignmentFactory, EntryFactory, ExerciseFactory, safety_plan
from tests.helpers import do_url
from tests.helpers_entries import newest_sent_response

FIRST_PLAN = safety_plan(people_to_call="Jo, then my sister.", code_word="pineapple")


@pytest.fixture
def plan(cast):
    """Alice's safety plan, sent once already: each page opens on a copy of it."""
    assignment = AssignmentFactory.create(
        client=cast.alice, exercise=ExerciseFactory.create(kind="safety_plan")
    )
    EntryFactory.create(assignment=assignment, response=FIRST_PLAN)
    return assignment


def autosave_url(assignment) -> str:
    return reverse("homework:autosave", args=[assignment.pk])


def opened(http, assignment) -> dict[str, str]:
    """The hidden part of the form as a freshly opened page posts it."""
    initial = http.get(do_url(assignment)).context["envelope"].initial
    return {
        name: str(initial[name])
        for name in ("key", "version", "sent_count_seen")
        if name in initial
    }


def answers(**changes) -> dict[str, str]:
    return {f"r-{name}": value for name, value in {**FIRST_PLAN, **changes}.items()}


def two_tabs_and_the_first_sends(http, plan) -> dict[str, str]:
    """The plan open in two tabs; the first sends cousin Lina. The second tab's
    hidden fields, as it was opened before that."""
    tab_a, tab_b = opened(http, plan), opened(http, plan)
    sent = http.post(do_url(plan), {**tab_a, **answers(people_to_call="Jo, my cousin Lina.")})
    assert sent.status_code == 302
    return tab_b


def the_second_tab_meets_the_newer_plan(http, plan) -> tuple[dict[str, str], dict[str, Any]]:
    """Two tabs; the first sends; the second's autosave meets it. Its hidden
    fields and the conflict it was told of."""
    tab_b = two_tabs_and_the_first_sends(http, plan)
    saved = http.post(autosave_url(plan), {**tab_b, **answers(code_word="mango")})
    assert saved.status_code == 409
    return tab_b, saved.json()["conflict"]


def test_a_page_opened_before_a_newer_plan_was_sent_cannot_quietly_replace_it(cast, plan):
    http = login(cast.alice.portal_user)
    tab_b = two_tabs_and_the_first_sends(http, plan)

    saved = http.post(autosave_url(plan), {**tab_b, **answers(code_word="mango")})
    assert saved.status_code == 409
    conflict = saved.json()["conflict"]
    rows = {row["label"]: (row["mine"], row["theirs"]) for row in conflict["rows"]}
    assert ("Jo, then my sister.", "Jo, my cousin Lina.") in rows.values()
    assert conflict["updated_since"]

    refused = http.post(do_url(plan), {**tab_b, **answers(code_word="mango")})
    assert refused.status_code == 409
    assert "A newer version was sent since you opened this page" in refused.text
    assert "Jo, my cousin Lina." in refused.text and "mango" in refused.text
    assert newest_sent_response(plan)["people_to_call"] == "Jo, my cousin Lina."
    assert Entry.objects.filter(assignment=plan).count() == 2  # tab B sent nothing


def test_keeping_my_version_after_seeing_both_sends_it(cast, plan):
    """Merged by hand: the client copies the newer words into their page."""
    http = login(cast.alice.portal_user)
    tab_b = two_tabs_and_the_first_sends(http, plan)
    merged = answers(people_to_call="Jo, my cousin Lina.", code_word="mango")
    refused = http.post(do_url(plan), {**tab_b, **merged})
    assert refused.status_code == 409
    again = refused.context["envelope"].data
    sent = http.post(do_url(plan), {**merged, **{n: again[n] for n in tab_b}})
    assert sent.status_code == 302
    assert newest_sent_response(plan)["code_word"] == "mango"
    assert newest_sent_response(plan)["people_to_call"] == "Jo, my cousin Lina."


def test_keeping_my_version_from_the_autosave_choice_then_saves_and_sends(cast, plan):
    http = login(cast.alice.portal_user)
    tab_b, conflict = the_second_tab_meets_the_newer_plan(http, plan)
    # What autosave.js does on "Keep what is on this page".
    chosen = {
        **tab_b,
        "key": conflict["key"],
        "version": str(conflict["version"]),
        "sent_count_seen": str(conflict["sent_count_seen"]),
    }
    assert (
        http.post(autosave_url(plan), {**chosen, **answers(code_word="mango")}).status_code == 200
    )
    chosen["version"] = "1"
    assert http.post(do_url(plan), {**chosen, **answers(code_word="mango")}).status_code == 302
    assert newest_sent_response(plan)["code_word"] == "mango"


def test_taking_the_newer_version_opens_the_page_on_it(cast, plan):
    http = login(cast.alice.portal_user)
    _tab_b, conflict = the_second_tab_meets_the_newer_plan(http, plan)
    fresh = http.get(conflict["newer_url"])
    assert "Jo, my cousin Lina." in fresh.text
    envelope = fresh.context["envelope"].initial
    sent = http.post(
        do_url(plan),
        {
            "key": str(envelope["key"]),
            "version": str(envelope["version"]),
            "sent_count_seen": str(envelope["sent_count_seen"]),
            **answers(people_to_call="Jo, my cousin Lina.", code_word="kiwi"),
        },
    )
    assert sent.status_code == 302
    assert newest_sent_response(plan)["code_word"] == "kiwi"


def test_one_tab_opening_saving_and_sending_meets_no_conflict(cast, plan):
    http = login(cast.alice.portal_user)
    page = opened(http, plan)
    saved = http.post(autosave_url(plan), {**page, **answers(code_word="mango")})
    assert saved.status_code == 200
    page["version"] = str(saved.json()["version"])
    changed = answers(code_word="mango", safe_places="The library.")
    assert http.post(do_url(plan), {**page, **changed}).status_code == 302
    # A double click, or a replay: the same entry, sent once.
    assert http.post(do_url(plan), {**page, **changed}).status_code == 302
    assert newest_sent_response(plan)["safe_places"] == "The library."
    assert Entry.objects.filter(assignment=plan).count() == 2


def test_a_draft_carried_on_later_still_knows_the_plan_it_started_from(cast, plan):
    """Carried on after a reload or the next day: the draft remembers which
    plan its page was filled from, so a newer one sent meanwhile is not lost."""
    http = login(cast.alice.portal_user)
    tab_b = opened(http, plan)
    saved = http.post(autosave_url(plan), {**tab_b, **answers(code_word="mango")})
    assert saved.status_code == 200
    carried_on = opened(http, plan)
    assert carried_on["key"] == tab_b["key"]
    assert carried_on["sent_count_seen"] == tab_b["sent_count_seen"]
    assert http.post(do_url(plan), {**carried_on, **answers(code_word="mango")}).status_code == 302


def test_the_quick_exit_keeps_a_stale_pages_words_and_the_plan_it_started_from(cast, plan):
    http = login(cast.alice.portal_user)
    tab_b = two_tabs_and_the_first_sends(http, plan)
    left = http.post(
        reverse("homework:quick_exit"),
        {
            "beacon": "1",
            "draft-assignment": str(plan.pk),
            **{f"draft-{name}": value for name, value in tab_b.items()},
            **{f"draft-{name}": value for name, value in answers(code_word="mango").items()},
        },
    )
    assert left.status_code == 204
    kept = Entry.objects.get(key=tab_b["key"])
    assert kept.status == Entry.Status.DRAFT and kept.response["code_word"] == "mango"

    http = login(cast.alice.portal_user)
    carried_on = opened(http, plan)
    assert carried_on["key"] == tab_b["key"]
    refused = http.post(do_url(plan), {**carried_on, **answers(code_word="mango")})
    assert refused.status_code == 409
    assert "Jo, my cousin Lina." in refused.text
    assert newest_sent_response(plan)["people_to_call"] == "Jo, my cousin Lina."


def written_from_a_page_opened_after_one_send(write, cast, plan, **changes: str):
    """``write`` (a service) from a new page, opened when the plan had been sent once."""
    return write(
        user=cast.alice.portal_user,
        assignment_id=plan.pk,
        key=uuid.uuid4(),
        base_version=0,
        data=safety_plan(**changes),
        flags=Flags(),
        sent_count_seen=1,
    )


def test_the_service_refuses_a_send_from_before_a_newer_plan(cast, plan):
    submit, save_draft = services.entry_submit, services.entry_save_draft
    written_from_a_page_opened_after_one_send(
        submit, cast, plan, people_to_call="Jo, my cousin Lina."
    )
    with pytest.raises(EntryConflict) as caught:
        written_from_a_page_opened_after_one_send(submit, cast, plan, code_word="mango")
    assert caught.value.entry.response["people_to_call"] == "Jo, my cousin Lina."
    with pytest.raises(EntryConflict):
        written_from_a_page_opened_after_one_send(save_draft, cast, plan, code_word="mango")


def test_work_that_does_not_continue_the_last_entry_is_not_checked(cast):
    """A written record starts blank: another sent meanwhile is simply another."""
    http = login(cast.alice.portal_user)
    page = http.get(do_url(cast.alice_assignment)).context["envelope"].initial
    assert page.get("sent_count_seen") is None


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_tabs_sending_the_same_plan_at_once_send_one_and_show_the_other_both(cast, plan):
    """On PostgreSQL, both queued on the assignment's lock: whichever goes
    first is sent, and the other meets it as newer (tests/homework/test_races.py)."""
    from tests.helpers_workers import lock_assignment, row_locked, start, until_waiting

    def send(name: str, **changes: str):
        return start(
            name,
            lambda: written_from_a_page_opened_after_one_send(
                services.entry_submit, cast, plan, **changes
            ),
        )

    with row_locked(lock_assignment(plan)):
        tabs = [
            send("tab A", people_to_call="Jo, my cousin Lina."),
            send("tab B", code_word="mango"),
        ]
        until_waiting(2)
    refused = [tab.error for tab in (tab.finish() for tab in tabs) if tab.error is not None]
    assert len(refused) == 1 and isinstance(refused[0], EntrySentSince), refused
    assert Entry.objects.filter(assignment=plan, status=Entry.Status.SUBMITTED).count() == 2
