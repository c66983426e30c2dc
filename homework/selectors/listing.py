"""Reading entries by the page: what a list loads of each, and how it counts what hangs off each."""

from django.db.models import Count, IntegerField, Model, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from homework.models import Entry


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
