"""The API's settings (Django REST framework, knox tokens, the OpenAPI schema), read by
practice.settings; apart so the project's settings stay one screen of deployment choices."""

import datetime as dt

from practice.env import env_int, env_rate

# Token first, so a caller with neither is told 401 with "WWW-Authenticate: Token".
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["practice.api.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "practice.api.errors.api_exception_handler",
    "NON_FIELD_ERRORS_KEY": "__all__",
    "DEFAULT_PAGINATION_CLASS": "practice.api.pagination.BoundedPagination",
    "DEFAULT_THROTTLE_CLASSES": [
        "practice.api.throttling.PerUserThrottle",
        "practice.api.throttling.PerAddressThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user": env_rate("API_RATE_PER_USER", "120/min"),
        "address": env_rate("API_RATE_PER_ADDRESS", "600/min"),
        "token-sign-in": env_rate("API_RATE_TOKEN_SIGN_IN", "30/min"),
    },
}
REST_KNOX = {
    "TOKEN_TTL": dt.timedelta(hours=env_int("API_TOKEN_HOURS", 10, minimum=1)),
    "AUTO_REFRESH": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Practice companion API",
    "DESCRIPTION": (
        "Homework between sessions: the same operations and permissions as the admin and "
        "the portal.\n\n"
        "**Errors** always have one shape: "
        '`{"code": "...", "detail": "a sentence", "errors": {"field": ["message"]}}`; '
        "`errors` names each field to blame (`response.body_distress`), `__all__` the "
        "whole body. Another person's record is a 404, never a 403. Unknown or read-only "
        "fields in a body are refused (400), each named.\n\n"
        "**Lists** come a page at a time: `page` and `page_size` (1 to 100; anything else "
        "is a 400, not quietly changed).\n\n"
        "**Writes**: a read returns an `ETag`; PATCH and PUT need it back as `If-Match` "
        "(none: 428; stale: 412, and nothing changes). A POST may carry an "
        "`Idempotency-Key`: sent again with the same body it returns the first answer "
        "(`Idempotent-Replayed: true`) and writes nothing twice; with another body, 422. "
        "Bodies are JSON (else 415), at most 5.8 MB (else 413). Too many requests: 429."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    "SERVE_AUTHENTICATION": [
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # Shared devices: a token typed into the docs page is never kept.
    "SWAGGER_UI_SETTINGS": {"persistAuthorization": False},
    "ENUM_NAME_OVERRIDES": {
        "AssignmentStatusEnum": "homework.models.Assignment.Status",
        "EntryStatusEnum": "homework.models.Entry.Status",
        "SafeHoursWhenEnum": ["any", "between", "never"],
    },
}
