"""The one way a field past its limit is said, in the portal and the admin
alike (homework and clients both use it, so it lives in the base)."""

from typing import TYPE_CHECKING, Any, cast

from django.utils import formats
from django.utils.functional import Promise
from django.utils.translation import ngettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class GroupedCount(Promise):
    """A counted message whose numbers read as the language writes them
    ("2,000", not "2000").

    Django fills a length message with ``limit_value`` and ``show_value``;
    the message itself prints ``%(limit)s`` and ``%(length)s``, the same
    numbers grouped, while the count still picks the plural form.
    """

    def __init__(self, message: Any) -> None:
        self.message = message

    def __mod__(self, params: dict[str, Any]) -> str:
        return str(self.message % {**params, **grouped(params)})

    def __str__(self) -> str:  # only if Django ever renders it without numbers
        return str(self.message)


def grouped_count(message: Any) -> "StrOrPromise":
    """A GroupedCount, typed as the lazy text it stands in for (a field's
    error_messages takes one)."""
    return cast("StrOrPromise", GroupedCount(message))


def grouped(params: dict[str, Any]) -> dict[str, str]:
    def group(number: Any) -> str:
        return formats.number_format(number, force_grouping=True)

    return {"limit": group(params["limit_value"]), "length": group(params["show_value"])}


# A field's error_messages["max_length"] takes this as it is; Django fills in the numbers.
TOO_LONG = grouped_count(
    ngettext_lazy(
        "This can be up to %(limit)s character; it has %(length)s. Please shorten it.",
        "This can be up to %(limit)s characters; it has %(length)s. Please shorten it.",
        "limit_value",
    )
)


def too_long(*, limit: int, length: int) -> str:
    """The length rule's words where no form field is at hand (a draft, a model's check)."""
    return TOO_LONG % {"limit_value": limit, "show_value": length}
