"""What the API's serializers share: strict input, plain output."""

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property
from operator import attrgetter, itemgetter
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import ISO_8601, serializers
from rest_framework.settings import api_settings

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
    def _steps(self) -> dict[bool, list[tuple[str, Callable[[Any], Any], Callable[[Any], Any]]]]:
        """Per field, its name, how to read it and how to show it: from a
        model (False) or a dict (True)."""
        return {
            False: [
                (name, _itself if source == "*" else attrgetter(source), show)
                for name, source, show in self._plan
            ],
            True: [
                (name, _itself if source == "*" else itemgetter(source.replace(".", "__")), show)
                for name, source, show in self._plan
            ],
        }

    def rows(self, instances: Iterable[Any]) -> list[dict[str, Any]]:
        """A page of rows, in a plain list: ``many=True`` would keep them in
        a ListSerializer and a ReturnList that refer to each other, so the
        page would wait for the garbage collector after it is sent."""
        return [self.to_representation(instance) for instance in instances]

    def to_representation(self, instance: Any) -> dict[str, Any]:
        row = {}
        for name, read, show in self._steps[isinstance(instance, dict)]:
            value = read(instance)
            # As DRF: a missing value is null, never passed to the field.
            row[name] = None if value is None else show(value)
        return row


def _itself(instance: Any) -> Any:
    return instance


def _shower(field: serializers.Field[Any, Any, Any, Any]) -> Callable[[Any], Any]:
    """The field's own ``to_representation``, less what it would redo per row."""
    shows = type(field).to_representation
    if isinstance(field, serializers.DateTimeField):
        if not hasattr(field, "timezone"):
            # The request's time zone, looked up once rather than once a value.
            field.timezone = field.default_timezone()  # type: ignore[assignment]
        if shows is serializers.DateTimeField.to_representation:
            return _iso_datetime(field)
    # Where DRF's method is one builtin call, that builtin (no Python frame a value).
    if shows is serializers.IntegerField.to_representation:
        return int
    if shows is serializers.CharField.to_representation:
        return str
    if (
        shows is serializers.UUIDField.to_representation
        and getattr(field, "uuid_format", None) == "hex_verbose"
    ):
        return str
    if isinstance(field, serializers.BooleanField):
        show = field.to_representation
        return lambda value: value if value is True or value is False else show(value)
    return field.to_representation


def _iso_datetime(field: serializers.DateTimeField) -> Callable[[Any], Any]:
    """DRF's DateTimeField.to_representation for the aware datetimes a
    database returns, in the field's time zone as ISO 8601 ("Z" for UTC);
    anything else goes to the field itself."""
    zone = field.timezone
    iso = getattr(field, "format", api_settings.DATETIME_FORMAT)
    if zone is None or not isinstance(iso, str) or iso.lower() != ISO_8601:
        return field.to_representation

    def show(value: Any) -> Any:
        if type(value) is not dt.datetime or value.utcoffset() is None:
            return field.to_representation(value)
        try:
            text = value.astimezone(zone).isoformat()
        except OverflowError:
            return field.to_representation(value)  # DRF's own error for it
        return text[:-6] + "Z" if text.endswith("+00:00") else text

    return show
