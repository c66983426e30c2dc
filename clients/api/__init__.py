"""Clients' part of the REST API (``/api/v1/``): tokens, the client's own
contact profile, and (for staff) clients, their sessions and the access log.
``urls.routes`` lists its routes; practice.api.urls assembles them with
homework.api's."""
