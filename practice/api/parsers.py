"""JSON bodies, bounded: DRF reads the stream itself, past DATA_UPLOAD_MAX_MEMORY_SIZE."""

import io
import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from practice.api.errors import RequestTooLarge

NOT_TEXT = _("The body holds a string that is not valid text (a lone surrogate).")


class BoundedJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = settings.API_MAX_BODY_BYTES
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and str(declared).isdigit() and int(declared) > limit:
            raise RequestTooLarge
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise RequestTooLarge
        data = super().parse(io.BytesIO(body), media_type, parser_context)
        try:
            # A lone surrogate ("\\ud800") is no text: it could be neither stored nor sent back.
            json.dumps(data, ensure_ascii=False).encode()
        except UnicodeEncodeError:
            raise ParseError(NOT_TEXT) from None
        return data
