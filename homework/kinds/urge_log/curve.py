"""What the urge curve is drawn from besides each day's pull: the contacts,
and whether urges ease from the first week logged to the last."""

import datetime as dt
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from homework.kinds.fields import stored_datetime
from homework.kinds.urge_log.form import INITIATED_BY, INITIATED_FOR_THERAPIST
from homework.kinds.values import NOT_ANSWERED, JSONDict

if TYPE_CHECKING:
    from homework.models import Entry

TREND_WINDOW_DAYS = 7
# A change smaller than this (on the 0–10 scale) is "about the same".
TREND_THRESHOLD = 1.0


def contact_key(contacts: Sequence[JSONDict]) -> list[str]:
    key = []
    if any(not contact["by_me"] for contact in contacts):
        key.append(_("△ the other person reached out"))
    if any(contact["by_me"] for contact in contacts):
        key.append(_("● the client reached out"))
    return key


def urge_contact(at: dt.datetime, response: JSONDict, *, day: int, zone: dt.tzinfo) -> JSONDict:
    initiated_by = response.get("contact_initiated_by", "")
    return {
        "day": day,
        "on": timezone.localdate(at, zone),
        "by_me": initiated_by == "me",
        "by_label": dict(INITIATED_BY).get(initiated_by, ""),
        "by_for_therapist": INITIATED_FOR_THERAPIST.get(initiated_by, ""),
    }


def urge_at(response: JSONDict) -> dt.datetime | None:
    return stored_datetime(response.get("at"))


def urge_pull(response: JSONDict) -> int | None:
    """A blank is not a 0."""
    value = response.get("intensity")
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def contact_said(response: JSONDict) -> bool | None:
    """None: an entry silent on contact is not "no contact"."""
    if response.get("contact_happened"):
        return True
    if response.get("contact_initiated_by", "") == "none":
        return False
    return None


def contact_answer(response: JSONDict) -> str:
    said = contact_said(response)
    if said:
        by = response.get("contact_initiated_by", "")
        return str(dict(INITIATED_BY).get(by, "")) or _("There was contact")
    if said is False:
        return str(dict(INITIATED_BY)["none"])
    return str(NOT_ANSWERED)


def plain_pull(entry: "Entry") -> int | None:
    return None if entry.score is None else int(entry.score)


def urge_trend(by_day: dict[int, list[int]]) -> JSONDict | None:
    """Mean pull in the first week logged against the last week logged."""
    if not by_day:
        return None
    first, last = min(by_day), max(by_day)
    if last - first < 2 * TREND_WINDOW_DAYS - 1:
        return None
    early = [v for day, values in by_day.items() if day < first + TREND_WINDOW_DAYS for v in values]
    late = [v for day, values in by_day.items() if day > last - TREND_WINDOW_DAYS for v in values]
    early_mean, late_mean = statistics.fmean(early), statistics.fmean(late)
    if late_mean <= early_mean - TREND_THRESHOLD:
        direction = "easing"
    elif late_mean >= early_mean + TREND_THRESHOLD:
        direction = "stronger"
    else:
        direction = "steady"
    return {"direction": direction, "first": round(early_mean, 1), "last": round(late_mean, 1)}


def trend_sentence(trend: JSONDict | None, *, for_client: bool) -> str:
    if trend is None:
        return ""
    # "4,5" in Spanish: a sentence's numbers in the reader's own form.
    numbers = {name: formats.number_format(trend[name], 1) for name in ("first", "last")}
    if for_client:
        sentences = {
            "easing": _(
                "The pull has been easing: on average %(first)s in your first week, %(last)s in the last week."
            ),
            "stronger": _(
                "The pull has been stronger lately (on average %(first)s in your first week, %(last)s in the last). That happens, and it is worth bringing to your next session."
            ),
            "steady": _(
                "The pull has stayed about the same: on average %(first)s in your first week, %(last)s in the last."
            ),
        }
    else:
        sentences = {
            "easing": _(
                "Urges easing: mean %(first)s in the first week logged, %(last)s in the last."
            ),
            "stronger": _(
                "Urges stronger lately: mean %(first)s in the first week logged, %(last)s in the last."
            ),
            "steady": _(
                "Urges about the same: mean %(first)s in the first week logged, %(last)s in the last."
            ),
        }
    return sentences[trend["direction"]] % numbers
