from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.http import require_GET


@require_GET
def crisis(request: HttpRequest) -> HttpResponse:
    """Crisis resources: public, so they are there even when signed out."""
    return render(request, "practice/crisis.html")


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico; the neutral icon lives with the static files."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))
