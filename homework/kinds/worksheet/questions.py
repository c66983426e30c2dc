"""A worksheet's questions as the exercise asks them, and each answer under its question."""

import datetime as dt
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _

from homework.kinds.base import ExerciseKind
from homework.kinds.fields import choice, date, long_text, multiple_choice, scale, short_text
from homework.kinds.values import JSONDict
from homework.kinds.worksheet.options import QUESTION_TYPES, YES_NO
from homework.kinds.worksheet.wording import same_wording
from practice.dates import calendar_day

if TYPE_CHECKING:
    from homework.models import Exercise


def question_field(question: JSONDict) -> forms.Field:
    text = str(question.get("text", ""))
    # A scored question the client may leave out (the WSAS's work item, once they say they are
    # retired) is checked with the others, in WorksheetForm.clean.
    required = bool(question.get("required") or question.get("scored")) and not question.get(
        "skip_if_yes"
    )
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


class WorksheetQuestions(ExerciseKind):
    def questions(self, exercise: "Exercise") -> list[JSONDict]:
        options = exercise.options if isinstance(exercise.options, dict) else {}
        questions = options.get("questions", [])
        if not isinstance(questions, list):
            return []
        # Guards against rows edited by other means: a bad question is skipped, not fatal.
        return [
            q
            for q in questions
            if isinstance(q, dict)
            and isinstance(q.get("key"), str)
            and q.get("type") in QUESTION_TYPES
        ]

    def earlier_questions(self, exercise: "Exercise") -> dict[str, JSONDict]:
        """Answers to them stay on entries."""
        options = exercise.options if isinstance(exercise.options, dict) else {}
        earlier = options.get("earlier", {})
        if not isinstance(earlier, dict):
            return {}
        return {
            key: question
            for key, question in earlier.items()
            if isinstance(question, dict) and question.get("type") in QUESTION_TYPES
        }

    def answers(
        self, exercise: "Exercise", response: JSONDict, asked: JSONDict | None = None
    ) -> list[JSONDict]:
        """``now`` holds today's wording where it differs, for a quiet note to the therapist; the
        client is shown what they answered."""
        kept = asked if isinstance(asked, dict) else {}
        shown, seen = [], set()
        for question in self.questions(exercise):
            key = question["key"]
            seen.add(key)
            as_answered = question_as_answered(kept.get(key), question)
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
                before = question_as_answered(kept.get(key), earlier.get(key))
                shown.append(
                    {
                        "key": key,
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


def question_as_answered(kept: Any, question: JSONDict | None) -> JSONDict:
    """A kept question of another type is not trusted: another type is another question."""
    if (
        isinstance(kept, dict)
        and isinstance(kept.get("text"), str)
        and kept.get("type") in QUESTION_TYPES
        and (question is None or kept.get("type") == question.get("type"))
    ):
        return kept
    return question or {}


def _answer_text(question: JSONDict, value: Any) -> str:
    if value is None or value == "" or value == []:
        return ""
    if question.get("type") == "yes_no":
        return str(dict(YES_NO).get(value, value))
    if question.get("type") == "scale_0_10":
        return f"{value} / 10"
    if question.get("type") == "date":
        try:
            return calendar_day(dt.date.fromisoformat(str(value)), "MONTH_DAY_FORMAT")
        except ValueError:
            return str(value)
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(value)
