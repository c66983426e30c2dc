"""A worksheet's questions, as the therapist writes them on the exercise. Every problem is reported
under "options", naming its question; saved questions get stable keys so answers stay attached when
the wording is edited."""

import hashlib
import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from homework.kinds.excerpts import shorten
from homework.kinds.values import JSONDict, ResponseInvalid
from homework.kinds.worksheet.score_options import clean_score
from homework.kinds.worksheet.watching import REVIEW_FIELDS, clean_review_rule, whole_number
from homework.kinds.worksheet.wording import question_wording, same_wording, worded, wording_mark
from practice.bidi import isolated_text

QUESTION_TYPES = [
    "short_text",
    "long_text",
    "scale_0_10",
    "single_choice",
    "multiple_choice",
    "yes_no",
    "date",
]
YES_NO = [("yes", gettext_lazy("Yes")), ("no", gettext_lazy("No"))]
QUESTION_FIELDS = {
    "key",
    "type",
    "text",
    "help",
    "required",
    "choices",
    "low",
    "high",
    "scored",
    "reverse",
    "points",
    *REVIEW_FIELDS,
    "skip_if_yes",
}
KEY = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MAX_QUESTIONS = 40
MAX_CHOICES = 20
MAX_TEXT = 300
# Bounded so options stay small.
MAX_WORDINGS_KEPT = 20


def clean_worksheet_options(options: Any, *, saved: Any = None) -> JSONDict:
    """``saved`` is what the exercise holds now (None for a new one)."""
    problems: list[str] = []
    if not isinstance(options, dict) or not options:
        raise ResponseInvalid(
            {
                "options": [
                    _("A worksheet needs its questions: an object with a list called “questions”.")
                ]
            }
        )
    unknown = sorted(set(options) - {"questions", "score", "earlier", "worded_before"})
    if unknown:
        problems.append(
            _("“%(name)s” is not a worksheet option. Use “questions” and, for a check-in, “score”.")
            % {"name": unknown[0]}
        )
    questions = options.get("questions")
    if not isinstance(questions, list) or not questions:
        problems.append(_("A worksheet needs at least one question."))
        raise ResponseInvalid({"options": problems})
    if len(questions) > MAX_QUESTIONS:
        problems.append(
            ngettext(
                "A worksheet can have up to %(n)s question.",
                "A worksheet can have up to %(n)s questions.",
                MAX_QUESTIONS,
            )
            % {"n": MAX_QUESTIONS}
        )
        raise ResponseInvalid({"options": problems})
    cleaned = [_clean_question(number, q, problems) for number, q in enumerate(questions, start=1)]
    _refuse_same_wording(cleaned, problems, _saved_as(saved))
    asked_before = _asked_before(saved)
    for question in cleaned:
        before = asked_before.get(str(question.get("key")))
        if question and before is not None and before.get("type") != question.get("type"):
            # Another type is another question: old answers keep the old key rather than reading
            # wrongly under the new type.
            question["key"] = None
    _give_keys(cleaned, problems)
    _check_skips(cleaned, problems)
    result: JSONDict = {"questions": cleaned}
    score = clean_score(options.get("score"), cleaned, problems)
    if score is not None:
        result["score"] = score
    earlier = _earlier(asked_before, cleaned)
    if earlier:
        result["earlier"] = earlier
    worded_before = _worded_before(saved, cleaned)
    if worded_before:
        result["worded_before"] = worded_before
    if problems:
        raise ResponseInvalid({"options": problems})
    return result


def _clean_question(number: int, question: Any, problems: list[str]) -> JSONDict:
    def problem(message: str, **values: Any) -> None:
        problems.append(_("Question %(n)s: ") % {"n": number} + message % values)

    if not isinstance(question, dict):
        problem(_("write it as an object with a “type” and a “text”."))
        return {}
    for name in sorted(set(question) - QUESTION_FIELDS):
        problem(_("“%(name)s” is not something a question can have."), name=str(name)[:40])
    kind = question.get("type")
    if kind not in QUESTION_TYPES:
        problem(
            _("“%(type)s” is not a question type. Use one of: %(types)s."),
            type=str(kind)[:40],
            types=", ".join(QUESTION_TYPES),
        )
        # JSON may give a list or an object, which cannot be looked up in a set.
        kind = None
    text = question.get("text")
    if not isinstance(text, str) or not text.strip():
        problem(_("the question needs its text."))
    elif len(text) > MAX_TEXT:
        problem(
            ngettext(
                "keep the text under %(n)s character.",
                "keep the text under %(n)s characters.",
                MAX_TEXT,
            ),
            n=MAX_TEXT,
        )
    for name in ("help", "low", "high"):
        value = question.get(name, "")
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            problem(_("“%(name)s” should be a short text."), name=name)
    for name in ("required", "scored", "reverse"):
        if not isinstance(question.get(name, False), bool):
            problem(_("“%(name)s” should be true or false."), name=name)
    if question.get("key") is not None and not (
        isinstance(question["key"], str) and KEY.match(question["key"])
    ):
        problem(_("a key is lower-case letters, digits and _, starting with a letter."))
    choices = question.get("choices")
    if kind in {"single_choice", "multiple_choice"}:
        if (
            not isinstance(choices, list)
            or not 2 <= len(choices) <= MAX_CHOICES
            or not all(isinstance(c, str) and c.strip() and len(c) <= 120 for c in choices)
        ):
            problem(
                ngettext(
                    "give between 2 and %(n)s choice, each a short text.",
                    "give between 2 and %(n)s choices, each a short text.",
                    MAX_CHOICES,
                ),
                n=MAX_CHOICES,
            )
        elif len(set(choices)) != len(choices):
            problem(_("each choice should appear once."))
    elif choices is not None:
        problem(_("only choice questions have choices."))
    points = question.get("points")
    if kind == "single_choice" and question.get("scored"):
        if not (
            isinstance(points, list)
            and isinstance(choices, list)
            and len(points) == len(choices)
            and all(whole_number(p) and 0 <= p <= 100 for p in points)
        ):
            problem(_("a scored choice question gives “points”: a whole number for each choice."))
        if question.get("reverse"):
            problem(_("“reverse” applies only to a scored 0–10 scale."))
    elif points is not None:
        problem(_("only a scored single choice question has “points”."))
    if kind not in ("scale_0_10", "single_choice") and question.get("scored"):
        problem(_("only 0–10 scale and single choice questions can be scored."))
    if kind != "scale_0_10" and (question.get("low") or question.get("high")):
        problem(_("only 0–10 scale questions can have end labels."))
    if question.get("reverse") and not question.get("scored"):
        problem(_("“reverse” applies only to a scored question."))
    watch = clean_review_rule(question, kind, problem)
    skip = question.get("skip_if_yes")
    if skip is not None:
        if not (isinstance(skip, str) and KEY.match(skip) and question.get("scored")):
            problem(_("“skip_if_yes” names the key of a yes/no question, on a scored question."))
        else:
            watch["skip_if_yes"] = skip
    cleaned: JSONDict = {
        "key": question.get("key"),
        "type": kind,
        "text": text.strip() if isinstance(text, str) else "",
        "required": bool(question.get("required", False)),
    }
    for name in ("help", "low", "high"):
        if question.get(name):
            cleaned[name] = question[name]
    if isinstance(choices, list):
        cleaned["choices"] = choices
    if question.get("scored"):
        cleaned["scored"] = True
        cleaned["required"] = True
        if question.get("reverse"):
            cleaned["reverse"] = True
        if isinstance(points, list):
            cleaned["points"] = points
    return {**cleaned, **watch}


def _check_skips(questions: list[JSONDict], problems: list[str]) -> None:
    """A scored question may be left out only after a yes/no question asked before it says so."""
    for number, question in enumerate(questions, start=1):
        skip = question.get("skip_if_yes")
        if not skip:
            continue
        before = [q for q in questions[: number - 1] if q.get("key") == skip]
        if not before or before[0].get("type") != "yes_no":
            problems.append(
                _("Question %(n)s: “%(key)s” is not a yes/no question asked before it.")
                % {"n": number, "key": skip}
            )


def _refuse_same_wording(
    questions: list[JSONDict], problems: list[str], saved_as: set[tuple[str, str]]
) -> None:
    """Two questions worded alike cannot be told apart where answers are read. Questions already
    saved alike may stay so, so an old exercise can still be edited."""
    alike: dict[str, list[tuple[int, JSONDict]]] = {}
    for number, question in enumerate(questions, start=1):
        if wording := question_wording(question):
            alike.setdefault(wording, []).append((number, question))
    pairs: set[tuple[int, int]] = set()
    for wording, group in alike.items():
        for number, question in group:
            if len(group) > 1 and (question.get("key"), wording) not in saved_as:
                other = next(n for n, _q in group if n != number)
                pairs.add((min(number, other), max(number, other)))
    for first, number in sorted(pairs, key=lambda pair: (pair[1], pair[0])):
        problems.append(
            _(
                "Questions %(first)s and %(n)s both read “%(text)s”: word them differently, "
                "so that you and the client can tell their answers apart."
            )
            % {
                "first": first,
                "n": number,
                "text": isolated_text(shorten(questions[first - 1]["text"], 80)),
            }
        )


def _saved_as(saved: Any) -> set[tuple[str, str]]:
    questions = saved.get("questions") if isinstance(saved, dict) else None
    if not isinstance(questions, list):
        return set()
    return {
        (question["key"], question_wording(question))
        for question in questions
        if isinstance(question, dict) and isinstance(question.get("key"), str)
    }


def _asked_before(saved: Any) -> dict[str, JSONDict]:
    """The latest wording wins."""
    if not isinstance(saved, dict):
        return {}
    found: dict[str, JSONDict] = {}
    earlier = saved.get("earlier")
    if isinstance(earlier, dict):
        found.update(
            (key, question)
            for key, question in earlier.items()
            if isinstance(key, str) and isinstance(question, dict)
        )
    questions = saved.get("questions")
    if isinstance(questions, list):
        found.update(
            (question["key"], question)
            for question in questions
            if isinstance(question, dict) and isinstance(question.get("key"), str)
        )
    return found


def _earlier(asked_before: dict[str, JSONDict], questions: list[JSONDict]) -> JSONDict:
    """Questions no longer asked, as last worded, so answers already given never lose their
    question. Kept from what was saved, never from what was sent."""
    asked = {question.get("key") for question in questions}
    return {key: worded(question) for key, question in asked_before.items() if key not in asked}


def _worded_before(saved: Any, questions: list[JSONDict]) -> JSONDict:
    """An answer from a tab loaded before a rewording answers the older words. Kept from what was
    saved, never from what was sent."""
    if not isinstance(saved, dict):
        return {}
    kept: dict[str, list[JSONDict]] = {}
    before = saved.get("worded_before")
    if isinstance(before, dict):
        for key, wordings in before.items():
            if isinstance(key, str) and isinstance(wordings, list):
                kept[key] = [w for w in wordings if isinstance(w, dict)]
    now = {question.get("key"): question for question in questions}
    for key, question in _asked_before(saved).items():
        same_question = key in now and now[key].get("type") == question.get("type")
        if same_question and not same_wording(now[key], question):
            kept.setdefault(key, []).append(worded(question))
    result: JSONDict = {}
    for key, wordings in kept.items():
        unique: dict[str, JSONDict] = {}
        for wording in wordings:
            unique.pop(wording_mark(wording), None)
            unique[wording_mark(wording)] = wording
        if unique:
            result[key] = list(unique.values())[-MAX_WORDINGS_KEPT:]
    return result


def _give_keys(questions: list[JSONDict], problems: list[str]) -> None:
    """Not a number from its place in the list, which would attach old answers to a new question;
    the same question added back gets its old key and answers."""
    taken: list[str] = [str(q["key"]) for q in questions if q.get("key")]
    duplicates = sorted({key for key in taken if taken.count(key) > 1})
    if duplicates:
        problems.append(
            _("Two questions share the key “%(key)s”; each needs its own.") % {"key": duplicates[0]}
        )
    for question in questions:
        if question and not question.get("key"):
            made = f"{question.get('type')}|{' '.join(str(question.get('text')).split())}"
            digest = hashlib.sha256(made.encode()).hexdigest()
            key, extra = f"q_{digest[:10]}", 0
            while key in taken:
                extra += 1
                key = f"q_{digest[:10]}_{extra}"
            question["key"] = key
            taken.append(key)
