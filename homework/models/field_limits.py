"""How long homework's own fields may be: a therapist's comment, an
exercise's or an assignment's instructions.

Held by the models' and services' checks, so the admin's forms and any
other caller (the API) meet the same limit. The words said when a limit is
passed are not here but in the base (practice.text_limits), one message
for homework, clients and the portal alike.
"""

from practice import text_limits

COMMENT_MAX_CHARS = 2000
# Instructions a client reads before starting: a few paragraphs at most.
# The library's longest (homework/library/) are under 500 characters.
INSTRUCTIONS_MAX_CHARS = 5000


def too_long(text: str, *, limit: int) -> str | None:
    """What to say if ``text`` (its ends trimmed) is longer than ``limit``; None if it fits."""
    length = len(text.strip())
    if length <= limit:
        return None
    return text_limits.too_long(limit=limit, length=length)
