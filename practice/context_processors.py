from typing import Any

from django.conf import settings
from django.http import HttpRequest

from practice.selectors import practice_settings

# The server counts idleness from its last note of activity, which it writes
# at most this often (clients.middleware); the page warns this much earlier.
_IDLE_SLACK_SECONDS = 45


def safety(request: HttpRequest) -> dict[str, Any]:
    """What the portal shell needs on every page: crisis lines, the exit, and
    (for a signed-in client) when an idle session will end."""
    practice = practice_settings()
    context: dict[str, Any] = {"practice": practice}
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and getattr(user, "is_client", False):
        context["portal_idle_seconds"] = max(
            60, practice.idle_timeout_minutes * 60 - _IDLE_SLACK_SECONDS
        )
        context["portal_max_seconds"] = settings.PORTAL_SESSION_MAX_AGE
        context["show_exit_note"] = user.exit_note_dismissed_at is None
    return context
