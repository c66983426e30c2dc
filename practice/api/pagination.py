"""Lists a page at a time; a bad ``page_size`` is refused, never quietly changed."""

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

DEFAULT_PAGE_SIZE = 25
MAX_PAGE_SIZE = 100


class BoundedPagination(PageNumberPagination):
    page_size = DEFAULT_PAGE_SIZE
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE
    page_size_query_description = _(
        "Rows per page, 1 to %(most)s (default %(default)s); anything else is refused."
    ) % {"most": MAX_PAGE_SIZE, "default": DEFAULT_PAGE_SIZE}

    def get_page_size(self, request: Request) -> int:
        asked = request.query_params.get(self.page_size_query_param)
        if asked is None:
            return self.page_size
        if not (
            asked.isascii()
            and asked.isdigit()
            and len(asked) <= 3
            and 1 <= int(asked) <= MAX_PAGE_SIZE
        ):
            raise ValidationError(
                {
                    self.page_size_query_param: [
                        _("Give a whole number from 1 to %(most)s.") % {"most": MAX_PAGE_SIZE}
                    ]
                }
            )
        return int(asked)
