"""Cutting a client's words short, between words so a therapist never guesses at half a word. A word
too long for the room is cut inside, never between a letter and its accent or joiner."""

import unicodedata

ELLIPSIS = "…"
LINE_CHARS = 110

ENDS_A_QUESTION = f"?!:.\u061f\uff1f{ELLIPSIS}"

_KEEP_AT_LEAST = 0.5


def shorten(text: object, limit: int = LINE_CHARS) -> str:
    """Runs of spaces and line breaks become single spaces; a cut ends in an ellipsis within
    ``limit``."""
    flat = " ".join(str(text or "").split())
    if len(flat) <= limit:
        return flat
    room = flat[: limit - 1]
    if flat[len(room)] != " ":
        head, space, _part = room.rpartition(" ")
        if space and len(head) >= limit * _KEEP_AT_LEAST:
            room = head
        else:
            while room and _belongs_to_previous(flat[len(room)]):
                room = room[:-1]
    return room.rstrip(" ,;:.-–—\u200d") + ELLIPSIS


def _belongs_to_previous(char: str) -> bool:
    return (
        unicodedata.category(char) in ("Mn", "Mc", "Me")
        or char == "\u200d"
        or "\ufe00" <= char <= "\ufe0f"
    )


def joiner_after(label: str) -> str:
    """A space after the question's own "?" or ":", else ": "."""
    label = label.rstrip()
    return " " if label and label[-1] in ENDS_A_QUESTION else ": "
