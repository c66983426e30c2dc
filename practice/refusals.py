"""A form sent back with what to fix answers 400 on purpose: no "Bad Request" warning in the log."""

import logging
from typing import TypeVar

from django.http import HttpRequest, HttpResponseBase

_MARK = "_practice_form_refused"

ResponseT = TypeVar("ResponseT", bound=HttpResponseBase)


def form_refused(request: HttpRequest, response: ResponseT) -> ResponseT:
    if response.status_code == 400:
        setattr(request, _MARK, True)
    return response


class RefusedFormFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        marked = request is not None and getattr(request, _MARK, False)
        return not (marked and getattr(record, "status_code", None) == 400)
