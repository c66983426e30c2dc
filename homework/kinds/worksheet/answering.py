"""The form a client answers a worksheet in, and the wording each answer
keeps: what the client read when they gave it."""

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
    """A worksheet's form: when answers that count toward its total are
    missing, one message above the form names every one of them (a long
    questionnaire sent with two left blank), besides each field's own."""

    counted: list[tuple[int, str, str]]  # (number, key, text) of each scored question

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        missing = [
            _("question %(n)s (“%(text)s”)")
            % {"n": number, "text": isolated_text(shorten(text, 60))}
            for number, key, text in self.counted
            if key in self.errors or cleaned.get(key) in (None, "")
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
    """The client's side: the form, and what an entry keeps of its words."""

    def questions_asked(self, exercise: "Exercise") -> list[JSONDict]:
        """As every kind's, and the questions asked before: the client's
        download names what each of their answers answered."""
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
            (number, question["key"], str(question.get("text", "")))
            for number, question in enumerate(self.questions(exercise), start=1)
            if question.get("scored")
        ]
        # What the page shows, said with each save (Shown): the mark of each
        # question's words, and a box to say an answer still fits new words.
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
