"""Clients' part of the REST API (``/api/v1/``): the client's own contact
profile, and (for staff) clients and their sessions. ``urls.routes`` lists
its routes; practice.api.urls assembles them with homework.api's."""
