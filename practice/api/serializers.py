from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

NOT_TAKEN = _("This field cannot be set here.")


class StrictInput(serializers.Serializer[Any]):
    """Unknown keys are refused, not ignored: a ``version`` in a body must never look applied."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            taken = {name for name, field in self.fields.items() if not field.read_only}
            refused = sorted(str(name) for name in data if name not in taken)
            if refused:
                raise serializers.ValidationError({name: [NOT_TAKEN] for name in refused})
        return super().to_internal_value(data)
