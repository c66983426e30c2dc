"""The admin's lists on a narrow screen (those whose ModelAdmin sets
``stacks_on_a_phone``): each row stacks its columns, so each value carries its
column's name, and the list offers its sorting above the rows (the headings,
which Django sorts by, are out of sight there)."""

import re
from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import escape, strip_tags
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst

register = template.Library()

_CELL_START = re.compile(r"^\s*<(td|th)\b")


@register.filter
def cell_labels(headers: Iterable[dict[str, Any]]) -> list[str]:
    """Each column's name as its heading shows it (capitalised, tags dropped,
    so the tick-all box of a list with actions names nothing), escaped: made
    once a list, not once a row (a heading is a lazy translation)."""
    return [escape(capfirst(strip_tags(str(header.get("text", ""))).strip())) for header in headers]


@register.filter
def labelled_cells(cells: Iterable[str], labels: Iterable[str]) -> SafeString:
    """The row's cells as Django drew them, each with ``data-label`` set to its
    column's name (``cell_labels``)."""
    drawn = []
    for cell, label in zip(cells, labels, strict=False):
        # Django built the cell with format_html: safe, and it starts with its tag.
        drawn.append(_CELL_START.sub(rf'<\1 data-label="{label}"', str(cell), count=1))
    row = "".join(drawn)
    return mark_safe(row)  # noqa: S308 (labels escaped, cells already safe)  # nosec B703


@register.filter
def sortable_columns(headers: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The headings Django would let one sort the list by, with the links it
    made for each (``url_primary``, ``url_toggle``) and its current order."""
    return [header for header in headers if header.get("sortable")]
