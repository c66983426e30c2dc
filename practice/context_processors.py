from typing import Any

from django.http import HttpRequest

from practice.selectors import practice_settings


def safety(request: HttpRequest) -> dict[str, Any]:
    """What the portal shell needs on every page: crisis lines and the exit."""
    return {"practice": practice_settings()}
