"""Posts that arrive after the therapist archived the client: refused, their words kept."""

import logging
from collections.abc import Callable

from django.http import HttpResponse

from clients.decorators import archived_page
from practice.requests import AuthedRequest

logger = logging.getLogger(__name__)


def refused_when_archived(request: AuthedRequest, keep: Callable[[], bool]) -> HttpResponse:
    """Nothing can be sent any more, but the words are the client's and go in their download."""
    try:
        kept = keep()
    except Exception:
        logger.warning("Could not keep a draft sent to an archived client.", exc_info=True)
        kept = False
    return archived_page(request, kept=kept)
