"""A form sent back with what to fix is an answer, not a fault.

The portal and the workspace answer a refused form with 400, on purpose:
the autosave script reads it, and so do the tests. Only a request that is
really bad (hidden fields no page of ours sends, a choice no button makes)
warns in the log; Django would log every 4xx as a "Bad Request" warning.

A view marks the answer it sends back with the form's errors
(``form_refused``); the logging filter below drops Django's warning for that
request's 400, and for nothing else.
"""

import logging
from typing import TypeVar

from django.http import HttpRequest, HttpResponseBase

_MARK = "_practice_form_refused"

ResponseT = TypeVar("ResponseT", bound=HttpResponseBase)


def form_refused(request: HttpRequest, response: ResponseT) -> ResponseT:
    """``response``, if a 400, answers a form the person can fix from what it
    says: not worth a warning in the server's log. Any other answer passes
    unmarked, so a view may hand over whatever it drew."""
    if response.status_code == 400:
        setattr(request, _MARK, True)
    return response


class RefusedFormFilter(logging.Filter):
    """On ``django.request``: drops the "Bad Request" of a marked refusal only
    (its request marked, and the answer a 400)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        marked = request is not None and getattr(request, _MARK, False)
        return not (marked and getattr(record, "status_code", None) == 400)
