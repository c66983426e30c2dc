"""``/api/v1/``: every app's routes, and a JSON 404 for any other path under it."""

from django.http import HttpRequest, JsonResponse
from django.urls import re_path
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import NotFound

from clients.api.urls import routes as clients_routes
from homework.api.urls import routes as homework_routes
from practice.api.errors import api_error


# Exempt, as DRF's views are: a POST with a token here is a 404, not "form expired".
@csrf_exempt
def no_such_route(request: HttpRequest, rest: str) -> JsonResponse:
    return JsonResponse(api_error(NotFound()), status=404)


app_name = "api"
urlpatterns = [
    *clients_routes,
    *homework_routes,
    re_path(r"^(?P<rest>.*)$", no_such_route, name="no-such-route"),
]
