"""When two wordings of a question, or two saves of an answer, are the same; and which wording an
answer was given to."""

import hashlib
from typing import Any

from homework.kinds.values import JSONDict


def wording_of(text: str) -> str:
    """The one rule for when two wordings are the same question: case and spacing aside."""
    return " ".join(text.split()).casefold()


def question_wording(question: Any) -> str:
    text = question.get("text") if isinstance(question, dict) else None
    return wording_of(text) if isinstance(text, str) else ""


def wording_mark(question: Any) -> str:
    """The page sends a mark of the wording on screen rather than words the server would have to
    trust."""
    kind = question.get("type") if isinstance(question, dict) else None
    made = f"{kind}|{question_wording(question)}"
    return hashlib.sha256(made.encode()).hexdigest()[:12]


def worded(question: JSONDict) -> JSONDict:
    return {name: question[name] for name in ("type", "text", "choices") if name in question}


def wording_answered(*, now: JSONDict | None, kept: Any, changed: bool) -> JSONDict | None:
    """An untouched answer still answers the words the client read when they gave it (``kept``),
    never words they did not see; a changed one answers the question as asked ``now``. None when
    nothing is to be kept."""
    if isinstance(kept, dict) and (not changed or now is None):
        return kept
    if changed and now is not None:
        return worded(now)
    return None


def same_answer(one: Any, other: Any) -> bool:
    """Sending a draft unchanged is not changing its answers, though it kept what was typed."""
    return _answer_as_read(one) == _answer_as_read(other)


def _answer_as_read(value: Any) -> str | list[str]:
    if isinstance(value, list):  # ticked choices: which, not in what order
        return sorted(str(_answer_as_read(item)) for item in value)
    if value is None:
        return ""
    return str(value).replace("\r\n", "\n").strip()


def same_wording(one: JSONDict, other: JSONDict) -> bool:
    return question_wording(one) == question_wording(other)
