"""The reflection worksheet: the therapist's own questions, answered in order.

The questions live on the exercise (Exercise.options, checked by
``clean_options`` when the therapist saves it). A worksheet may mark its
0–10 questions as scored and say how they add up; the total is kept on
each entry and drawn over time. A total is a reflection for the client and
the therapist to talk about, never a diagnosis or a grade.
"""

import datetime as dt
import statistics
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from homework.excerpts import LINE_CHARS, joiner_after, shorten
from homework.kinds import charts
from homework.kinds.base import (
    STILL_FITS_PREFIX,
    WORDING_ON_SCREEN_PREFIX,
    ExerciseKind,
    JSONDict,
    ResponseInvalid,
    Shown,
    asked_as,
)
from homework.kinds.fields import (
    KindForm,
    choice,
    date,
    long_text,
    multiple_choice,
    scale,
    short_text,
)
from homework.kinds.summaries import by_assignment
from homework.kinds.worksheet_options import (
    QUESTION_TYPES,
    YES_NO,
    clean_worksheet_options,
    questions_editor_words,
    same_answer,
    same_wording,
    worded,
    wording_answered,
    wording_mark,
    wording_of,
)
from homework.summary.limits import VALUES_LIST_LIMIT, first_of
from practice.bidi import isolated_text
from practice.dates import calendar_day, years_named_within

if TYPE_CHECKING:
    from homework.models import Assignment, Entry, Exercise

# Questions answered in the client's own words.
WRITTEN = ("short_text", "long_text")


def _field(question: JSONDict) -> forms.Field:
    text = str(question.get("text", ""))
    required = bool(question.get("required") or question.get("scored"))
    help_text = str(question.get("help", ""))
    choices = [(str(c), str(c)) for c in question.get("choices", []) if isinstance(c, str)]
    kind = question["type"]
    if kind == "short_text":
        return short_text(text, required=required, help_text=help_text)
    if kind == "long_text":
        return long_text(text, required=required, help_text=help_text)
    if kind == "scale_0_10":
        return scale(
            text,
            low=question.get("low", ""),
            high=question.get("high", ""),
            required=required,
            help_text=help_text,
        )
    if kind == "single_choice":
        return choice(text, choices, required=required, help_text=help_text)
    if kind == "multiple_choice":
        field = multiple_choice(text, choices, required=required)
        field.help_text = help_text
        return field
    if kind == "yes_no":
        return choice(text, YES_NO, required=required, help_text=help_text)
    return date(text, required=required, help_text=help_text)


class Worksheet(ExerciseKind):
    slug = "worksheet"
    label = gettext_lazy("Reflection worksheet")
    schema_version = 1
    form_class = KindForm
    brief_in_download = True  # a line an answer: check-ins come daily or weekly
    options_example: ClassVar[JSONDict | None] = {
        "questions": [
            {
                "key": "pull",
                "type": "scale_0_10",
                "text": "How strong has the pull back been this week?",
                "low": "hardly at all",
                "high": "very strong",
                "scored": True,
                "reverse": True,
            },
            {
                "key": "clarity",
                "type": "scale_0_10",
                "text": "How clear do you feel about what you want?",
                "low": "foggy",
                "high": "clear",
                "scored": True,
            },
            {
                "type": "single_choice",
                "text": "What helped most?",
                "choices": ["A friend", "Time outside", "Something else"],
            },
            {"type": "yes_no", "text": "Did you feel safe this week?"},
            {"type": "long_text", "text": "Anything you'd like your therapist to know?"},
        ],
        "score": {"method": "mean", "better": "higher", "label": "Steadiness"},
    }

    def clean_options(self, options: Any, *, saved: Any = None) -> JSONDict:
        return clean_worksheet_options(options, saved=saved)

    def options_editor(self) -> JSONDict | None:
        return {"editor": "questions", "words": questions_editor_words()}

    def questions(self, exercise: "Exercise") -> list[JSONDict]:
        options = exercise.options if isinstance(exercise.options, dict) else {}
        questions = options.get("questions", [])
        if not isinstance(questions, list):
            return []
        # Saved options went through clean_options; this only guards against
        # rows edited by other means, so a bad question is skipped, not fatal.
        return [
            q
            for q in questions
            if isinstance(q, dict)
            and isinstance(q.get("key"), str)
            and q.get("type") in QUESTION_TYPES
        ]

    def earlier_questions(self, exercise: "Exercise") -> dict[str, JSONDict]:
        """Questions the exercise asked once and no longer does, by key, as last
        worded (kept by clean_options): answers to them stay on entries."""
        options = exercise.options if isinstance(exercise.options, dict) else {}
        earlier = options.get("earlier", {})
        if not isinstance(earlier, dict):
            return {}
        return {
            key: question
            for key, question in earlier.items()
            if isinstance(question, dict) and question.get("type") in QUESTION_TYPES
        }

    def questions_asked(self, exercise: "Exercise") -> list[JSONDict]:
        """As every kind's, and the questions asked before: the client's
        download names what each of their answers answered."""
        asked = super().questions_asked(exercise)
        for key, question in self.earlier_questions(exercise).items():
            asked.append(asked_as(key, _field(question)))
        return asked

    def asked(
        self,
        exercise: "Exercise",
        response: JSONDict,
        *,
        before: JSONDict,
        answered_before: JSONDict,
        shown: Shown | None = None,
    ) -> JSONDict:
        """Each answered question as the client read it when they last
        changed that answer (the rule: ``wording_answered``), or as it reads
        now where they said their answer still fits the new words. Unanswered
        questions are left out: there is no answer to misread, and a daily
        check-in need not carry its whole form.

        "As the client read it" is what their page showed (``shown``): a tab
        opened before the therapist reworded a question still shows the old
        words, and an answer given there answers those. A mark naming no
        wording the exercise (or this entry) knows is not trusted and reads
        as no mark: the answer answers the words the form has now."""
        current = {question["key"]: question for question in self.questions(exercise)}
        before = before if isinstance(before, dict) else {}
        answered_before = answered_before if isinstance(answered_before, dict) else {}
        shown = shown or Shown()
        kept: JSONDict = {}
        for key, value in response.items():
            if value is None or value == "" or value == []:
                continue
            now = current.get(key)
            changed = key not in answered_before or not same_answer(answered_before[key], value)
            if (
                not changed
                and now is not None
                and shown.answer_still_fits.get(key) == wording_mark(now)
                and shown.wording_on_screen.get(key) in (None, wording_mark(now))
            ):
                # Reworded since it was given, and the client, shown the new
                # words, said their answer still fits them.
                kept[key] = worded(now)
                continue
            on_screen = self._wording_known(
                exercise, key, shown.wording_on_screen.get(key), before.get(key)
            )
            wording = wording_answered(
                now=on_screen if on_screen is not None else now,
                kept=before.get(key),
                changed=changed,
            )
            if wording is not None:
                kept[key] = wording
        return kept

    def _wording_known(
        self, exercise: "Exercise", key: str, mark: str | None, kept: Any
    ) -> JSONDict | None:
        """The wording of question ``key`` that ``mark`` names, among those the
        exercise has asked it in (now, before a rewording, before it was
        removed) and the one this entry kept; None for any other mark."""
        if mark is None:
            return None
        current = next((q for q in self.questions(exercise) if q["key"] == key), None)
        options = exercise.options if isinstance(exercise.options, dict) else {}
        older = options.get("worded_before", {})
        older = older.get(key, []) if isinstance(older, dict) else []
        known = [
            current,
            _as_answered(kept, current) if kept is not None else None,
            self.earlier_questions(exercise).get(key),
            *(older if isinstance(older, list) else []),
        ]
        for question in known:
            if not isinstance(question, dict) or question.get("type") not in QUESTION_TYPES:
                continue
            if current is not None and question.get("type") != current.get("type"):
                continue  # another type under this key is another question
            if isinstance(question.get("text"), str) and wording_mark(question) == mark:
                return question
        return None

    def questions_answered(self, entry: "Entry", asked_now: list[JSONDict]) -> list[JSONDict]:
        kept = entry.asked if isinstance(entry.asked, dict) else {}
        if not kept:
            return asked_now
        listed = []
        for question in asked_now:
            as_answered = _as_answered(kept.get(question["key"]), None)
            listed.append(
                asked_as(question["key"], _field(as_answered)) if as_answered else question
            )
        return listed

    def score_rule(self, exercise: "Exercise") -> JSONDict | None:
        options = exercise.options if isinstance(exercise.options, dict) else {}
        rule = options.get("score")
        return rule if isinstance(rule, dict) else None

    def form(
        self,
        *,
        exercise: "Exercise",
        data: Mapping[str, Any] | None = None,
        initial: Mapping[str, Any] | None = None,
        asked: Mapping[str, Any] | None = None,
    ) -> KindForm:
        form = KindForm(data=data, initial=dict(initial or {}), prefix="r")
        # What the page shows, said with each save (Shown): the mark of each
        # question's words, and a box to say an answer still fits new words.
        for question in self.questions(exercise):
            key = question["key"]
            field = form.fields[key] = _field(question)
            as_answered = _as_answered((asked or {}).get(key), question)
            mark = wording_mark(question)
            reworded = not same_wording(as_answered, question)
            form.wordings_shown.append(
                {
                    "key": key,
                    "wording_mark_name": f"{WORDING_ON_SCREEN_PREFIX}{key}",
                    "mark": mark,
                    "still_fits_name": f"{STILL_FITS_PREFIX}{key}" if reworded else "",
                    "still_fits_id": f"id_{STILL_FITS_PREFIX}{key}",
                    "still_fits_ticked": reworded
                    and data is not None
                    and data.get(STILL_FITS_PREFIX + key) == mark,
                }
            )
            if reworded:
                # The answer kept is ticked under today's words: the client
                # is told what it answered, and either changes it or says it
                # still fits (the box under it), so the therapist can read it
                # under the new words.
                field.help_text = " ".join(
                    part
                    for part in (
                        _(
                            "When you answered, this read: “%(text)s”. It has been reworded "
                            "since. If your answer still says what you mean, tick the box "
                            "under it; if not, you can change it."
                        )
                        % {"text": isolated_text(as_answered.get("text", ""))},
                        str(field.help_text),
                    )
                    if part
                )
        for row in form.wordings_shown:  # bound once each field's help is final
            row["field"] = form[row["key"]]
        return form

    def merge_edit(self, sent: JSONDict, edited: JSONDict, *, exercise: "Exercise") -> JSONDict:
        """Answers the form can no longer show are still the client's words:
        an edit keeps them. Those are answers to questions the therapist has
        since removed, and choices since renamed or taken off a question's
        list (the form has no box to tick for them, so sending it would
        otherwise leave the question unanswered). A choice the client makes
        again replaces the old one; on a multiple choice, the old ones stay
        beside what is ticked."""
        questions = self.questions(exercise)
        asked = {question["key"] for question in questions}
        merged = {**{key: value for key, value in sent.items() if key not in asked}, **edited}
        for question in questions:
            key = question["key"]
            offered = question.get("choices")
            if key not in sent or not isinstance(offered, list):
                continue
            before = sent[key]
            now = merged.get(key)
            if question["type"] == "single_choice":
                if before not in ("", None) and before not in offered and now in ("", None):
                    merged[key] = before
            elif isinstance(before, list):
                gone = [value for value in before if value not in offered]
                if gone:
                    merged[key] = [*(now if isinstance(now, list) else []), *gone]
        return merged

    def validate(self, data: Mapping[str, Any], *, exercise: "Exercise", tz: str) -> JSONDict:
        if not self.questions(exercise):
            raise ResponseInvalid({"__all__": [_("This worksheet has no questions yet.")]})
        return super().validate(data, exercise=exercise, tz=tz)

    # -- the total of a scored check-in
    def score(self, response: JSONDict, *, exercise: "Exercise") -> float | None:
        rule = self.score_rule(exercise)
        scored = [q for q in self.questions(exercise) if q.get("scored")]
        if rule is None or not scored:
            return None
        values = []
        for question in scored:
            value = response.get(question["key"])
            if not isinstance(value, int) or isinstance(value, bool):
                return None
            values.append(10 - value if question.get("reverse") else value)
        total = sum(values) if rule["method"] == "sum" else statistics.fmean(values)
        return round(float(total), 1)

    def score_scale(self, exercise: "Exercise") -> JSONDict | None:
        rule = self.score_rule(exercise)
        if rule is None:
            return None
        count = sum(1 for q in self.questions(exercise) if q.get("scored"))
        return {
            "label": rule.get("label") or _("Check-in total"),
            "max": 10 * count if rule["method"] == "sum" else 10,
            "higher_is_better": rule["better"] == "higher",
        }

    # -- showing answers
    def answers(
        self, exercise: "Exercise", response: JSONDict, asked: JSONDict | None = None
    ) -> list[JSONDict]:
        """Each answer under the question as the client was asked it
        (``asked``, kept with the entry), in the worksheet's order. ``now``
        holds the question's wording today where it reads differently, for a
        quiet note to the therapist; the client is shown what they answered."""
        kept = asked if isinstance(asked, dict) else {}
        shown, seen = [], set()
        for question in self.questions(exercise):
            key = question["key"]
            seen.add(key)
            as_answered = _as_answered(kept.get(key), question)
            shown.append(
                {
                    "key": key,
                    "question": str(as_answered.get("text", "")),
                    "answer": _answer_text(as_answered, response.get(key)),
                    "type": question.get("type", ""),
                    "scored": bool(question.get("scored")),
                    "now": ""
                    if same_wording(as_answered, question)
                    else str(question.get("text", "")),
                }
            )
        earlier = self.earlier_questions(exercise)
        for key, value in response.items():
            if key not in seen:  # the question was edited away since; the answer stays
                before = _as_answered(kept.get(key), earlier.get(key))
                shown.append(
                    {
                        "key": key,
                        # As the client read it (before this was kept, only its key).
                        "question": str(before.get("text", ""))
                        if before
                        else _("An earlier question (%(key)s)") % {"key": key},
                        "answer": _answer_text(before or {"type": ""}, value),
                        "type": before.get("type", "") if before else "",
                        "scored": False,
                        "now": "",
                    }
                )
        return shown

    def present(self, entry: "Entry") -> JSONDict:
        exercise = entry.assignment.exercise
        response = self.response_of(entry)
        return {
            "response": response,
            "answers": self.answers(exercise, response, entry.asked),
            "score": entry.score,
            "scale": self.score_scale(exercise),
        }

    def excerpt(self, entry: "Entry") -> str:
        """One line for a flag on the summary's first page, or the admin's list.

        The total, when the check-in has one, then the client's first answer
        in their own words: what a flagged entry is most likely about. With
        neither, the first answer, after the question it answers: a bare
        "8 / 10" or "Yes" tells a reader nothing.
        """
        parts = []
        scale_info = self.score_scale(entry.assignment.exercise)
        if scale_info and entry.score is not None:
            parts.append(f"{isolated_text(scale_info['label'])}: {entry.score:g}")
        answered = [
            answer
            for answer in self.answers(
                entry.assignment.exercise, self.response_of(entry), entry.asked
            )
            if answer["answer"]
        ]
        written = next((answer for answer in answered if answer["type"] in WRITTEN), None)
        if written is not None:
            parts.append(written["answer"])
        elif answered and not parts:
            parts.append(_after_its_question(answered[0]["question"], answered[0]["answer"]))
        return shorten(" · ".join(parts))

    def totals_chart(
        self, exercise: "Exercise", entries: Sequence["Entry"], *, labelled: bool = True
    ) -> JSONDict | None:
        scale_info = self.score_scale(exercise)
        points = [
            (calendar_day(entry.submitted_at, "j M"), entry.score)
            for entry in entries
            if entry.score is not None and entry.submitted_at is not None
        ]
        if scale_info is None or not points:
            return None
        direction = (
            _("higher means steadier")
            if scale_info["higher_is_better"]
            else _("lower means steadier")
        )
        description = ", ".join(f"{label}: {value:g}" for label, value in points)
        return {
            "points": points,
            "scale": scale_info,
            "direction": direction,
            "svg": charts.values_over_time(
                points=[(label, float(value)) for label, value in points],
                y_max=scale_info["max"],
                title=_("%(label)s over time (%(direction)s)")
                % {"label": isolated_text(scale_info["label"]), "direction": direction},
                description=description,
                labelled=labelled,
            ),
        }

    def summary_context(
        self,
        entries: Sequence["Entry"],
        *,
        full_detail: bool = False,
        earlier: Sequence["Entry"] = (),
        as_of: dt.date | None = None,
    ) -> JSONDict:
        """Per exercise: the totals over time (if scored), then the newest
        entries' answers question by question (the rest counted unless in
        full detail)."""
        groups = []
        printed: list[Entry] = []
        for assignment, own in by_assignment(entries):
            exercise = assignment.exercise
            shown, more = first_of(own[::-1], full_detail=full_detail)
            printed.extend(shown)
            groups.append(
                {
                    "exercise": exercise,
                    "questions": self.answers_by_question(exercise, shown, full_detail=full_detail),
                    # One form sent: its date goes once, above the answers.
                    "sent_once": shown[0].submitted_at if len(shown) == 1 else None,
                    # And that form, to say if the client changed it after sending it.
                    "entry_once": shown[0] if len(shown) == 1 else None,
                    "more": more,
                    # The summary lists the values beside the picture.
                    "totals": _with_values_listed(
                        self.totals_chart(exercise, own, labelled=False), full_detail=full_detail
                    ),
                }
            )
        return {"groups": groups, "full_detail": full_detail, "printed": printed}

    def answers_by_question(
        self, exercise: "Exercise", entries: Sequence["Entry"], *, full_detail: bool
    ) -> list[JSONDict]:
        """Each question once, in the worksheet's order, with its answers in
        the entries' order: a weekly check-in reads as how each answer moved,
        not as the same form three times. Scored answers are left to the
        total (when the entry has one), unless in full detail; unanswered
        questions are left out.

        Gathered by the question's key, not its wording: two questions worded
        alike (saved before that was refused) keep their answers apart. And
        under one key, by the wording answered: answers given before and
        after the therapist reworded a question ("Did you feel safe?", then
        "…unsafe?") are listed apart, each under what it answered, side by
        side."""
        questions: dict[str, dict[str, JSONDict]] = {}
        totalled = self.score_scale(exercise) is not None
        for entry in entries:
            # Left to the total only when there is one to show it: an entry
            # sent before its scales were scored has none.
            in_total = totalled and entry.score is not None
            for answer in self.answers(exercise, self.response_of(entry), entry.asked):
                if answer["answer"] and (full_detail or not (answer["scored"] and in_total)):
                    wordings = questions.setdefault(answer["key"], {})
                    question = wordings.setdefault(
                        wording_of(answer["question"]),
                        {"text": answer["question"], "now": answer["now"], "answers": []},
                    )
                    question["answers"].append(
                        {
                            "on": entry.submitted_at,
                            "entry": entry,
                            "text": answer["answer"],
                        }
                    )
        return [question for wordings in questions.values() for question in wordings.values()]

    def at_a_glance(
        self,
        entries: Sequence["Entry"],
        *,
        earlier: Sequence["Entry"] = (),
        as_of: dt.date | None = None,
    ) -> list[str]:
        lines = []
        for assignment, own in by_assignment(entries):
            scale_info = self.score_scale(assignment.exercise)
            scores = [entry.score for entry in own if entry.score is not None]
            if scale_info is None or not scores:
                continue
            lines.append(
                _("%(title)s: %(first)s → %(last)s (%(direction)s; a reflection, not a diagnosis).")
                % {
                    "title": isolated_text(assignment.exercise.title),
                    "first": f"{scores[0]:g}",
                    "last": f"{scores[-1]:g}",
                    "direction": _("higher is steadier")
                    if scale_info["higher_is_better"]
                    else _("lower is steadier"),
                }
            )
        return lines

    def progress_context(
        self, *, assignment: "Assignment", entries: Sequence["Entry"]
    ) -> JSONDict | None:
        """The client's own 0–10 answers over time, one picture per question.

        Not the total, and not which way is "better": the client's pages show
        what they answered, as they answered it (reverse-scored questions are
        not turned round), never a score that grades them (CLINICAL.md). The
        total and its direction are for the therapist (admin, summary).
        """
        exercise = assignment.exercise
        questions = []
        for question in self.questions(exercise):
            if not question.get("scored"):
                continue
            # One picture per wording answered: an answer to "How strong was
            # the pull?" is not drawn under what the question asks since.
            by_wording: dict[str, tuple[str, list[tuple[dt.date, int]]]] = {}
            for entry in entries:
                value = self.response_of(entry).get(question["key"])
                if entry.submitted_at is None or not isinstance(value, int):
                    continue
                if isinstance(value, bool):
                    continue
                kept = entry.asked.get(question["key"]) if isinstance(entry.asked, dict) else None
                text = str(_as_answered(kept, question).get("text", ""))
                by_wording.setdefault(wording_of(text), (text, []))[1].append(
                    (timezone.localdate(entry.submitted_at), value)
                )
            for text, answered in by_wording.values():
                # The chart's own days decide: kept across New Year, "3 Jan" needs its year.
                days = [day for day, _value in answered]
                with years_named_within(min(days), max(days)):
                    points = [(calendar_day(day, "j M"), value) for day, value in answered]
                questions.append(
                    {
                        "text": text,
                        "points": points,
                        "svg": charts.values_over_time(
                            points=[(label, float(value)) for label, value in points],
                            y_max=10,
                            title=text,
                            description=", ".join(f"{label}: {value}" for label, value in points),
                        ),
                    }
                )
        return {"questions": questions} if questions else None


def _as_answered(kept: Any, question: JSONDict | None) -> JSONDict:
    """The question as the entry kept it, if it kept it readably, else
    ``question`` (as the exercise words it now, or as it was last worded
    before being removed): entries saved before the wording was kept read as
    they always did. A question's type never changes under its key (another
    type is another question), so a kept one of another type is not trusted."""
    if (
        isinstance(kept, dict)
        and isinstance(kept.get("text"), str)
        and kept.get("type") in QUESTION_TYPES
        and (question is None or kept.get("type") == question.get("type"))
    ):
        return kept
    return question or {}


def _with_values_listed(totals: JSONDict | None, *, full_detail: bool) -> JSONDict | None:
    """The values the summary lists beside the picture: the first and the
    latest, the ones between counted (all in full detail). A year of daily
    check-ins listed in full was a page of dates and numbers."""
    if totals is None:
        return None
    points = totals["points"]
    if full_detail or len(points) <= VALUES_LIST_LIMIT:
        return {**totals, "listed_first": [], "unlisted": 0, "listed": points}
    latest = points[-(VALUES_LIST_LIMIT - 1) :]
    return {
        **totals,
        "listed_first": points[:1],
        "unlisted": len(points) - len(latest) - 1,
        "listed": latest,
    }


def _after_its_question(question: str, answer: str) -> str:
    """An answer on one line after the question it answers, as the client
    read it ("How heavy did the week feel? 8 / 10"): a long question is cut,
    not the answer it is there to explain (unless the answer alone fills
    half the line)."""
    question = " ".join(question.split())
    if not question:
        return answer
    room = max(LINE_CHARS - len(answer) - len(": "), LINE_CHARS // 2)
    question = shorten(question, room)
    return f"{isolated_text(question)}{joiner_after(question)}{answer}"


def _answer_text(question: JSONDict, value: Any) -> str:
    if value is None or value == "" or value == []:
        return ""
    if question.get("type") == "yes_no":
        return str(dict(YES_NO).get(value, value))
    if question.get("type") == "scale_0_10":
        return f"{value} / 10"
    if question.get("type") == "date":
        # Kept as ISO 8601 ("2026-01-03"); read as a date, not a code.
        try:
            return calendar_day(dt.date.fromisoformat(str(value)), "j F")
        except ValueError:
            return str(value)
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value)


KIND = Worksheet()
