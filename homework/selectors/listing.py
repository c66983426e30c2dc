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
    """Only the entry's own edit page reads the unsent note; elsewhere it's a wasted decryption."""
    return entries.defer("note_draft")


def count_per_entry(related: type[Model]) -> Coalesce:
    rows = (
        related._default_manager.filter(entry=OuterRef("pk"))
        .order_by()
        .values("entry")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Coalesce(Subquery(rows, output_field=IntegerField()), 0)


def opened_for_charts(assignments: Iterable[Assignment]) -> Q:
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
    """Only where ``opened`` holds is the response fetched, and so decrypted, in the same query."""
    return entries.defer("response").annotate(
        opened_response=Case(
            When(opened, then=F("response")),
            default=Value(None),
            output_field=Entry._meta.get_field("response"),
        )
    )


def with_response(rows: Iterable[Entry]) -> list[Entry]:
    read: list[Entry] = []
    for entry in rows:
        opened = getattr(entry, "opened_response", None)
        if opened is not None:
            entry.response = opened
        read.append(entry)
    return read


def charted(entries: QuerySet[Entry], *, opened: Q) -> list[Entry]:
    """Opening every response of a year of urges was half the client's progress page."""
    return with_response(opened_where(entries, opened))
