"""Clients' API routes, included by practice.api.urls under ``/api/v1/``."""

from django.urls import URLPattern, path

from clients.api import staff, tokens
from clients.api.contact import MyContactProfile

routes: list[URLPattern] = [
    path("auth/token/", tokens.TokenCreate.as_view(), name="auth-token"),
    path("auth/tokens/", tokens.TokenList.as_view(), name="auth-tokens"),
    path("auth/tokens/<str:token_id>/", tokens.TokenRevoke.as_view(), name="auth-token-revoke"),
    # the client's own
    path("me/contact-profile/", MyContactProfile.as_view(), name="my-contact-profile"),
    # staff
    path("clients/", staff.ClientList.as_view(), name="clients"),
    path("clients/<int:client_id>/", staff.ClientDetail.as_view(), name="client"),
    path(
        "clients/<int:client_id>/sessions/", staff.ClientSessions.as_view(), name="client-sessions"
    ),
    path("access-log/", staff.AccessLog.as_view(), name="access-log"),
]
