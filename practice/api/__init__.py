"""What every route of the REST API (``/api/v1/``) shares, whichever app owns it.

One error shape (``errors``), bounded pages (``pagination``), ``ETag`` and
``If-Match`` (``preconditions``), ``Idempotency-Key`` (``idempotency``), a
body size bound (``parsers``) and throttles (``throttling``). The routes
themselves live beside their app (``clients.api``, ``homework.api``) and are
assembled in ``practice.api.urls``.
"""
