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
VALUED = frozenset({Lane.RECORD, Lane.URGE})


@dataclass(frozen=True)
class TimelinePoint:
    """``value`` is None when the client gave none; a ``key`` said again is drawn once, on the first
    day it was said."""

    on: dt.date
    lane: Lane
    value: int | None = None
    mark: str = ""
    key: object = None
