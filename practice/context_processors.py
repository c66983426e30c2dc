from typing import Any

from django.conf import settings
from django.http import HttpRequest

from practice.selectors import practice_settings

# The page clears after the server's idle deadline: clearing first would renew the session.
_CLEAR_AFTER_SECONDS = 10


def safety(request: HttpRequest) -> dict[str, Any]:
    practice = practice_settings()
    context: dict[str, Any] = {"practice": practice}
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and getattr(user, "is_client", False):
        context["portal_idle_seconds"] = practice.idle_timeout_minutes * 60 + _CLEAR_AFTER_SECONDS
        context["portal_max_seconds"] = settings.PORTAL_SESSION_MAX_AGE
        context["show_exit_note"] = user.exit_note_dismissed_at is None
    return context
