"""Homework's API routes, included by practice.api.urls under ``/api/v1/``."""

from django.urls import URLPattern, path

from homework.api.summary import ClientSummaryPdf

routes: list[URLPattern] = [
    path(
        "clients/<int:client_id>/summary.pdf",
        ClientSummaryPdf.as_view(),
        name="client-summary",
    ),
]
