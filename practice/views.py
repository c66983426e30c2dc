from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template import loader
from django.templatetags.static import static
from django.views.decorators.http import require_safe

from practice.models import PracticeSettings
from practice.selectors import practice_settings


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponsePermanentRedirect(static("favicon.svg"))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Django's own page would warn of hijacking and offer no quick exit."""
    return render(request, "403_csrf.html", status=403)


def server_error(request: HttpRequest) -> HttpResponse:
    """Without the usual context: the database may be what failed."""
    try:
        practice = practice_settings()
        exit_url, crisis_lines = practice.quick_exit_url, practice.crisis_lines
    except Exception:  # the page must render whatever broke
        exit_url = PracticeSettings._meta.get_field("quick_exit_url").get_default()
        crisis_lines = []
    page = loader.get_template("500.html").render(
        {"exit_url": exit_url, "crisis_lines": crisis_lines, "csrf_token": get_token(request)}
    )
    return HttpResponse(page, status=500)
