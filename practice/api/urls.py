"""``/api/v1/``: every app's routes, in one namespace ("api:..."), and a
JSON 404 for any other path under it (not the site's HTML page)."""

from django.http import HttpRequest, JsonResponse
from django.urls import re_path
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import NotFound

from clients.api.urls import routes as clients_routes
from homework.api.urls import routes as homework_routes
from practice.api.errors import api_error


# Exempt, as DRF's views are: a POST here with a token but no CSRF cookie
# is a 404, not the site's "form expired" page.
@csrf_exempt
def no_such_route(request: HttpRequest, rest: str) -> JsonResponse:
    """The API's error shape for a path it does not have, whoever asks."""
    return JsonResponse(api_error(NotFound()), status=404)


app_name = "api"
urlpatterns = [
    *clients_routes,
    *homework_routes,
    re_path(r"^(?P<rest>.*)$", no_such_route, name="no-such-route"),
]
