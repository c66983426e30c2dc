"""Clients' API routes, included by practice.api.urls under ``/api/v1/``."""

from django.urls import URLPattern, path

from clients.api import tokens

routes: list[URLPattern] = [
    path("auth/token/", tokens.TokenCreate.as_view(), name="auth-token"),
    path("auth/tokens/", tokens.TokenList.as_view(), name="auth-tokens"),
    path("auth/tokens/<str:token_id>/", tokens.TokenRevoke.as_view(), name="auth-token-revoke"),
]
