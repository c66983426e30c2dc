"""The routes clients/ adds under /api/v1/ (practice's API urls compose them)."""

from django.urls import path

from clients.api import tokens

urlpatterns = [
    path("auth/token/", tokens.TokenCreate.as_view(), name="auth-token"),
    path("auth/tokens/", tokens.TokenList.as_view(), name="auth-tokens"),
    path("auth/tokens/<str:token_id>/", tokens.TokenRevoke.as_view(), name="auth-token-revoke"),
]
