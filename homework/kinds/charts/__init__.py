"""Pictures of progress: pure functions from plain data to an escaped SVG string, with no database
or fetched assets. Every picture carries a text alternative, and colour never carries meaning alone.
"""

from homework.kinds.charts.labels import in_visual_order, label_width
from homework.kinds.charts.ladder import Rung, ladder
from homework.kinds.charts.lines import ContactMark, DayValue, urge_curve, values_over_time
from homework.kinds.charts.rings import NAME_LINE_HEIGHT, Dot, Ring, rings
from homework.kinds.charts.svg import ACCENT, INK
from homework.kinds.charts.timeline import Timeline, TimelineRow, timeline
from homework.kinds.charts.timeline_points import Lane, TimelinePoint

__all__ = [
    "ACCENT",
    "INK",
    "NAME_LINE_HEIGHT",
    "ContactMark",
    "DayValue",
    "Dot",
    "Lane",
    "Ring",
    "Rung",
    "Timeline",
    "TimelinePoint",
    "TimelineRow",
    "in_visual_order",
    "label_width",
    "ladder",
    "rings",
    "timeline",
    "urge_curve",
    "values_over_time",
]
