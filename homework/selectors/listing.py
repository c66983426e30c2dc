"""Reading entries by the page: what a list loads of each, and how it counts what hangs off each."""

from collections.abc import Iterable
from functools import reduce
from operator import or_

from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    Model,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.base import DEFERRED
from django.db.models.functions import Coalesce

from homework.kinds import get_kind
from homework.models import Assignment, Entry


def listed(entries: QuerySet[Entry]) -> QuerySet[Entry]:
    """Entries read for a list, a chart or a summary, without the note a
    client keeps unsent on one: only the entry's own edit page reads it, and
    every row loaded with it opens one more sealed value for nothing."""
    return entries.defer("note_draft")


def count_per_entry(related: type[Model]) -> Coalesce:
    """How many ``related`` rows (comments, notes) each entry has, counted
    for the rows a page shows: a Count() annotation joins and groups every
    entry of the list before the page is cut from it."""
    rows = (
        related._default_manager.filter(entry=OuterRef("pk"))
        .order_by()
        .values("entry")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), 0)


def opened_for_charts(assignments: Iterable[Assignment]) -> Q:
    """The entries of ``assignments`` (their exercise read) whose responses a
    picture drawn over all of them opens, each kind saying which
    (ExerciseKind.opened_for_charts); entries of any other work are not."""
    by_kind: dict[str, list[int]] = {}
    for assignment in assignments:
        by_kind.setdefault(assignment.exercise.kind, []).append(assignment.pk)
    return reduce(
        or_,
        (
            Q(assignment_id__in=pks) & (get_kind(slug).opened_for_charts() or Q())
            for slug, pks in by_kind.items()
        ),
        Q(pk__in=[]),
    )


# What a picture reads of an entry it does not open (``opened_for_charts``):
# the plain columns its kind draws it from (plain_columns), and what says whose
# it is and whether it is shown. Its other columns are never read.
PLAIN_FOR_CHARTS = (
    "id",
    "assignment_id",
    "status",
    "private",
    "created_at",
    "submitted_at",
    "score",
    "happened_at",
    "contact_happened",
)


def charted(entries: QuerySet[Entry], *, opened: Q) -> list[Entry]:
    """Entries read for a picture drawn over all of them, each opened (its
    response and every column read) only where ``opened`` holds
    (``opened_for_charts``), the rest read from ``PLAIN_FOR_CHARTS`` alone,
    in the same one query: parsing and building a whole entry for each of a
    year of urges was a third of the client's progress page."""
    fields = Entry._meta.concrete_fields
    # An unopened row's other columns come back empty (NULL costs nothing to
    # read), under names that do not clash with the fields'; the one test of
    # ``opened`` is named once and referred to, not built again per column.
    read_columns = [field for field in fields if field.attname != "note_draft"]
    emptied = {
        field.attname: Case(
            When(Q(charted_opened=True), then=F(field.attname)),
            default=Value(None),
            output_field=field,
        )
        for field in read_columns
        if field.attname not in PLAIN_FOR_CHARTS
    }
    rows = (
        entries.annotate(charted_opened=Case(When(opened, then=Value(True)), default=Value(False)))
        .annotate(**{f"charted_{name}": column for name, column in emptied.items()})
        .values_list(
            "charted_opened",
            *(
                f"charted_{field.attname}" if field.attname in emptied else field.attname
                for field in read_columns
            ),
        )
    )
    # Where each field's value is in a row, for an opened entry and for one
    # read plain; DEFERRED where it is not read (Model.from_db's own marker).
    at = {field.attname: i for i, field in enumerate(read_columns)}
    names = [field.attname for field in fields]
    whole = [at.get(name) for name in names]
    plain = [at[name] if name in PLAIN_FOR_CHARTS else None for name in names]
    read: list[Entry] = []
    for is_opened, *values in rows:
        where = whole if is_opened else plain
        read.append(
            Entry.from_db(entries.db, names, [DEFERRED if i is None else values[i] for i in where])
        )
    return read
