from typing import Any

from django.conf import settings
from django.http import HttpRequest

from practice.selectors import practice_settings

# The page clears itself this long after the server's idle deadline. The
# server's last note of activity is never later than the page's (it writes it
# at most every half minute, clients.middleware), so by then the session has
# surely ended, and the page's move to the sign-in page finds it gone. Were
# the page to clear first, that very request would count as activity and
# renew the session it meant to end (a tab left open would never sign out).
_CLEAR_AFTER_SECONDS = 10


def safety(request: HttpRequest) -> dict[str, Any]:
    """What the portal shell needs on every page: crisis lines, the exit, and
    (for a signed-in client) when an idle session will end."""
    practice = practice_settings()
    context: dict[str, Any] = {"practice": practice}
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and getattr(user, "is_client", False):
        context["portal_idle_seconds"] = practice.idle_timeout_minutes * 60 + _CLEAR_AFTER_SECONDS
        context["portal_max_seconds"] = settings.PORTAL_SESSION_MAX_AGE
        context["show_exit_note"] = user.exit_note_dismissed_at is None
    return context
