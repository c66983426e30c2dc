"""Checked by models and services alike, so the admin and the API meet the same limits."""

from practice import text_limits

COMMENT_MAX_CHARS = 2000
# A few paragraphs at most: the library's longest are under 500 characters.
INSTRUCTIONS_MAX_CHARS = 5000


def too_long(text: str, *, limit: int) -> str | None:
    length = len(text.strip())
    if length <= limit:
        return None
    return text_limits.too_long(limit=limit, length=length)
