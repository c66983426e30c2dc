from django import template
from django.forms import BoundField

register = template.Library()


@register.filter
def marked_needed(field: BoundField) -> bool:
    """A required field, unless it asks not to be marked (homework.kinds.fields.TextField)."""
    return bool(field.field.required and getattr(field.field, "marked_needed", True))
