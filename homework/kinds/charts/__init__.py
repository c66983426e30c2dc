"""Pictures of progress, drawn on the server as SVG.

Pure functions: plain data in, an escaped SVG string out. No database, no
request, no fonts or images fetched from anywhere, so the same pictures go
into the portal, the session summary PDF and the client's export. Every
picture carries a <title> and <desc> (its text alternative); templates show
the numbers beside it as text too. Colour never carries meaning alone:
shapes and words do.
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
