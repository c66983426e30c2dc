"""``/api/v1/``: every app's routes, in one namespace ("api:...")."""

from clients.api.urls import routes as clients_routes
from homework.api.urls import routes as homework_routes

app_name = "api"
urlpatterns = [*clients_routes, *homework_routes]
