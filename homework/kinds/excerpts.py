"""Cutting a client's words short: a line in a list, a flag, a chart label.

The cut falls between words, so a therapist never reads half a word
("brea…") and has to guess the rest. Only a word too long to fit the room (a
link, or a language written without spaces) is cut inside itself, and then
never between a letter and the accent or joiner that belongs to it.
"""

import unicodedata

ELLIPSIS = "…"
# One line a therapist scans: the admin's entry list, a flag on the summary's first page.
LINE_CHARS = 110

# What a question's wording may end on before what follows it comes after a
# space alone ("…feel? 8 / 10"); otherwise a colon goes between. Arabic's
# and the full-width question marks included, and a cut's ellipsis.
ENDS_A_QUESTION = f"?!:.\u061f\uff1f{ELLIPSIS}"

# A cut may drop the last word when at least this share of the room is kept;
# otherwise the word is too long to drop and is cut inside.
_KEEP_AT_LEAST = 0.5


def shorten(text: object, limit: int = LINE_CHARS) -> str:
    """``text`` on one line (runs of spaces and line breaks made single
    spaces), and if longer than ``limit`` characters, cut to at most that
    many, the last of them an ellipsis."""
    flat = " ".join(str(text or "").split())
    if len(flat) <= limit:
        return flat
    room = flat[: limit - 1]
    if flat[len(room)] != " ":  # the cut falls inside a word
        head, space, _part = room.rpartition(" ")
        if space and len(head) >= limit * _KEEP_AT_LEAST:
            room = head
        else:
            while room and _belongs_to_previous(flat[len(room)]):
                room = room[:-1]
    return room.rstrip(" ,;:.-–—\u200d") + ELLIPSIS


def _belongs_to_previous(char: str) -> bool:
    """An accent, a joiner or a variation selector, drawn with the character before it."""
    return (
        unicodedata.category(char) in ("Mn", "Mc", "Me")
        or char == "\u200d"
        or "\ufe00" <= char <= "\ufe0f"
    )


def joiner_after(label: str) -> str:
    """What goes between a question (or a label) and what follows it on the
    same line: a space after its own "?" or ":" ("What set it off? Choose…"),
    else ": " ("Step 1: The boundary, in your own words: Write…")."""
    label = label.rstrip()
    return " " if label and label[-1] in ENDS_A_QUESTION else ": "
