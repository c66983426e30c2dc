"""How a field past its limit is said, in the portal and the admin alike."""

from typing import TYPE_CHECKING, Any, cast

from django.utils import formats
from django.utils.functional import Promise, lazy
from django.utils.translation import ngettext, ngettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class GroupedCount(Promise):
    """A counted message whose numbers read as the language writes them."""

    def __init__(self, message: Any) -> None:
        self.message = message

    def __mod__(self, params: dict[str, Any]) -> str:
        return str(self.message % {**params, **grouped(params)})

    def __str__(self) -> str:
        return str(self.message)


def grouped_count(message: Any) -> "StrOrPromise":
    return cast("StrOrPromise", GroupedCount(message))


def grouped(params: dict[str, Any]) -> dict[str, str]:
    def group(number: Any) -> str:
        return formats.number_format(number, force_grouping=True)

    return {"limit": group(params["limit_value"]), "length": group(params["show_value"])}


TOO_LONG = grouped_count(
    ngettext_lazy(
        "This can be up to %(limit)s character; it has %(length)s. Please shorten it.",
        "This can be up to %(limit)s characters; it has %(length)s. Please shorten it.",
        "limit_value",
    )
)


def too_long(*, limit: int, length: int) -> str:
    return TOO_LONG % {"limit_value": limit, "show_value": length}


def typed_length(text: str) -> int:
    """As the page counts it while it is typed: a browser posts a line break as two characters."""
    return len(text.replace("\r\n", "\n"))


# Where the page counts as it is typed, its script puts the length here; both sentences are plural
# by the limit alone, so the server chooses the words and the script only fills in the number.
LENGTH_SLOT = "{length}"


def too_long_pattern(limit: int) -> str:
    return str(
        cast(GroupedCount, TOO_LONG).message
        % {"limit_value": limit, "limit": grouped_limit(limit), "length": LENGTH_SLOT}
    )


def count_pattern(limit: int) -> str:
    return ngettext(
        "%(length)s of %(limit)s character", "%(length)s of %(limit)s characters", limit
    ) % {"length": LENGTH_SLOT, "limit": grouped_limit(limit)}


def grouped_limit(limit: int) -> str:
    return formats.number_format(limit, force_grouping=True)


# Rendered in the language of the page, not of the moment the form class was made.
too_long_pattern_lazy = lazy(too_long_pattern, str)
count_pattern_lazy = lazy(count_pattern, str)
