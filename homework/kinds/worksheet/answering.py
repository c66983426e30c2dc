"""The form a client answers a worksheet in, and the wording each answer keeps: what the client read
when they gave it."""

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _

from homework.kinds.answers import asked_as
from homework.kinds.excerpts import shorten
from homework.kinds.fields import KindForm
from homework.kinds.values import (
    STILL_FITS_PREFIX,
    WORDING_ON_SCREEN_PREFIX,
    JSONDict,
    ResponseInvalid,
    Shown,
)
from homework.kinds.worksheet.options import QUESTION_TYPES
from homework.kinds.worksheet.questions import (
    WorksheetQuestions,
    question_as_answered,
    question_field,
)
from homework.kinds.worksheet.wording import (
    same_answer,
    same_wording,
    worded,
    wording_answered,
    wording_mark,
)
from practice.bidi import isolated_text

if TYPE_CHECKING:
    from homework.models import Entry, Exercise


class WorksheetForm(KindForm):
    """Missing scored answers are named together in one message above the form, besides each field's
    own."""

    # (number, key, text, the yes/no question whose "yes" lets it be left out, or "")
    counted: list[tuple[int, str, str, str]]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        missing = [
            _("question %(n)s (“%(text)s”)")
            % {"n": number, "text": isolated_text(shorten(text, 60))}
            for number, key, text, unless in self.counted
            if (key in self.errors or cleaned.get(key) in (None, ""))
            and not (unless and cleaned.get(unless) == "yes")
        ]
        if missing:
            raise forms.ValidationError(
                _(
                    "Every question that adds up to the total needs an answer. Still to answer: "
                    "%(questions)s. Your other answers are kept."
                )
                % {"questions": "; ".join(missing)}
            )
        return cleaned


class WorksheetAnswering(WorksheetQuestions):
    def questions_asked(self, exercise: "Exercise") -> list[JSONDict]:
        """Includes the questions asked before, so the client's download names what each answer
        answered."""
        asked = super().questions_asked(exercise)
        for key, question in self.earlier_questions(exercise).items():
            asked.append(asked_as(key, question_field(question)))
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
        """Each answered question as the client's page showed it when they last changed that answer.
        A mark naming no wording the exercise knows is not trusted: the answer then answers the
        words the form has now."""
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
        """None for any mark the exercise or this entry does not know."""
        if mark is None:
            return None
        current = next((q for q in self.questions(exercise) if q["key"] == key), None)
        options = exercise.options if isinstance(exercise.options, dict) else {}
        older = options.get("worded_before", {})
        older = older.get(key, []) if isinstance(older, dict) else []
        known = [
            current,
            question_as_answered(kept, current) if kept is not None else None,
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
            as_answered = question_as_answered(kept.get(question["key"]), None)
            listed.append(
                asked_as(question["key"], question_field(as_answered)) if as_answered else question
            )
        return listed

    def form(
        self,
        *,
        exercise: "Exercise",
        data: Mapping[str, Any] | None = None,
        initial: Mapping[str, Any] | None = None,
        asked: Mapping[str, Any] | None = None,
    ) -> KindForm:
        form = WorksheetForm(data=data, initial=dict(initial or {}), prefix="r")
        form.counted = [
            (
                number,
                question["key"],
                str(question.get("text", "")),
                str(question.get("skip_if_yes") or ""),
            )
            for number, question in enumerate(self.questions(exercise), start=1)
            if question.get("scored")
        ]
        for question in self.questions(exercise):
            key = question["key"]
            field = form.fields[key] = question_field(question)
            as_answered = question_as_answered((asked or {}).get(key), question)
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
                # Ticked under today's words, so the client either changes it or says it still fits
                # before the therapist reads it under them.
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
        for row in form.wordings_shown:
            row["field"] = form[row["key"]]
        return form

    def merge_edit(self, sent: JSONDict, edited: JSONDict, *, exercise: "Exercise") -> JSONDict:
        """Answers the form can no longer show are still the client's words: an edit keeps them."""
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
