"""When two wordings of a question, or two saves of an answer, are the
same; and which wording an answer was given to."""

import hashlib
from typing import Any

from homework.kinds.values import JSONDict


def wording_of(text: str) -> str:
    """Words as a reader tells them apart: case and spacing aside. The one
    rule for when two wordings of a question are the same question."""
    return " ".join(text.split()).casefold()


def question_wording(question: Any) -> str:
    text = question.get("text") if isinstance(question, dict) else None
    return wording_of(text) if isinstance(text, str) else ""


def wording_mark(question: Any) -> str:
    """A short mark of how a question reads (type and words, case and
    spacing aside): the portal page carries it for each question it shows,
    so a save says which wording was on screen without sending words the
    server would have to trust."""
    kind = question.get("type") if isinstance(question, dict) else None
    made = f"{kind}|{question_wording(question)}"
    return hashlib.sha256(made.encode()).hexdigest()[:12]


def worded(question: JSONDict) -> JSONDict:
    """What an answer needs of its question to be read: its type, its
    wording and its choices. Kept of questions no longer asked (``_earlier``),
    and with each entry as the client was asked (``wording_answered``)."""
    return {name: question[name] for name in ("type", "text", "choices") if name in question}


def wording_answered(*, now: JSONDict | None, kept: Any, changed: bool) -> JSONDict | None:
    """The wording an answer was given to, to keep with the entry
    (Entry.asked): the one on screen when the client last changed it.

    The form sends every answer on the page with each save, so a save after
    the therapist rewords a question carries answers the client never
    touched: those still answer the words they read when they gave them
    (``kept``), and the therapist must not read them under words the client
    never saw. A changed or new answer answers the question as asked
    ``now``. An answer whose question is no longer asked was not changed on
    this form (merge_edit kept it) and keeps what it was given to.

    An untouched answer with nothing kept (an entry saved before wordings
    were kept) gets none: what it answered is not known, and it reads as
    the form asks now, as it always did. None when nothing is to be kept.
    """
    if isinstance(kept, dict) and (not changed or now is None):
        return kept
    if changed and now is not None:
        return worded(now)
    return None


def same_answer(one: Any, other: Any) -> bool:
    """Whether two saves of an answer say the same. A draft keeps what was
    typed ("7", "a walk "), a sent entry the value read from it (7, "a
    walk"): sending a draft unchanged is not changing its answers."""
    return _answer_as_read(one) == _answer_as_read(other)


def _answer_as_read(value: Any) -> str | list[str]:
    if isinstance(value, list):  # ticked choices: which, not in what order
        return sorted(str(_answer_as_read(item)) for item in value)
    if value is None:
        return ""
    return str(value).replace("\r\n", "\n").strip()


def same_wording(one: JSONDict, other: JSONDict) -> bool:
    """Whether two versions of a question read alike (case and spacing aside)."""
    return question_wording(one) == question_wording(other)
