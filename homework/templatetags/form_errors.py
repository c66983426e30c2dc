"""One link per field to fix, so a keyboard or screen-reader user can go straight there."""

from dataclasses import dataclass
from typing import Any

from django import forms, template
from django.forms import BoundField
from django.utils.translation import gettext as _

from homework.kinds.excerpts import joiner_after

register = template.Library()


@dataclass(frozen=True)
class ErrorLink:
    target: str
    label: str
    message: str

    @property
    def joiner(self) -> str:
        return joiner_after(self.label)


def _link(field: BoundField, prefix: str = "") -> ErrorLink | None:
    # Django gives a group of radios or tick boxes no single id, so land on the first choice.
    target = field.id_for_label or (f"{field.auto_id}_0" if field.auto_id else "")
    if not target:
        return None
    name = getattr(field.field, "short_label", None) or field.label
    return ErrorLink(
        target=target,
        label=f"{prefix}{name}",
        message=" ".join(str(m) for m in field.errors),
    )


@register.simple_tag
def error_links(form: forms.BaseForm) -> list[ErrorLink]:
    links: list[ErrorLink] = []
    if not form.is_bound:
        return links
    for field in form:
        if field.errors and not field.is_hidden and (link := _link(field)):
            links.append(link)
    row_sets: dict[str, Any] = getattr(form, "row_sets", {})
    for rows in row_sets.values():
        if rows.set_errors:
            links.append(
                ErrorLink(
                    target=rows.prefix,
                    label=str(rows.spec.legend),
                    message=" ".join(str(m) for m in rows.set_errors),
                )
            )
        for number, row in enumerate(rows, start=1):
            label = _("%(row)s %(number)s") % {"row": rows.spec.row_label, "number": number}
            links.extend(
                ErrorLink(target=str(row.prefix), label=label, message=str(message))
                for message in row.non_field_errors()
            )
            for field in row:
                if field.errors and (link := _link(field, f"{label}: ")):
                    links.append(link)
    return links
