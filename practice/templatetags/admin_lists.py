"""The admin's lists on a phone: each cell labelled with its column, sorting offered above."""

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
    return [escape(capfirst(strip_tags(str(header.get("text", ""))).strip())) for header in headers]


@register.filter
def labelled_cells(cells: Iterable[str], labels: Iterable[str]) -> SafeString:
    drawn = []
    for cell, label in zip(cells, labels, strict=False):
        # Django built the cell with format_html: safe, and it starts with its tag.
        drawn.append(_CELL_START.sub(rf'<\1 data-label="{label}"', str(cell), count=1))
    row = "".join(drawn)
    return mark_safe(row)  # noqa: S308 (labels escaped, cells already safe)  # nosec B703


@register.filter
def sortable_columns(headers: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [header for header in headers if header.get("sortable")]
