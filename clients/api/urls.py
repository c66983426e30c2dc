"""Clients' API routes, included by practice.api.urls under ``/api/v1/``."""

from django.urls import URLPattern, path

from clients.api.contact import MyContactProfile

routes: list[URLPattern] = [
    path("me/contact-profile/", MyContactProfile.as_view(), name="my-contact-profile"),
]
