"""How long the practice's own words may be: a therapist's comment, an
exercise's or an assignment's instructions. One rule, said one way.

Held by the models' and services' checks, so the admin's forms and any
other caller (the API) meet the same limit in the same words.
"""

from django.utils.translation import ngettext

COMMENT_MAX_CHARS = 2000
# Instructions a client reads before starting: a few paragraphs at most.
# The library's longest (homework/library.py) are under 500 characters.
INSTRUCTIONS_MAX_CHARS = 5000


def too_long(text: str, *, limit: int) -> str | None:
    """What to say if ``text`` (its ends trimmed) is longer than ``limit``; None if it fits."""
    length = len(text.strip())
    if length <= limit:
        return None
    return ngettext(
        "Keep it under %(limit)s character (this one has %(count)s).",
        "Keep it under %(limit)s characters (this one has %(count)s).",
        limit,
    ) % {"limit": limit, "count": length}
