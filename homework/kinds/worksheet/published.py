"""The published figures a score (or one of its subscales) is read by: its bands, its cutoff, its
reliable change, or the reliability and standard deviation the Jacobson–Truax index is worked from;
and where it comes from (source, terms of use, LOINC codes). Each is optional; each, when given, is
checked against the scale it belongs to."""

import re
from typing import Any, TypeGuard

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from homework.kinds.values import JSONDict
from homework.kinds.worksheet.watching import whole_number

MAX_BANDS = 10
MAX_CITATION = 400
LOINC_CODE = re.compile(r"^[0-9]{1,7}-[0-9]$")
LOINC_ROLES = ("total", "panel")


def most_points(question: JSONDict) -> int:
    points = question.get("points")
    if isinstance(points, list) and points:
        return max(int(p) for p in points)
    return 10


def is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def clean_spread(rule: JSONDict, highest: float, where: str, problems: list[str]) -> JSONDict:
    """The cutoff, reliable change, reliability and sd of a score whose top is ``highest``.
    ``where`` begins each problem ("The score: ", "Subscale “depression”: ")."""
    cleaned: JSONDict = {}
    cutoff = rule.get("cutoff")
    if cutoff is not None:
        if not (is_number(cutoff) and 0 < cutoff <= highest):
            problems.append(
                where
                + _(
                    "the “cutoff” is a number on the score, above 0 and at most %(highest)s "
                    "(the highest it can be)."
                )
                % {"highest": f"{highest:g}"}
            )
        cleaned["cutoff"] = cutoff
    change = rule.get("reliable_change")
    if change is not None:
        if not (is_number(change) and 0 < change <= highest):
            problems.append(
                where
                + _(
                    "the “reliable_change” is the points a score must move by, above 0 and at "
                    "most %(highest)s."
                )
                % {"highest": f"{highest:g}"}
            )
        cleaned["reliable_change"] = change
    reliability, sd = rule.get("reliability"), rule.get("sd")
    if reliability is not None or sd is not None:
        if reliability is None or sd is None:
            problems.append(
                where
                + _("“reliability” and “sd” go together: the Jacobson–Truax index needs both.")
            )
        if reliability is not None and not (is_number(reliability) and 0 < reliability < 1):
            problems.append(
                where + _("the “reliability” is a coefficient between 0 and 1, such as 0.84.")
            )
        if sd is not None and not (is_number(sd) and 0 < sd <= highest):
            problems.append(
                where
                + _(
                    "the “sd” is the published standard deviation, above 0 and at most %(highest)s."
                )
                % {"highest": f"{highest:g}"}
            )
        cleaned.update(
            {
                name: value
                for name, value in (("reliability", reliability), ("sd", sd))
                if value is not None
            }
        )
    return cleaned


def clean_published(rule: JSONDict, subscales: list[JSONDict], problems: list[str]) -> JSONDict:
    """Source and terms are short texts; LOINC codes name the total, the panel or a subscale."""
    cleaned: JSONDict = {}
    for name in ("source", "terms"):
        if name not in rule:
            continue
        value = rule[name]
        if not isinstance(value, str) or not value.strip() or len(value) > MAX_CITATION:
            problems.append(
                ngettext(
                    "The score’s “%(name)s” is a text of up to %(n)s character.",
                    "The score’s “%(name)s” is a text of up to %(n)s characters.",
                    MAX_CITATION,
                )
                % {"name": name, "n": MAX_CITATION}
            )
        cleaned[name] = value
    if "loinc" in rule:
        cleaned["loinc"] = _clean_loinc(rule["loinc"], subscales, problems)
    return cleaned


def _clean_loinc(codes: Any, subscales: list[JSONDict], problems: list[str]) -> JSONDict:
    roles = [*LOINC_ROLES, *(str(s.get("key")) for s in subscales)]
    if not isinstance(codes, dict) or not codes:
        problems.append(
            _("The score’s “loinc” is an object naming a code for %(roles)s.")
            % {"roles": ", ".join(roles)}
        )
        return {}
    for role, code in codes.items():
        if role not in roles:
            problems.append(
                _("“%(role)s” in “loinc” is neither the total, the panel nor a subscale's key.")
                % {"role": str(role)[:40]}
            )
        elif not (isinstance(code, str) and LOINC_CODE.match(code) and _check_digit_holds(code)):
            problems.append(
                _("“%(code)s” is not a LOINC code (digits, a hyphen and its check digit).")
                % {"code": str(code)[:20]}
            )
    return dict(codes)


def _check_digit_holds(code: str) -> bool:
    """LOINC's mod-10 check digit (Luhn's): a mistyped code is refused rather than exported."""
    number, check = code.split("-")
    total = 0
    for place, digit in enumerate(reversed(number)):
        value = int(digit) * (2 if place % 2 == 0 else 1)
        total += value - 9 if value > 9 else value
    return (10 - total % 10) % 10 == int(check)


def clean_bands(
    bands: Any, method: Any, highest: int, problems: list[str], *, whose: str = ""
) -> list[JSONDict]:
    """Whole-number ranges from 0 to the highest score with no gap or overlap, so every score falls
    in exactly one."""
    message = _(
        "%(whose)s “bands” are a list of {“from”, “to”, “label”} running from 0 to "
        "%(highest)s without gaps, each a range of whole numbers, for a summed score."
    ) % {"whose": whose or _("The score’s"), "highest": highest}
    if method != "sum" or not isinstance(bands, list) or not 1 <= len(bands) <= MAX_BANDS:
        problems.append(message)
        return []
    expected = 0
    for band in bands:
        if (
            not isinstance(band, dict)
            or set(band) != {"from", "to", "label"}
            or not (whole_number(band["from"]) and whole_number(band["to"]))
            or band["from"] != expected
            or band["to"] < band["from"]
            or not isinstance(band["label"], str)
            or not band["label"].strip()
            or len(band["label"]) > 80
        ):
            problems.append(message)
            return []
        expected = band["to"] + 1
    if expected != highest + 1:
        problems.append(message)
        return []
    return [dict(band) for band in bands]
