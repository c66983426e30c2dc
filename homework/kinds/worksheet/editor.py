"""The words of the admin's question editor for a worksheet's options."""

from typing import Any

from django.utils.translation import gettext as _


def questions_editor_words() -> dict[str, Any]:
    """Translated here: the script has no gettext."""
    return {
        "types": {
            "short_text": _("A short answer"),
            "long_text": _("A longer answer"),
            "scale_0_10": _("A number from 0 to 10"),
            "single_choice": _("One choice from a list"),
            "multiple_choice": _("Any choices from a list"),
            "yes_no": _("Yes or no"),
            "date": _("A date"),
        },
        "question": _("Question %(n)s"),
        "type": _("Answered with"),
        "text": _("The question, as the client reads it"),
        "help": _("A hint under it (optional)"),
        "required": _("The client must answer it"),
        "choices": _("The choices, one a line"),
        "low": _("What 0 means"),
        "high": _("What 10 means"),
        "scored": _("Counts toward the total score"),
        "reverse": _("Counted the other way round (10 is the hardest)"),
        # "%(value)s" is where the editor puts the number to choose.
        "review_at_or_below": _("Flag for my review when the answer is %(value)s or lower"),
        "review_at_or_above": _("Flag for my review when the answer is %(value)s or higher"),
        "review_points_at_or_below": _(
            "Flag for my review when the answer's points are %(value)s or lower"
        ),
        "review_points_at_or_above": _(
            "Flag for my review when the answer's points are %(value)s or higher"
        ),
        "no_review": _("never"),
        "review_choices": _("Flag for my review when the client chooses"),
        "yes_no": {"yes": _("Yes"), "no": _("No")},
        "up": _("Move up"),
        "down": _("Move down"),
        "remove": _("Remove this question"),
        "add": _("Add a question"),
        "score_title": _("The total of the scored questions"),
        "score_label": _("What the total is called (e.g. Steadiness)"),
        "score_method": _("Worked out as"),
        "methods": {"mean": _("their average"), "sum": _("their sum")},
        "score_better": _("Better is"),
        "betters": {"higher": _("higher"), "lower": _("lower")},
        "unreadable": _(
            "These options could not be read as JSON, so they are shown as text: fix them "
            "there, or save to see what is wrong."
        ),
        # "%(problem)s" is the browser's own words for what does not read.
        "json_problem": _(
            "This does not read as JSON yet (%(problem)s). The questions above stay as they "
            "were until it does."
        ),
        "not_questions": _("it is not a list of questions"),
        "kept": _("The questions above are as they were before the JSON was changed."),
        "put_back": _("Put these questions back in the JSON"),
    }
