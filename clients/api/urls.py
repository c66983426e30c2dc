"""Clients' API routes, included by practice.api.urls under ``/api/v1/``."""

from django.urls import URLPattern

routes: list[URLPattern] = []
