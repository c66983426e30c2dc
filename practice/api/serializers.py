"""What the API's input serializers share: unknown keys are refused."""

from collections.abc import Mapping
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
