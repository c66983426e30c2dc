"""A score's subscales as written on the exercise: each a named set of the scored questions, summed
and multiplied by 1 or 2 (the DASS-21 doubles its scales), with its own bands, cutoff and reliable
change. No question counts in two subscales: a published scale's items are its own."""

import re
from typing import Any

from django.utils.translation import gettext as _

from homework.kinds.values import JSONDict
from homework.kinds.worksheet.published import LOINC_ROLES, clean_bands, clean_spread, most_points

SUBSCALE_FIELDS = {
    "key",
    "label",
    "items",
    "multiplier",
    "bands",
    "cutoff",
    "reliable_change",
    "reliability",
    "sd",
}
KEY = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
MULTIPLIERS = (1, 2)
MAX_SUBSCALES = 10


def clean_subscales(
    subscales: Any, questions: list[JSONDict], problems: list[str]
) -> list[JSONDict]:
    if not isinstance(subscales, list) or not 1 <= len(subscales) <= MAX_SUBSCALES:
        problems.append(
            _(
                "The score’s “subscales” are a list of up to %(n)s objects, each with a “key”, "
                "a “label” and its “items”."
            )
            % {"n": MAX_SUBSCALES}
        )
        return []
    scored = {str(q.get("key")): q for q in questions if q.get("scored")}
    every = {str(q.get("key")) for q in questions}
    counted_in: dict[str, str] = {}
    keys: list[str] = []
    cleaned = []
    for number, subscale in enumerate(subscales, start=1):
        if not isinstance(subscale, dict):
            problems.append(_("Subscale %(n)s: write it as an object.") % {"n": number})
            continue
        key = subscale.get("key")
        name = str(key)[:40] if isinstance(key, str) else str(number)
        where = _("Subscale “%(key)s”: ") % {"key": name}
        for field in sorted(set(subscale) - SUBSCALE_FIELDS):
            problems.append(
                where
                + _("“%(field)s” is not something a subscale can have.")
                % {"field": str(field)[:40]}
            )
        if not (isinstance(key, str) and KEY.match(key)) or key in LOINC_ROLES:
            problems.append(
                where
                + _(
                    "its key is lower-case letters, digits and _, starting with a letter, and "
                    "not “total” or “panel”."
                )
            )
        elif key in keys:
            problems.append(where + _("two subscales share this key; each needs its own."))
        keys.append(str(key))
        label = subscale.get("label")
        if not isinstance(label, str) or not label.strip() or len(label) > 80:
            problems.append(where + _("its “label” is a short text, such as “Depression”."))
        items = subscale.get("items")
        if not isinstance(items, list) or not items:
            problems.append(where + _("its “items” list the keys of the questions it adds up."))
            items = []
        for item in items:
            if not isinstance(item, str) or item not in every:
                problems.append(
                    where
                    + _("“%(item)s” is not one of this worksheet's questions.")
                    % {"item": str(item)[:40]}
                )
            elif item not in scored:
                problems.append(
                    where
                    + _("“%(item)s” is not a scored question, so it adds nothing.") % {"item": item}
                )
            elif item in counted_in:
                problems.append(
                    where
                    + _(
                        "“%(item)s” is already in subscale “%(other)s”: a question counts in one "
                        "subscale only."
                    )
                    % {"item": item, "other": counted_in[item]}
                )
            else:
                counted_in[item] = name
        multiplier = subscale.get("multiplier", 1)
        if multiplier not in MULTIPLIERS or isinstance(multiplier, bool):
            problems.append(
                where + _("its “multiplier” is 1 or 2 (the DASS-21 doubles each scale).")
            )
            multiplier = 1
        highest = multiplier * sum(most_points(scored[i]) for i in items if i in scored)
        kept: JSONDict = {
            "key": key,
            "label": label,
            "items": list(items),
        }
        if "multiplier" in subscale:
            kept["multiplier"] = subscale["multiplier"]
        if "bands" in subscale:
            whose = _("Subscale “%(key)s”: its") % {"key": name}
            kept["bands"] = clean_bands(subscale["bands"], "sum", highest, problems, whose=whose)
        kept.update(clean_spread(subscale, highest, where, problems))
        cleaned.append(kept)
    return cleaned
