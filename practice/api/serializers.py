"""What the API's serializers share: strict input, plain output."""

from collections.abc import Callable, Mapping
from functools import cached_property
from operator import attrgetter, itemgetter
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

NOT_TAKEN = _("This field cannot be set here.")


class StrictInput(serializers.Serializer[Any]):
    """An input serializer that refuses any key it does not take (400, each
    named), instead of DRF's default of ignoring it: a ``client``, a
    ``version`` or a ``seen_at`` in a body must never look as if it had been
    applied. Read-only fields count as not taken."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            taken = {name for name, field in self.fields.items() if not field.read_only}
            refused = sorted(str(name) for name in data if name not in taken)
            if refused:
                raise serializers.ValidationError({name: [NOT_TAKEN] for name in refused})
        return super().to_internal_value(data)


# An output serializer cheap enough for a page of 100 rows: the same fields,
# so the same schema and the same JSON, but each row read through a plan made
# once per serializer (each field's source, then that field's own
# ``to_representation``) instead of DRF's walk, which costs about as much per
# row as loading the row. A row may also be a ``.values()`` dict keyed by the
# sources' lookups (``exercise__title`` for ``exercise.title``): no model is
# built for it. (A comment, not a docstring: the schema would take a
# docstring as the description of every serializer built on this.)
class PlainOutput(serializers.Serializer[Any]):
    @cached_property
    def _plan(self) -> list[tuple[str, str, Callable[[Any], Any]]]:
        return [
            (name, str(field.source), _shower(field))
            for name, field in self.fields.items()
            if not field.write_only
        ]

    @cached_property
    def _readers(self) -> dict[bool, list[Callable[[Any], Any]]]:
        """Per field, how to read it: from a model (False) or a dict (True)."""
        sources = [source for _name, source, _show in self._plan]
        return {
            False: [_itself if s == "*" else attrgetter(s) for s in sources],
            True: [_itself if s == "*" else itemgetter(s.replace(".", "__")) for s in sources],
        }

    def to_representation(self, instance: Any) -> dict[str, Any]:
        row = {}
        readers = self._readers[isinstance(instance, dict)]
        for (name, _source, show), read in zip(self._plan, readers, strict=True):
            value = read(instance)
            # As DRF: a missing value is null, never passed to the field.
            row[name] = None if value is None else show(value)
        return row


def _itself(instance: Any) -> Any:
    return instance


def _shower(field: serializers.Field[Any, Any, Any, Any]) -> Callable[[Any], Any]:
    """The field's own ``to_representation``, less what it would redo per row."""
    if isinstance(field, serializers.DateTimeField) and not hasattr(field, "timezone"):
        # The request's time zone, looked up once rather than once a value.
        field.timezone = field.default_timezone()  # type: ignore[assignment]
    if isinstance(field, serializers.BooleanField):
        show = field.to_representation
        return lambda value: value if value is True or value is False else show(value)
    return field.to_representation
