"""Clients' part of the REST API (``/api/v1/``), assembled by practice.api.urls."""
