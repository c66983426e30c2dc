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
from django.db.models.functions import Coalesce

from homework.kinds import get_kind
from homework.models import Assignment, Entry


def listed(entries: QuerySet[Entry]) -> QuerySet[Entry]:
    """Entries read for a list, a chart or a summary, without the note a
    client keeps unsent on one: only the entry's own edit page reads it, and
    every row loaded with it opens one more sealed value for nothing."""
    return entries.defer("note_draft")


def count_per_entry(related: type[Model]) -> Coalesce:
    """How many ``related`` rows each entry has, counted for the rows a page shows."""
    rows = (
        related._default_manager.filter(entry=OuterRef("pk"))
        .order_by()
        .values("entry")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), 0)


def opened_for_charts(assignments: Iterable[Assignment]) -> Q:
    """The entries of ``assignments`` whose responses a chart opens, each kind saying which."""
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


def opened_where(entries: QuerySet[Entry], opened: Q) -> QuerySet[Entry]:
    """Entries whose response is fetched, and so decrypted, only where
    ``opened`` holds, in the same one query; read them through ``with_response``.
    (The response column is never null, so a null here means "not opened".)"""
    return entries.defer("response").annotate(
        opened_response=Case(
            When(opened, then=F("response")),
            default=Value(None),
            output_field=Entry._meta.get_field("response"),
        )
    )


def with_response(rows: Iterable[Entry]) -> list[Entry]:
    """The rows of ``opened_where``, each opened response in its place, where
    reading it is a look like any other; the rest stay unread."""
    read: list[Entry] = []
    for entry in rows:
        opened = getattr(entry, "opened_response", None)
        if opened is not None:
            entry.response = opened
        read.append(entry)
    return read


def charted(entries: QuerySet[Entry], *, opened: Q) -> list[Entry]:
    """Entries read for a picture drawn over all of them, each response
    opened only where ``opened`` holds (``opened_for_charts``), the rest
    drawn from their plain columns: reading and opening each of a year of
    urges was half the client's progress page."""
    return with_response(opened_where(entries, opened))
