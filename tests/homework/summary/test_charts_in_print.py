"""The summary's charts read back from the printed PDF: the names on the support map and the urge
chart's scale and dates are text on the page, not only words beside the pictures."""

import datetime as dt

from django.utils import timezone

from homework.kinds import get_kind
from practice.dates import calendar_day
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    support_network,
    urge_log,
)
from tests.helpers_pdf import words_on_lines

from .test_render import pdf_for


def test_the_printed_map_names_its_people_and_the_urge_chart_has_its_scale_and_dates(cast):
    people = [
        {"name": "Wren", "circle": "inner", "roles": [], "steadying": False},
        {"name": "Odile", "circle": "outer", "roles": [], "steadying": False},
    ]
    EntryFactory.create(
        assignment=AssignmentFactory.create(
            client=cast.alice, exercise=ExerciseFactory.create(kind="support_network")
        ),
        response=support_network(people=people, places_and_services=[]),
    )
    log = AssignmentFactory.create(
        client=cast.alice, exercise=ExerciseFactory.create(kind="urge_log", title="No contact")
    )
    first = timezone.localtime() - dt.timedelta(days=6)
    for n in range(7):
        at = first + dt.timedelta(days=n)
        response = urge_log(at=at.strftime("%Y-%m-%dT%H:%M"), intensity=8 - n)
        EntryFactory.create(
            assignment=log,
            response=response,
            submitted_at=at,
            shared_at=at,
            **get_kind("urge_log").plain_columns(response, exercise=log.exercise),
        )

    words = words_on_lines(pdf_for(cast.tara, cast.alice))

    texts = [text for text, _x, _y in words]
    # Each name twice: in the words beside the map, and on it beside its dot.
    assert texts.count("Wren") == texts.count("Odile") == 2
    assert {"Closest", "Around", "Me"} <= set(texts)  # the rings' own labels ("Closest:" beside)

    # The urge chart's scale: 10, 5 and 0 one above another, right-aligned at one place.
    def near(text: str, x: float) -> list[float]:
        return sorted(y for other, other_x, y in words if other == text and abs(other_x - x) < 8)

    [(top, middle, bottom)] = [
        (near("10", x)[0], y, near("0", x)[0])
        for text, x, y in words
        if text == "5" and near("10", x) and near("0", x)
    ]
    assert top < middle < bottom
    # Its dates on the line under it: the first day and the last.
    axis = [text for text, _x, y in words if 5 < y - bottom < 25]
    for day in (first.date(), first.date() + dt.timedelta(days=6)):
        day_number, month = calendar_day(day, "j M").split()
        assert day_number in axis and month in axis
