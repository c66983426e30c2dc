"""The interface every exercise kind implements.

A kind owns everything that depends on what a response contains: its schema
and validation, the portal form, how an entry is shown, its part of the
session summary and of the client's progress page. Code outside this
package asks the registry for the kind and calls these methods; it never
branches on a kind's name.
"""

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from homework.kinds.answers import asked_as, flatten, json_ready
from homework.kinds.data import as_form_data, draft_from_form_data
from homework.kinds.fields import KindForm
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


# What ``ExerciseKind.trend`` answers (the urge curve's own words for its direction).
TREND_EASING = "easing"
TREND_STEADY = "steady"
TREND_STRONGER = "stronger"


class ExerciseKind:
    slug: ClassVar[str]
    label: ClassVar["StrOrPromise"]
    # Bump when the response's shape changes, and add the step from the
    # previous version to ``upgrades``: entries keep the version they were
    # written under and are brought up to date whenever they are read.
    schema_version: ClassVar[int] = 1
    upgrades: ClassVar[Mapping[int, Upgrade]] = {}
    # Logs take any number of entries; other kinds one per occurrence.
    is_log: ClassVar[bool] = False
    # What "To do" offers once something was sent. A kind kept up to date
    # over time, whose ``initial`` starts the next entry from the last one
    # sent (a plan, a map, a ladder), says it updates it: "Add another"
    # would promise a second, blank one.
    again_label: ClassVar["StrOrPromise"] = gettext_lazy("Add another")
    # Whether that next entry starts from the last one sent (``initial``):
    # true of the kinds that say they update. A new slot of recurring work
    # says so too; a kind that starts afresh opens it as it did the first.
    continues_last_sent: ClassVar[bool] = False
    # Whether the assignment's "no contact since" date means anything here
    # (days without contact are counted from it); other kinds refuse it.
    uses_no_contact_since: ClassVar[bool] = False
    # Whether ``excerpt`` quotes what the client wrote: a flagged entry's line
    # in the summary then counts as read (``summary_context``'s ``printed``).
    excerpt_quotes_client: ClassVar[bool] = True
    form_class: ClassVar[type[KindForm]]
    # Whether ``trend`` says anything: the caseload reads entries only for
    # the kinds that do.
    has_trend: ClassVar[bool] = False
    # Whether the client's newest sent entry is a living document kept within
    # reach (a safety plan): Help now shows it first, and every summary says
    # whether one is current, whatever its period (``SummaryScope.current``).
    within_reach: ClassVar[bool] = False

    # -- templates: templates/homework/kinds/<slug>/{form,display,summary,progress}.html
    # (and brief.html for a kind whose export_template is briefer)
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

    # Whether the client's own PDF download prints this kind's entries in a
    # briefer form (brief.html) than the portal's: a log or a check-in sent
    # every day runs to hundreds of entries, and half a page for each makes a
    # document too long to read, or to make while the client waits.
    brief_in_download: ClassVar[bool] = False

    @property
    def export_template(self) -> str:
        return (
            f"homework/kinds/{self.slug}/brief.html"
            if self.brief_in_download
            else self.display_template
        )

    # -- the exercise's own options (e.g. a worksheet's questions)
    # An example of valid options, shown to staff beside the options field in
    # the admin; None means this kind takes no options.
    options_example: ClassVar[JSONDict | None] = None

    def options_editor(self) -> JSONDict | None:
        """A friendlier editor for this kind's options in the admin, if any:
        ``{"editor": <a script's editor name>, "words": {...}}``. The JSON box
        stays underneath (and is all there is without JavaScript);
        ``clean_options`` still decides what is valid."""
        return None

    def clean_options(self, options: Any, *, saved: Any = None) -> JSONDict:
        """The options as they will be saved, or ResponseInvalid. ``saved`` is
        what the exercise holds now (None for a new one): a kind may let stand
        what it would refuse as new, so an old exercise can still be edited."""
        if options in (None, "", {}):
            return {}
        raise ResponseInvalid({"options": [_("This kind of exercise takes no options.")]})

    # -- the portal form
    def initial(self, *, exercise: "Exercise", previous: "Entry | None" = None) -> JSONDict:
        """Values a new, empty form starts with (in the client's time zone).

        ``previous`` is the client's last sent entry for the same assignment:
        kinds that are kept up to date over time (a ladder, a map, a plan)
        start the next one from it.
        """
        return {}

    def form(
        self,
        *,
        exercise: "Exercise",
        data: Mapping[str, Any] | None = None,
        initial: Mapping[str, Any] | None = None,
        asked: Mapping[str, Any] | None = None,
    ) -> KindForm:
        """``asked`` is what the entry being reopened kept of the wording it
        answered (Entry.asked): a kind whose questions can be reworded says
        so beside an answer given to other words."""
        return self.form_class(data=data, initial=dict(initial or {}), prefix="r")

    # -- validation
    def validate(self, data: Mapping[str, Any], *, exercise: "Exercise", tz: str) -> JSONDict:
        """Full validation for a submitted response; returns JSON-ready data.

        ``data`` may be the API's JSON (rows as lists of objects) or the
        portal's posted fields (rows as ``steps-0-boundary``).
        """
        form_data, errors = as_form_data(data, self.form(exercise=exercise))
        if errors:
            raise ResponseInvalid(errors)
        form = self.form(exercise=exercise, data=form_data)
        with timezone.override(tz):
            if not form.is_valid():
                raise ResponseInvalid(form.response_errors())
            return self.to_json(form.cleaned_data)

    def merge_edit(self, sent: JSONDict, edited: JSONDict, *, exercise: "Exercise") -> JSONDict:
        """The response after a client changes a draft or a sent entry: by
        default, just the edited one. A kind whose form can change under the
        client (the therapist's own questions) keeps what the form no longer
        shows."""
        return edited

    def validate_draft(self, data: Mapping[str, Any], *, exercise: "Exercise", tz: str) -> JSONDict:
        """Lenient validation for a draft: what was typed so far, bounded in size.

        A draft may be incomplete or not yet valid, but it may hold only the
        kind's own keys, each no longer than the field allows. It is kept in
        the response's shape (rows as lists) so the form can reopen with it.
        """
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
        """Cleaned form data → JSON-ready values (dates and times as ISO 8601)."""
        return {key: json_ready(value) for key, value in cleaned.items()}

    def score(self, response: JSONDict, *, exercise: "Exercise") -> float | None:
        """A number kept on the entry for charting over time (scored check-ins)."""
        return None

    def happened_at_given(self, response: JSONDict) -> dt.datetime | None:
        """When what the entry records happened, as the client gave it, for
        a kind that draws it over time (``Entry.happened_at``); None here."""
        return None

    def contact_happened(self, response: JSONDict) -> bool | None:
        """Whether the entry says there was contact (True), says there was
        none (False) or does not say (None), for a kind that asks."""
        return None

    def plain_columns(self, response: JSONDict, *, exercise: "Exercise") -> JSONDict:
        """What a sent entry keeps in plain columns beside its sealed
        response, each taken from it by this kind: set wherever an entry is
        sent or changed (homework.services), from this one place."""
        return {
            "score": self.score(response, exercise=exercise),
            "needs_review": self.needs_review(response, exercise=exercise),
            "happened_at": self.happened_at_given(response),
            "contact_happened": self.contact_happened(response),
        }

    def opened_for_charts(self) -> "Q | None":
        """Which of this kind's entries a picture drawn over all of them (the
        client's progress page, a summary's entries from before its period)
        needs opened; the others are drawn from their plain columns
        (``plain_columns``), their responses left sealed. None: every one."""
        return None

    def needs_review(self, response: JSONDict, *, exercise: "Exercise") -> bool:
        """Whether an answer asks for the therapist's prompt review (a
        questionnaire's item its authors say to follow up, such as PHQ-9's
        ninth): kept on the entry and shown first, beside "felt unsafe"."""
        return False

    def review_words(self, entry: "Entry") -> list[str]:
        """Each answer that raised the review flag, after the question it
        answers ("How safe have you felt? 0 / 10"): what the flag says
        wherever it is shown, naming the answer and nothing more."""
        return []

    def upgrade(self, response: JSONDict, from_version: int) -> JSONDict:
        """Bring a response stored under an older schema up to the current one.

        A response from a newer version than this code knows (a rollback) is
        shown as it is rather than refused: it is still the client's words.
        """
        upgraded = dict(response)
        for version in range(max(from_version, 1), self.schema_version):
            upgraded = self.upgrades[version](upgraded)
        return upgraded

    def response_of(self, entry: "Entry") -> JSONDict:
        return self.upgrade(entry.response, entry.schema_version)

    # -- showing an entry
    def questions_asked(self, exercise: "Exercise") -> list[JSONDict]:
        """What each key of a response answers, for the client's own download:
        read without this app, a file of bare keys and values ("q_1a2b…",
        "held") says nothing. One rule for every kind, taken from the form as
        it asks now: ``{"key", "text"}`` per answer, with ``"choices"``
        (stored value → its words) where the answer is one of a set, and
        ``"rows"`` (the same, per field) for repeatable rows."""
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
        """What ``response`` answers, as the client was asked it, to be kept
        with the entry each time the client saves or sends it (Entry.asked):
        the wording they answered, whatever the exercise says later.
        ``before`` is what the entry kept last time, ``answered_before`` the
        response it held then (empty for a new entry): an answer the client
        did not change still answers what they read when they gave it.
        ``shown`` is what the page said it showed (None when it said
        nothing, e.g. the API): an answer answers the words on the client's
        screen, not the ones the exercise has since.
        Empty by default: a kind's own labels do not change under an entry;
        a kind whose questions the therapist writes (and may reword) keeps
        them."""
        return {}

    def questions_answered(self, entry: "Entry", asked_now: list[JSONDict]) -> list[JSONDict]:
        """``questions_asked`` (built once per exercise) for one entry: each
        worded as the entry's answers answered it, where the entry kept that
        (``asked``). By default, as the form asks now."""
        return asked_now

    def present(self, entry: "Entry") -> JSONDict:
        """Template context for an entry's display (admin, portal history, export)."""
        return {"response": self.response_of(entry)}

    def help_now(self, entry: "Entry") -> JSONDict:
        """Context for ``help_now_template``, for a kind kept ``within_reach``."""
        return self.present(entry)

    def excerpt(self, entry: "Entry") -> str:
        """One line a therapist can scan in a list."""
        return ""

    def happened_at(self, entry: "Entry") -> dt.datetime:
        """When what the entry is about happened, for putting records in order
        (the client's export). By default: when it was sent, or started."""
        return entry.submitted_at or entry.created_at

    def summary_context(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> JSONDict:
        """Data for this kind's section of the session summary.

        ``entries`` are the client's shared, submitted entries of this kind in
        the period (never private ones), with their assignment loaded;
        ``scope`` says how much to show, and what from before (SummaryScope).

        ``printed`` lists the entries whose own words the section prints.
        """
        return {"entries": [(entry, self.present(entry)) for entry in entries], "printed": entries}

    def earlier_wanted(self) -> EarlierWanted | None:
        """Which entries from before the period this kind's section also
        needs (read in the summary's one query for all kinds) and handed over
        as ``scope.earlier``: for instance the map before; or every urge logged
        since no contact began. None: nothing from before."""
        return None

    def at_a_glance(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> list[str]:
        """One-line facts for the summary's first page (e.g. days without contact)."""
        return []

    def summary_and_glance(
        self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF
    ) -> tuple[JSONDict, list[str]]:
        """``summary_context`` and ``at_a_glance`` together, as the summary
        asks for both: a kind drawing both from one picture draws it once."""
        return self.summary_context(entries, scope), self.at_a_glance(entries, scope)

    def trend(self, scores: Sequence[tuple[dt.date, float | None]]) -> str | None:
        """Whether what this kind follows eased, held or grew over ``scores``:
        each shared entry's day (``Entry.occurrence_on``) and ``Entry.score``,
        read plain so no response is decrypted. One of TREND_EASING,
        TREND_STEADY, TREND_STRONGER, or None when too few days are logged to
        say (or the kind follows nothing: ``has_trend``). The caseload's
        "urges easing or not"."""
        return None

    def progress_context(
        self, *, assignment: "Assignment", entries: Sequence["Entry"]
    ) -> JSONDict | None:
        """What the client's own progress page shows for one assignment, or
        None when this kind has no picture to draw. ``entries`` are the
        assignment's sent entries, oldest first, private ones included."""
        return None

    def timeline_points(self, entry: "Entry", *, zone: dt.tzinfo) -> list["TimelinePoint"]:
        """What this entry puts on the client's timeline (charts.timeline):
        a record's distress, an urge and any contact, a step tried or held,
        on the day it happened on the client's calendar (``zone``). Only
        what the entry says: a field left blank adds nothing. None by default."""
        return []

    # -- two versions side by side (a save from another tab)
    def compare(
        self, *, exercise: "Exercise", mine: Mapping[str, Any], theirs: JSONDict
    ) -> list[dict[str, str]]:
        """Rows of (label, what is on this page, what was saved elsewhere)
        for every answer that differs, so a conflict never hides text."""
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
