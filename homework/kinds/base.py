"""The interface every exercise kind implements. Code outside this package asks the registry for a
kind and calls these methods; it never branches on a kind's name."""

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from django.utils import timezone
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from homework.kinds.answers import asked_as, flatten, json_ready
from homework.kinds.data import as_form_data, draft_from_form_data
from homework.kinds.fields import KindForm, OptionsForm
from homework.kinds.shelves import Shelf
from homework.kinds.values import (
    BRIEF,
    EarlierWanted,
    JSONDict,
    ResponseInvalid,
    Shown,
    SummaryScope,
)

if TYPE_CHECKING:
    from django.db.models import Q
    from django_stubs_ext import StrOrPromise

    from homework.kinds.charts.timeline_points import TimelinePoint
    from homework.models import Assignment, Entry, Exercise

Upgrade = Callable[[JSONDict], JSONDict]

__all__ = [
    "BRIEF",
    "EarlierWanted",
    "ExerciseKind",
    "JSONDict",
    "ResponseInvalid",
    "Shown",
    "SummaryScope",
]


# A line in a select, read whole on a phone.
ABOUT_MAX_CHARS = 90

TREND_EASING = "easing"
TREND_STEADY = "steady"
TREND_STRONGER = "stronger"


class ExerciseKind:
    slug: ClassVar[str]
    label: ClassVar["StrOrPromise"]
    # Where a row counts entries by kind (the admin home); ``label`` when it is short already.
    short_label: ClassVar["StrOrPromise | None"] = None
    # Bump when the response's shape changes and add the step to ``upgrades``: entries are upgraded
    # whenever they are read.
    schema_version: ClassVar[int] = 1
    upgrades: ClassVar[Mapping[int, Upgrade]] = {}
    # Logs take any number of entries; other kinds one per occurrence.
    is_log: ClassVar[bool] = False
    # A kind kept up to date over time says it updates it: "Add another" would promise a blank one.
    again_label: ClassVar["StrOrPromise"] = gettext_lazy("Add another")
    continues_last_sent: ClassVar[bool] = False
    # The assignment's fields this kind uses beyond the schedule; the form shows only these.
    assignment_fields: ClassVar[tuple[str, ...]] = ()
    # Where the library picker puts it, and the line that says what it is.
    shelf: ClassVar[Shelf]
    about: ClassVar["StrOrPromise"]
    # If true, a flagged entry's line in the summary counts as read.
    excerpt_quotes_client: ClassVar[bool] = True
    form_class: ClassVar[type[KindForm]]
    send_label: ClassVar["StrOrPromise"] = gettext_lazy("Send to my therapist")
    # Fields of the kind's own for its options in the admin, in place of the JSON box.
    options_form: ClassVar[type[OptionsForm] | None] = None
    has_trend: ClassVar[bool] = False
    # Help now shows the newest sent entry first, and every summary says whether one is current.
    within_reach: ClassVar[bool] = False

    @property
    def form_template(self) -> str:
        return f"homework/kinds/{self.slug}/form.html"

    @property
    def display_template(self) -> str:
        return f"homework/kinds/{self.slug}/display.html"

    @property
    def summary_template(self) -> str:
        return f"homework/kinds/{self.slug}/summary.html"

    @property
    def progress_template(self) -> str:
        return f"homework/kinds/{self.slug}/progress.html"

    @property
    def help_now_template(self) -> str:
        return f"homework/kinds/{self.slug}/help_now.html"

    # A daily log runs to hundreds of entries, too long to print in full while the client waits.
    brief_in_download: ClassVar[bool] = False

    @property
    def export_template(self) -> str:
        return (
            f"homework/kinds/{self.slug}/brief.html"
            if self.brief_in_download
            else self.display_template
        )

    # None means this kind takes no options.
    options_example: ClassVar[JSONDict | None] = None

    def options_editor(self) -> JSONDict | None:
        """The admin's friendlier options editor, if any; ``clean_options`` still decides what is
        valid."""
        return None

    def shelf_of(self, exercise: "Exercise") -> Shelf:
        return self.shelf

    def about_line(self, exercise: "Exercise") -> str:
        """One line on what ``exercise`` is: the first sentence of the note for therapists,
        else what the kind is."""
        note = (exercise.therapist_note or "").strip()
        first = note.split(". ", 1)[0].split("\n", 1)[0].rstrip(".")
        return Truncator(first).chars(ABOUT_MAX_CHARS) if first else str(self.about)

    def clean_options(self, options: Any, *, saved: Any = None) -> JSONDict:
        """``saved`` is what the exercise holds now: a kind may let stand what it would refuse as
        new, so an old exercise can still be edited."""
        if options in (None, "", {}):
            return {}
        raise ResponseInvalid({"options": [_("This kind of exercise takes no options.")]})

    def initial(self, *, exercise: "Exercise", previous: "Entry | None" = None) -> JSONDict:
        """``previous`` is the client's last sent entry: kinds kept up to date over time start the
        next one from it."""
        return {}

    def form(
        self,
        *,
        exercise: "Exercise",
        data: Mapping[str, Any] | None = None,
        initial: Mapping[str, Any] | None = None,
        asked: Mapping[str, Any] | None = None,
    ) -> KindForm:
        """``asked`` is the wording a reopened entry answered, so a reworded question can say so."""
        return self.form_class(data=data, initial=dict(initial or {}), prefix="r")

    def validate(self, data: Mapping[str, Any], *, exercise: "Exercise", tz: str) -> JSONDict:
        """``data`` may be the API's JSON or the portal's posted fields."""
        form_data, errors = as_form_data(data, self.form(exercise=exercise))
        if errors:
            raise ResponseInvalid(errors)
        form = self.form(exercise=exercise, data=form_data)
        with timezone.override(tz):
            if not form.is_valid():
                raise ResponseInvalid(form.response_errors())
            return self.to_json(form.cleaned_data)

    def merge_edit(self, sent: JSONDict, edited: JSONDict, *, exercise: "Exercise") -> JSONDict:
        """A kind whose form can change under the client keeps what the form no longer shows."""
        return edited

    def validate_draft(self, data: Mapping[str, Any], *, exercise: "Exercise", tz: str) -> JSONDict:
        """A draft may be incomplete, but holds only the kind's own keys, each bounded in size."""
        form_data, errors = as_form_data(data, self.form(exercise=exercise))
        if errors:
            raise ResponseInvalid(errors)
        draft, errors = draft_from_form_data(
            form_data, self.form(exercise=exercise, data=form_data)
        )
        if errors:
            raise ResponseInvalid(errors)
        return draft

    def to_json(self, cleaned: Mapping[str, Any]) -> JSONDict:
        return {key: json_ready(value) for key, value in cleaned.items()}

    def score(self, response: JSONDict, *, exercise: "Exercise") -> float | None:
        return None

    def subscale_scores(
        self, response: JSONDict, *, exercise: "Exercise"
    ) -> dict[str, float] | None:
        return None

    def happened_at_given(self, response: JSONDict) -> dt.datetime | None:
        return None

    def contact_happened(self, response: JSONDict) -> bool | None:
        """None means the entry does not say."""
        return None

    def plain_columns(self, response: JSONDict, *, exercise: "Exercise") -> JSONDict:
        """The one place that sets the plain columns beside the encrypted response."""
        return {
            "score": self.score(response, exercise=exercise),
            "subscale_scores": self.subscale_scores(response, exercise=exercise),
            "needs_review": self.needs_review(response, exercise=exercise),
            "happened_at": self.happened_at_given(response),
            "contact_happened": self.contact_happened(response),
        }

    def opened_for_charts(self) -> "Q | None":
        """Which entries a chart over all of them must decrypt; the rest are drawn from plain
        columns. None: every one."""
        return None

    def needs_review(self, response: JSONDict, *, exercise: "Exercise") -> bool:
        return False

    def review_words(self, entry: "Entry") -> list[str]:
        """Names the answer and nothing more."""
        return []

    def watched_answers(self, entry: "Entry") -> list[tuple[str, str]]:
        """Each watched answer's question key and its words, as ``review_words`` names them."""
        return []

    def upgrade(self, response: JSONDict, from_version: int) -> JSONDict:
        """A response from a newer version (a rollback) is shown as it is rather than refused: it is
        still the client's words."""
        upgraded = dict(response)
        for version in range(max(from_version, 1), self.schema_version):
            upgraded = self.upgrades[version](upgraded)
        return upgraded

    def response_of(self, entry: "Entry") -> JSONDict:
        return self.upgrade(entry.response, entry.schema_version)

    def questions_asked(self, exercise: "Exercise") -> list[JSONDict]:
        """Labels each key for the client's own download, which must read without this app."""
        form = self.form(exercise=exercise)
        asked = [asked_as(name, field) for name, field in form.fields.items()]
        for name, rows in form.row_sets.items():
            fields = rows.spec.fields().items()
            asked.append(
                {
                    "key": name,
                    "text": str(rows.spec.legend),
                    "rows": [asked_as(field_name, field) for field_name, field in fields],
                }
            )
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
        """The wording the client answered, kept so a later rewording cannot change what they
        answered; ``shown`` is what their screen said (None from the API). Empty for kinds whose
        labels never change."""
        return {}

    def questions_answered(self, entry: "Entry", asked_now: list[JSONDict]) -> list[JSONDict]:
        return asked_now

    def present(self, entry: "Entry") -> JSONDict:
        return {"response": self.response_of(entry)}

    def help_now(self, entry: "Entry") -> JSONDict:
        return self.present(entry)

    def excerpt(self, entry: "Entry") -> str:
        return ""

    def happened_at(self, entry: "Entry") -> dt.datetime:
        """For putting records in order: by default when it was sent, or started."""
        return entry.submitted_at or entry.created_at

    def summary_context(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> JSONDict:
        """``entries`` are shared, submitted entries only (never private ones); ``printed`` lists
        those whose own words the section prints."""
        return {"entries": [(entry, self.present(entry)) for entry in entries], "printed": entries}

    def earlier_wanted(self) -> EarlierWanted | None:
        """Entries from before the period this section also needs; None: nothing."""
        return None

    def at_a_glance(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> list[str]:
        return []

    def summary_and_glance(
        self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF
    ) -> tuple[JSONDict, list[str]]:
        return self.summary_context(entries, scope), self.at_a_glance(entries, scope)

    def trend(self, scores: Sequence[tuple[dt.date, float | None]]) -> str | None:
        """Read from plain columns so no response is decrypted; None when too few days are logged to
        say."""
        return None

    def progress_context(
        self, *, assignment: "Assignment", entries: Sequence["Entry"]
    ) -> JSONDict | None:
        """None when this kind has no picture; ``entries`` include private ones, as the page is the
        client's own."""
        return None

    def timeline_points(self, entry: "Entry", *, zone: dt.tzinfo) -> list["TimelinePoint"]:
        """Only what the entry says: a blank field adds nothing."""
        return []

    def compare(
        self, *, exercise: "Exercise", mine: Mapping[str, Any], theirs: JSONDict
    ) -> list[dict[str, str]]:
        """Every answer that differs, so a conflict never hides text."""
        try:
            mine_shaped = self.validate_draft(mine, exercise=exercise, tz="UTC")
        except ResponseInvalid:
            mine_shaped = dict(mine)
        form = self.form(exercise=exercise)
        ours, others = flatten(form, mine_shaped), flatten(form, theirs)
        keys = list(dict.fromkeys([*ours, *others]))
        rows = []
        for key in keys:
            label = (ours.get(key) or others[key])[0]
            mine_text = ours[key][1] if key in ours else ""
            theirs_text = others[key][1] if key in others else ""
            if mine_text != theirs_text:
                rows.append({"key": key, "label": label, "mine": mine_text, "theirs": theirs_text})
        return rows

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.slug}>"
