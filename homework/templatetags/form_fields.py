"""``{% load form_fields %}``: what a portal field's label says about it."""

from django import template
from django.forms import BoundField

register = template.Library()


@register.filter
def marked_needed(field: BoundField) -> bool:
    """Whether the label says "(needed)": a required field, unless it says
    it is not to be marked (homework.kinds.fields.TextField)."""
    return bool(field.field.required and getattr(field.field, "marked_needed", True))
