"""Never say what the client did not say (CLINICAL.md, "Honesty").

Every registered kind is walked: its portal form opens with no answer
chosen, and an entry sent with every optional answer left blank reads, on
every surface that turns it into words or a picture, as not answered or not
at all, never as a fact.
"""

import base64
import copy
import datetime as dt
import html
import re
import uuid
from typing import Any

import pytest
from django import forms
from django.template.loader import render_to_string
from django.utils import timezone

from homework.kinds import ExerciseKind, ResponseInvalid, all_kinds, get_kind
from homework.kinds.values import SummaryScope
from homework.models import Entry
from homework.workspace.display import entry_html
from practice.dates import ClientTimeZone
from tests.conftest import login
from tests.factories import (
    ASSERTS_WHEN_BLANK,
    RESPONSES,
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    options_for,
    posted_form,
)
from tests.helpers import do_url

KINDS = all_kinds()
TZ = "Europe/London"


def _blank_of(field: forms.Field) -> Any:
    if isinstance(field, forms.BooleanField):
        return False  # a tick box left alone
    if isinstance(field, forms.MultipleChoiceField):
        return []
    return ""


def _with_blank(
    response: dict[str, Any], row_set: str | None, name: str, blank: Any
) -> dict[str, Any]:
    changed = copy.deepcopy(response)
    if row_set is None:
        changed[name] = blank
    else:
        for row in changed.get(row_set, []):
            row[name] = blank
    return changed


def blank_entry(kind: ExerciseKind, **assignment_details: Any):
    """An entry of ``kind`` sent with every optional answer blank, as far as
    the kind lets one be sent (a safety plan needs one part), and the
    (row set, field, form field) of each answer left blank."""
    exercise = ExerciseFactory.create(
        kind=kind.slug, title=f"The {kind.slug} one", options=options_for(kind.slug)
    )
    assignment = AssignmentFactory.create(exercise=exercise, **assignment_details)
    form = kind.form(exercise=exercise)
    optional: list[tuple[str | None, str, forms.Field]] = [
        (None, name, field) for name, field in form.fields.items() if not field.required
    ]
    for set_name, rows in form.row_sets.items():
        optional += [
            (set_name, name, field)
            for name, field in rows.spec.fields().items()
            if not field.required
        ]
    response = RESPONSES[kind.slug]()
    blanked = []
    for row_set, name, field in optional:
        trial = _with_blank(response, row_set, name, _blank_of(field))
        try:
            kind.validate(trial, exercise=exercise, tz=TZ)
        except ResponseInvalid:
            continue  # this one the kind needs, blank as the others are
        response = trial
        blanked.append((row_set, name, field))
    clean = kind.validate(response, exercise=exercise, tz=TZ)
    entry = EntryFactory.create(
        assignment=assignment, response=clean, score=kind.score(clean, exercise=exercise)
    )
    return entry, blanked


def _text(rendered: str) -> str:
    """What a reader reads: the words, a chart's own words (drawn inline or
    embedded as an image) included."""
    pictures = [
        base64.b64decode(data).decode()
        for data in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', rendered)
    ]
    words = re.sub(r"<[^>]+>", " ", " ".join([rendered, *pictures]))
    return " ".join(html.unescape(words).split())


def surfaces(kind: ExerciseKind, entry) -> dict[str, str]:
    """Every place an entry becomes words: the portal's entry page and
    history, the admin (and since last session), the client's download,
    the summary's section and first-page lines, a list's excerpt, the
    client's progress page."""
    shown = kind.present(entry)
    clock = ClientTimeZone(zone=entry.assignment.client.timezone)
    found = {
        "portal display": render_to_string(
            kind.display_template, {"entry": entry, "heading_level": 2, **shown}
        ),
        "admin display": entry_html(entry, heading_level=3),
        "download": render_to_string(
            kind.export_template, {"entry": entry, "heading_level": 3, **shown}
        ),
        "excerpt": kind.excerpt(entry),
    }
    for full_detail in (False, True):
        scope = SummaryScope(full_detail=full_detail)
        context = kind.summary_context([entry], scope)
        found[f"summary (full detail: {full_detail})"] = render_to_string(
            kind.summary_template,
            {**context, "full_detail": full_detail, "kind": kind, "client_time_zone": clock},
        )
        found[f"at a glance (full detail: {full_detail})"] = "\n".join(
            kind.at_a_glance([entry], scope)
        )
    progress = kind.progress_context(assignment=entry.assignment, entries=[entry])
    if progress is not None:
        found["progress"] = render_to_string(
            kind.progress_template, {"assignment": entry.assignment, "data": progress}
        )
    return {name: _text(rendered) for name, rendered in found.items()}


def _phrases_asserting(kind: ExerciseKind, blanked, answered: dict[str, Any]) -> list[str]:
    """Words that, printed for this entry, would state an answer it does not
    hold: each blank choice's answers, a number out of 10 no scale of the
    entry was given, the kind's own words for its blank answers
    (tests.factories.ASSERTS_WHEN_BLANK), and, where the client gave no date
    since which there was no contact, a count of days without contact."""
    phrases: list[str] = []
    for _row_set, name, field in blanked:
        if isinstance(field, forms.ChoiceField):
            choices: list[tuple[Any, Any]] = list(field.choices)  # type: ignore[arg-type]
            phrases += [str(label) for value, label in choices if value]
        phrases += [str(words) for words in ASSERTS_WHEN_BLANK[kind.slug].get(name, ())]
    if any(isinstance(field, forms.IntegerField) for *_where, field in blanked):
        given = {v for v in _values(answered) if isinstance(v, int) and not isinstance(v, bool)}
        phrases += [f"{n}/10" for n in range(11) if n not in given]
        phrases += [f"{n} / 10" for n in range(11) if n not in given]
    if "no_contact_since" in kind.assignment_fields:
        phrases += ["no contact since", "without contact", "no contact for"]
    return phrases


def _values(response: Any) -> list[Any]:
    if isinstance(response, dict):
        return [v for value in response.values() for v in _values(value)]
    if isinstance(response, list):
        return [v for value in response for v in _values(value)]
    return [response]


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.slug)
def test_an_entry_left_blank_is_never_read_as_an_answer(cast, kind):
    entry, blanked = blank_entry(kind, client=cast.alice)
    # A new kind says, beside its example response, how its pages would word an answer.
    assert kind.slug in ASSERTS_WHEN_BLANK, kind.slug
    phrases = _phrases_asserting(kind, blanked, entry.response)
    said = [
        f"{surface}: {phrase!r} in {text!r}"
        for surface, text in surfaces(kind, entry).items()
        for phrase in phrases
        if re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text, re.IGNORECASE)
    ]
    assert said == []


CHOSEN = re.compile(r"<(input|option)\b[^>]*\b(checked|selected)\b[^>]*>")


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.slug)
def test_a_new_form_opens_with_no_answer_chosen(cast, kind):
    """No radio, tick box or list starts on an answer: a default the client
    did not touch would become a fact in the therapist's summary."""
    exercise = ExerciseFactory.create(kind=kind.slug, options=options_for(kind.slug))
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    page = login(cast.alice.portal_user).get(do_url(assignment)).content.decode()
    form = page[page.index("<form") : page.rindex("</form>")]
    chosen = [
        tag
        for tag in (match.group(0) for match in CHOSEN.finditer(form))
        # A 0–10 list starts on "not answered yet" (its empty value).
        if not re.search(r'\bvalue=""', tag)
    ]
    assert chosen == []


# -- the urge log's "no contact": only what the client said


def _urge_entry(cast, response, **assignment_details):
    kind = get_kind("urge_log")
    exercise = ExerciseFactory.create(kind="urge_log", title="Pull", options={})
    assignment = AssignmentFactory.create(
        client=cast.alice, exercise=exercise, **assignment_details
    )
    return kind, EntryFactory.create(assignment=assignment, response=response)


def test_an_urge_sent_without_saying_whether_there_was_contact_is_refused(cast):
    exercise = ExerciseFactory.create(kind="urge_log", options={})
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    http = login(cast.alice.portal_user)
    untold = {k: v for k, v in RESPONSES["urge_log"]().items() if not k.startswith("contact")}
    envelope = {"key": str(uuid.uuid4()), "version": "0"}
    page = http.post(do_url(assignment), {**envelope, **posted_form(untold)})
    assert "Choose one of these first." in page.content.decode()
    assert not Entry.objects.filter(assignment=assignment, status=Entry.Status.SUBMITTED).exists()


def test_an_old_urge_that_said_no_contact_still_reads_so(cast):
    """Entries sent while "There was no contact" was ticked in advance keep
    what was sent: it is what the client sent."""
    kind, entry = _urge_entry(cast, RESPONSES["urge_log"]())
    text = surfaces(kind, entry)["portal display"]
    assert "Contact There was no contact" in text


def test_an_urge_silent_on_contact_reads_as_not_answered_and_its_blank_pull_as_no_number(cast):
    response = {
        k: v
        for k, v in RESPONSES["urge_log"]().items()
        if k not in {"contact_happened", "contact_initiated_by", "intensity"}
    }
    kind, entry = _urge_entry(cast, response)
    found = surfaces(kind, entry)
    assert "How strong the pull was Not answered" in found["portal display"]
    assert "Contact Not answered" in found["admin display"]
    assert "No contact" not in found["download"] and "Not answered" in found["download"]
    assert "/10" not in found["excerpt"]
    curve = kind.curve(assignment=entry.assignment, entries=[entry])
    assert curve["days"] == []  # not drawn as a 0


def test_days_without_contact_are_counted_only_from_a_date_the_client_gave(cast):
    today = timezone.localdate()
    given = today - dt.timedelta(days=10)
    kind, entry = _urge_entry(cast, RESPONSES["urge_log"](), no_contact_since=given)
    assert kind.at_a_glance([entry])[0] == (f"Pull: no contact for 10 days (since {given:%-d %b}).")
    kind, entry = _urge_entry(cast, RESPONSES["urge_log"]())
    assert kind.at_a_glance([entry]) == [
        f"Pull: no contact logged since {today:%-d %b}, when logging began."
    ]
    found = surfaces(kind, entry)
    assert "No contact logged since" in found["summary (full detail: False)"]
    assert "No contact logged since" in found["progress"]
