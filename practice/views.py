from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def crisis(request: HttpRequest) -> HttpResponse:
    """Crisis resources: public, so they are there even when signed out."""
    return render(request, "practice/crisis.html")
