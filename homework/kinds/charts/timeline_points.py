"""What the timeline shows: a point on one of the client's days, in a lane."""

import datetime as dt
import enum
from dataclasses import dataclass

from django.utils.translation import gettext_lazy


class Lane(enum.Enum):
    RECORD = "record"
    URGE = "urge"
    CONTACT = "contact"
    BOUNDARY = "boundary"


LANE_LABELS = {
    Lane.RECORD: gettext_lazy("Written records"),
    Lane.URGE: gettext_lazy("Urges"),
    Lane.CONTACT: gettext_lazy("Contact"),
    Lane.BOUNDARY: gettext_lazy("Boundaries"),
}
# Lanes whose points carry a 0–10 value (distress, pull) drawn as a height.
VALUED = frozenset({Lane.RECORD, Lane.URGE})


@dataclass(frozen=True)
class TimelinePoint:
    """One thing on one of the client's days.

    ``value``: 0–10 where the lane has one, None when the client gave none.
    ``mark``: for contact, who reached out ("me", "them", or "" when not
    said); for a boundary step, "tried" or "held". ``key``: the same thing
    said again (a step carried into the next update) is drawn once, on the
    first day it was said.
    """

    on: dt.date
    lane: Lane
    value: int | None = None
    mark: str = ""
    key: object = None
