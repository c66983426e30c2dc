"""The reflection worksheet kind: its name, its example options, and the
parts it is made of (answering, scoring, the summary)."""

from typing import TYPE_CHECKING, Any, ClassVar

from django.utils.translation import gettext_lazy

from homework.kinds.fields import KindForm
from homework.kinds.shelves import Shelf
from homework.kinds.values import JSONDict
from homework.kinds.worksheet.answering import WorksheetAnswering
from homework.kinds.worksheet.editor import questions_editor_words
from homework.kinds.worksheet.measures import is_measure
from homework.kinds.worksheet.options import clean_worksheet_options
from homework.kinds.worksheet.summary import WorksheetSummary

if TYPE_CHECKING:
    from homework.models import Exercise


class Worksheet(WorksheetAnswering, WorksheetSummary):
    slug = "worksheet"
    label = gettext_lazy("Reflection worksheet")
    shelf = Shelf.WORKSHEETS
    about = gettext_lazy("Your own questions, answered in order.")
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
            {"type": "yes_no", "text": "Did you feel safe this week?", "review_choices": ["no"]},
            {"type": "long_text", "text": "Anything you'd like your therapist to know?"},
        ],
        "score": {"method": "mean", "better": "higher", "label": "Steadiness"},
    }

    def shelf_of(self, exercise: "Exercise") -> Shelf:
        return Shelf.MEASURES if is_measure(exercise) else self.shelf

    def clean_options(self, options: Any, *, saved: Any = None) -> JSONDict:
        return clean_worksheet_options(options, saved=saved)

    def options_editor(self) -> JSONDict | None:
        return {"editor": "questions", "words": questions_editor_words()}


KIND = Worksheet()
