"""Every look at a client's words is in their access log, whichever route shows them.

One client's entries of every kind, and a note of hers, each carry a word of
their own (a canary). The permission walk's own routes are visited as
therapist and manager: a response that shows a canary must have written a
line in her access log, and one that shows none must not have.
"""

import io
import json

import pytest
from pypdf import PdfReader

from clients.models import AccessEvent
from homework.models import EntryNote
from tests import factories
from tests.conftest import Cast, login
from tests.test_permissions import TABLE

CANARIES = {
    "written_record": ("what_happened", "canarywrittenrecord"),
    "urge_log": ("did_instead", "canaryurgelog"),
    "boundary_steps": ("steps", "canaryboundarysteps"),
    "support_network": ("people", "canarysupportnetwork"),
    "safety_plan": ("code_word", "canarysafetyplan"),
    "worksheet": ("story", "canaryworksheet"),
    "reading": ("reflection_1", "canaryreading"),
}
NOTE_CANARY = "canaryclientnote"
# A measure (a worksheet scored against bands) with a written answer: the FHIR export carries
# only measures, so its canary is her words there.
MEASURE_CANARY = "canarymeasure"
ALL_CANARIES = (*(canary for _field, canary in CANARIES.values()), NOTE_CANARY, MEASURE_CANARY)


def response_with_canary(kind: str) -> dict[str, object]:
    field, canary = CANARIES[kind]
    response = factories.RESPONSES[kind]()
    if kind == "urge_log":
        response["at"] = factories.earlier_today(hours=1).isoformat()
    if kind == "boundary_steps":
        response["steps"][0]["boundary"] = canary
    elif kind == "support_network":
        response["people"][0]["name"] = canary
    else:
        response[field] = canary
    return response


@pytest.fixture
def alice_wrote_canaries(cast: Cast) -> Cast:
    factories.SessionFactory.create(client=cast.alice)
    for kind in CANARIES:
        exercise = factories.ExerciseFactory.create(
            kind=kind, options=factories.options_for(kind), title=f"Exercise {kind}"
        )
        assignment = factories.AssignmentFactory.create(client=cast.alice, exercise=exercise)
        factories.EntryFactory.create(assignment=assignment, response=response_with_canary(kind))
    EntryNote.objects.create(entry=cast.alice_entry, text=NOTE_CANARY)
    options = factories.options_for("worksheet")
    banded = {"bands": [{"from": 0, "to": 10, "label": "Any"}]}
    measure = factories.ExerciseFactory.create(
        kind="worksheet",
        title="A measure",
        options={**options, "score": {**options["score"], **banded}},
    )
    factories.EntryFactory.create(
        assignment=factories.AssignmentFactory.create(client=cast.alice, exercise=measure),
        response=factories.worksheet(story=MEASURE_CANARY),
    )
    return cast


def shown_text(response) -> str:
    body = b"".join(response) if response.streaming else response.content
    if response.get("Content-Type", "").startswith("application/pdf"):
        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    text = body.decode("utf-8", errors="replace")
    if response.get("Content-Type", "").startswith("application/json"):
        return json.dumps(json.loads(text), ensure_ascii=False)
    return text


# Routes that must show her words to her therapist and the manager: if one
# stopped, the walk below would prove nothing about it.
MUST_SHOW = {
    "admin/clients/client/<path:object_id>/change/",
    "admin/clients/client/<path:object_id>/since-last-session/",
    "admin/clients/client/<path:object_id>/summary/",
    "admin/homework/entry/",
    "admin/homework/entry/<path:object_id>/change/",
    "api/v1/clients/<int:client_id>/entries/",
    "api/v1/clients/<int:client_id>/summary.pdf",
    "api/v1/clients/<int:client_id>/fhir/",
}


# Beside each route as the permission walk opens it, the same route asked
# for more: the summary in full detail prints the whole safety plan.
FULL_DETAIL = {
    "admin/clients/client/<path:object_id>/summary/",
    "api/v1/clients/<int:client_id>/summary.pdf",
}


def visits():
    for route, row in sorted(TABLE.items()):
        yield route, row, ""
        if route in FULL_DETAIL:
            yield f"{route}?full_detail=1", row, "?full_detail=1"


@pytest.mark.parametrize("role", ["tara", "morgan", "theo"])
def test_every_route_that_shows_her_words_logs_the_look(alice_wrote_canaries, role):
    cast = alice_wrote_canaries
    who = getattr(cast, role)
    wrong, showing, seen = [], set(), set()
    for route, row, query in visits():
        AccessEvent.objects.all().delete()  # so no earlier look hides this one as a repeat
        url = row.path(cast) + query
        before = AccessEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        who.refresh_from_db()
        response = getattr(login(who), row.method)(url)
        text = shown_text(response)
        shown = [canary for canary in ALL_CANARIES if canary in text]
        logged = AccessEvent.objects.filter(pk__gt=before, client=cast.alice, actor=who).exists()
        if shown:
            showing.add(route)
            seen.update(shown)
        if bool(shown) != logged:
            wrong.append(
                f"{row.method.upper()} {url} ({route}): shows {shown or 'no words'}, "
                f"{'a line' if logged else 'no line'} in her access log"
            )
    assert not wrong, f"As {role}:\n" + "\n".join(wrong)
    if role == "theo":
        assert not showing
    else:
        assert showing >= MUST_SHOW, sorted(MUST_SHOW - showing)
        assert seen == set(ALL_CANARIES), sorted(set(ALL_CANARIES) - seen)
