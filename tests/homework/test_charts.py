"""The chart module: data in, escaped SVG out, with a text alternative."""

import datetime as dt
import functools
import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from homework.kinds import charts

SVG = "{http://www.w3.org/2000/svg}"
# This year: a date in another year names its year (practice.dates.calendar_day).
START = dt.date(dt.date.today().year, 3, 2)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # noqa: S314 (our own output, parsed to prove it is well formed)


DEJAVU_SANS = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
# Forty letters, as long as a person's name on the map may be: a long word,
# capitals and wide letters, and words that could be cut between.
LONG_NAMES = [
    "Wolfeschlegelsteinhausenbergerdorff Anne",
    "WWWWWWWWWW MMMMMMMMM WWWWWWWWWW MMMMMMMM",
    "Mary-Margaret from the Wednesday meeting",
    "Maximilian Wolfgang Montgomery-Worthingt",
]


# Names as the map's form takes them: any letters, narrow and wide, capitals,
# right-to-left ones, up to 40 letters for a person and 80 for a place.
LETTERS = st.sampled_from(list("aeinorstlmwWMIJ ABCÉ-'’&@.éåسارةשלום"))
NAMES = st.text(LETTERS, min_size=1, max_size=40).filter(str.strip)
PLACE_NAMES = st.text(LETTERS, min_size=1, max_size=80).filter(str.strip)


def dejavu_sans():
    ttlib = pytest.importorskip("fontTools.ttLib")
    if not DEJAVU_SANS.exists():
        pytest.skip("DejaVu Sans is not installed")
    return ttlib.TTFont(DEJAVU_SANS)


@functools.cache
def cached_dejavu_sans():
    return dejavu_sans()


def drawn_width(font, text: str, size: float) -> float:
    """The text's width as DejaVu Sans (the charts' first face) draws it."""
    cmap, metrics = font.getBestCmap(), font["hmtx"]
    units = sum(metrics[cmap.get(ord(char), ".notdef")][0] for char in text)
    return float(units * size / font["head"].unitsPerEm)


def test_urge_curve_leaves_gaps_for_days_not_logged_and_marks_contact():
    svg = charts.urge_curve(
        start=START,
        points=[
            charts.DayValue(0, 8),
            charts.DayValue(1, 7),
            charts.DayValue(4, 5),
            charts.DayValue(5, 4),
        ],
        contacts=[charts.ContactMark(day=1, by_me=False)],
        days=6,
        title="The pull",
        description="Easing.",
    )
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.find(f"{SVG}title").text == "The pull"  # type: ignore[union-attr]
    assert root.find(f"{SVG}desc").text == "Easing."  # type: ignore[union-attr]
    # Two separate lines (days 0–1 and 4–5), not one drawn through days 2–3.
    assert len(root.findall(f"{SVG}polyline")) == 2
    assert len(root.findall(f"{SVG}polygon")) == 2  # the marker on day 1, and its legend
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "They reached out" in texts and "I reached out" not in texts


def test_every_text_is_escaped():
    hostile = '<script>alert("x")</script>&'
    for svg in (
        charts.ladder(
            rungs=[charts.Rung(hostile, "held", hostile)], title=hostile, description=hostile
        ),
        charts.rings(
            circles=[charts.Ring(hostile, [charts.Dot(hostile, True)])],
            centre_label=hostile,
            title=hostile,
            description=hostile,
        ),
        charts.values_over_time(
            points=[(hostile, 3.0)],
            y_max=10,
            title=hostile,
            description=hostile,
        ),
        charts.urge_curve(
            points=[], contacts=[], days=1, start=START, title=hostile, description=hostile
        ),
    ):
        assert "<script>" not in svg
        parse(svg)


def test_ladder_draws_a_rung_per_step_first_at_the_bottom():
    svg = charts.ladder(
        rungs=[
            charts.Rung("first", "held", "It held"),
            charts.Rung("second", "planned", "Planned"),
        ],
        title="Ladder",
        description="",
    )
    texts = {t.text: float(t.get("y", 0)) for t in parse(svg).iter(f"{SVG}text")}
    assert texts["first"] > texts["second"]  # lower on the page


def test_a_crowded_ring_shows_the_first_names_and_how_many_more():
    dots = [charts.Dot(f"P{i}", i % 2 == 0) for i in range(30)]
    svg = charts.rings(
        circles=[charts.Ring("Closest", dots)], centre_label="Me", title="Map", description=""
    )
    texts = [t.text for t in parse(svg).iter(f"{SVG}text")]
    assert "+ 25 more" in texts
    assert "P0" in texts and "P29" not in texts


def test_same_data_gives_the_same_picture():
    def draw() -> str:
        return charts.values_over_time(
            points=[("1 Jan", 3.0), ("8 Jan", 5.5)],
            y_max=10,
            title="t",
            description="d",
        )

    assert draw() == draw()


def test_dots_are_one_path_of_round_points_one_per_value():
    svg = charts.urge_curve(
        start=START,
        points=[charts.DayValue(day, 5) for day in range(10)],
        contacts=[],
        days=10,
        title="t",
        description="d",
    )
    [dots] = [p for p in parse(svg).iter(f"{SVG}path") if p.get("stroke-linecap") == "round"]
    assert dots.get("d", "").count("h0") == 10


def test_values_over_a_year_are_not_numbered_one_on_top_of_another():
    # A weekly check-in kept for two years: 104 numbers cannot sit side by
    # side in the picture; they are in words beside it.
    points = [(f"week {n}", float(n % 11)) for n in range(104)]
    svg = charts.values_over_time(points=points, y_max=10, title="t", description="d")
    texts = [t.text for t in parse(svg).iter(f"{SVG}text")]
    assert len(texts) <= 6  # the scale (3) and the first and last dates
    assert "week 0" in texts and "week 103" in texts


def test_a_few_values_keep_their_numbers_over_the_dots():
    points = [("1 Jan", 3.0), ("8 Jan", 5.5), ("15 Jan", 7.0)]
    svg = charts.values_over_time(points=points, y_max=10, title="t", description="d")
    texts = [t.text for t in parse(svg).iter(f"{SVG}text")]
    assert {"3", "5.5", "7"} <= set(texts)


def test_a_full_ring_of_long_names_does_not_run_them_into_each_other():
    # Each ring at its most names, every name as long as a person may be
    # called on the map (40 letters): neighbours' names, as wide as DejaVu
    # Sans draws them, must not overlap.
    font = dejavu_sans()
    long_names = [f"Wolfeschlegelsteinhausenbergerdorff {n:02d}"[:40] for n in range(30)]
    for ring in range(3):
        circles = [charts.Ring(label, []) for label in ("Closest", "Close", "Around me")]
        circles[ring] = charts.Ring("Ring", [charts.Dot(name, True) for name in long_names])
        svg = charts.rings(circles=circles, centre_label="Me", title="Map", description="")
        names = [
            t
            for t in parse(svg).iter(f"{SVG}text")
            if t.text and t.text.startswith("Wo") and t.get("font-size") == "12"
        ]
        assert len(names) > 1
        boxes = [
            (float(t.get("x", 0)), float(t.get("y", 0)), drawn_width(font, t.text or "", 12))
            for t in names
        ]
        for (x1, y1, w1), (x2, y2, w2) in itertools.combinations(boxes, 2):
            if abs(y1 - y2) < 12:  # on the same line: centred, apart by half of each
                assert abs(x1 - x2) >= (w1 + w2) / 2, (ring, x1, x2, w1, w2)


def drawn_dots(tree: ET.Element) -> list[ET.Element]:
    """The people and places on a map (the rings and the middle have no ACCENT outline)."""
    return [
        shape
        for shape in [*tree.iter(f"{SVG}circle"), *tree.iter(f"{SVG}rect")]
        if shape.get("stroke") == charts.ACCENT
    ]


def test_a_crowded_ring_says_what_it_leaves_out_in_its_text_alternative():
    dots = [charts.Dot(f"P{i}", True) for i in range(9)]
    svg = charts.rings(
        circles=[charts.Ring("Closest", dots), charts.Ring("Close", dots[:2])],
        centre_label="Me",
        title="Map",
        description="Closest: P0, P1",
    )
    tree = parse(svg)
    assert len(drawn_dots(tree)) == 5 + 2
    assert "+ 4 more" in [t.text for t in tree.iter(f"{SVG}text")]
    # role="img": only the title and the description are read out.
    assert tree.findtext(f"{SVG}desc") == "Closest: P0, P1 Closest: 5 of 9 drawn, and “+ 4 more”."


def test_a_right_to_left_label_reads_in_its_own_direction_where_it_stood():
    """A browser draws an SVG label left to right unless told: an Arabic step
    ending on "WhatsApp." put that word at the right, where a reader of the
    sentence starts. ``unicode-bidi: plaintext`` takes the label's direction
    from its first letter and leaves it where it was anchored (the PDF
    engine ignores it); labels with no such letter are drawn as before."""
    arabic = "اتصلت الساعة 22:00 عبر WhatsApp."
    svg = charts.ladder(
        rungs=[
            charts.Rung(text="No calls after 10 pm.", status="held", status_label="It held"),
            charts.Rung(text=arabic, status="tried", status_label="Tried"),
        ],
        title="Ladder",
        description="Two steps.",
    )
    texts = {t.text: t.get("unicode-bidi") for t in parse(svg).iter(f"{SVG}text")}
    assert texts == {
        "No calls after 10 pm.": None,
        "It held": None,
        arabic: "plaintext",
        "Tried": None,
    }
    names = charts.rings(
        circles=[
            charts.Ring(label="Closest", dots=[charts.Dot("سارة", True), charts.Dot("Jo", True)])
        ],
        centre_label="Me",
        title="Map",
        description="",
    )
    labels = {t.text: t.get("unicode-bidi") for t in parse(names).iter(f"{SVG}text")}
    assert labels["سارة"] == "plaintext" and labels["Jo"] is None


def test_a_printed_right_to_left_label_is_given_in_the_order_it_is_drawn():
    """The PDF engine draws an SVG label one letter at a time, left to right,
    each letter on its own: a Hebrew label printed backwards, an Arabic one
    backwards and with its letters unjoined. Printed, such a label is in the
    order a reader's eye meets it, Arabic letters in their joined forms
    (python-bidi, arabic-reshaper); other labels are left exactly as they are."""
    svg = charts.ladder(
        rungs=[
            charts.Rung(text="No calls after 10 pm.", status="held", status_label="It held"),
            charts.Rung(text="שלום עולם WhatsApp.", status="tried", status_label="Tried"),
            charts.Rung(text="سارة", status="tried", status_label="Tried"),
        ],
        title="Ladder",
        description="Three steps.",
    )
    printed = charts.in_visual_order(svg)
    texts = [t.text for t in parse(printed).iter(f"{SVG}text")]
    assert texts == [
        "No calls after 10 pm.",
        "It held",
        ".WhatsApp םלוע םולש",
        "Tried",
        "\ufe93\ufead\ufe8e\ufeb3",  # ة ر ا س, joined, from the left
        "Tried",
    ]
    english = charts.ladder(
        rungs=[charts.Rung(text="No calls & texts.", status="held", status_label="It held")],
        title="Ladder",
        description="One step.",
    )
    assert charts.in_visual_order(english) == english


def axis_labels(svg: str) -> list[tuple[str, str | None]]:
    """The labels under the plot (the scale's numbers and the legend left out)."""
    return [
        (t.text or "", t.get("text-anchor"))
        for t in parse(svg).iter(f"{SVG}text")
        if (t.text or "")[:1].isdigit() and " " in (t.text or "")
    ]


def test_a_curve_of_one_day_names_that_day_once_under_its_dot():
    """A tracker begun today read "Day 1 … Day 1" along its axis; now its date, once."""
    svg = charts.urge_curve(
        points=[charts.DayValue(0, 6)],
        contacts=[],
        days=1,
        start=START,
        title="The pull",
        description="",
    )
    assert axis_labels(svg) == [("2 Mar", "middle")]


def test_a_curve_says_dates_along_its_axis_not_day_numbers():
    """The first and last days, and the middle one where there is room for it."""
    for days, named in (
        (2, [("2 Mar", "start"), ("3 Mar", "end")]),
        (9, [("2 Mar", "start"), ("6 Mar", "middle"), ("10 Mar", "end")]),
    ):
        svg = charts.urge_curve(
            points=[charts.DayValue(0, 6)],
            contacts=[],
            days=days,
            start=START,
            title="t",
            description="",
            legend=False,
        )
        assert axis_labels(svg) == named
        assert ">Day " not in svg


def test_a_long_name_on_the_map_stays_inside_the_picture_and_is_said_in_full():
    """A 40-letter name by the edge of the outer ring ran past the picture
    and was cut off: each letter was counted 7 units wide, a "W" is 12 and
    the ellipsis a whole 12. Names are measured by their letters now; the
    text alternative keeps every name in full."""
    font = dejavu_sans()
    assert all(len(name) == 40 for name in LONG_NAMES)
    for name, ring, count in itertools.product(LONG_NAMES, range(3), range(1, 13)):
        circles = [charts.Ring(label, []) for label in ("Closest", "Close", "Around me")]
        people = [
            charts.Dot(name if i == 0 else f"{name[:37]} {i:02d}", True) for i in range(count)
        ]
        circles[ring] = charts.Ring("Ring", people)
        tree = parse(charts.rings(circles=circles, centre_label="Me", title="Map", description=""))
        width = float(tree.get("viewBox", "").split()[2])
        for text in tree.iter(f"{SVG}text"):
            size, x = float(text.get("font-size", 0)), float(text.get("x", 0))
            drawn = drawn_width(font, text.text or "", size)
            left = {"start": x, "middle": x - drawn / 2, "end": x - drawn}[
                text.get("text-anchor", "")
            ]
            assert left >= 0 and left + drawn <= width, (name, ring, count, text.text)
        desc = tree.findtext(f"{SVG}desc") or ""
        # A name's lines are drawn one after the other.
        drawn_text = " ".join(t.text or "" for t in tree.iter(f"{SVG}text"))
        for person in people[: [5, 8, 12][ring]]:
            assert person.name in drawn_text or person.name in desc, person.name


def test_the_map_names_a_cut_name_in_full_once_in_its_text_alternative():
    from homework.kinds.support_network import KIND as kind

    name = LONG_NAMES[2]
    response = {
        "people": [{"name": name, "circle": "inner", "roles": [], "steadying": True}],
        "places_and_services": [],
    }
    tree = parse(kind.chart(kind.circles(response)))
    drawn = [t.text or "" for t in tree.iter(f"{SVG}text")]
    assert name not in drawn and any(t.endswith("…") and name.startswith(t[:-1]) for t in drawn)
    # The kind's description lists everyone already: not said twice.
    assert (tree.findtext(f"{SVG}desc") or "").count(name) == 1


# A line of text takes an em, from DejaVu Sans's typographic ascender (0.76
# of the size) over its baseline to its descender (0.24) under it.
TEXT_ASCENT, TEXT_DESCENT = 0.76, 0.24


def text_boxes(tree: ET.Element) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each label of a picture and the box it is drawn in (left, top, right,
    bottom), as wide as the chart counts it or DejaVu Sans draws it."""
    font = cached_dejavu_sans() if DEJAVU_SANS.exists() else None
    boxes = []
    for text in tree.iter(f"{SVG}text"):
        words = text.text or ""
        size, x, y = (float(text.get(a, 0)) for a in ("font-size", "x", "y"))
        width = charts.label_width(words, size)
        if font is not None:
            width = max(width, drawn_width(font, words, size))
        left = {"start": x, "middle": x - width / 2, "end": x - width}[text.get("text-anchor", "")]
        boxes.append((words, (left, y - TEXT_ASCENT * size, left + width, y + TEXT_DESCENT * size)))
    return boxes


def dot_boxes(tree: ET.Element) -> list[tuple[float, float, float, float]]:
    boxes = []
    for dot in drawn_dots(tree):
        if dot.tag == f"{SVG}rect":
            x, y = float(dot.get("x", 0)), float(dot.get("y", 0))
            side = float(dot.get("width", 0))
            boxes.append((x - 1, y - 1, x + side + 1, y + side + 1))  # with its outline
        else:
            x, y, r = (float(dot.get(a, 0)) for a in ("cx", "cy", "r"))
            boxes.append((x - r - 1, y - r - 1, x + r + 1, y + r + 1))
    return boxes


def meet(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def assert_every_label_clear(svg: str) -> None:
    """No label of the map on another, none on a dot, all inside the picture."""
    tree = parse(svg)
    size = float(tree.get("viewBox", "").split()[2])
    labels = text_boxes(tree)
    for words, box in labels:
        assert min(box[0], box[1]) >= 0 and max(box[2], box[3]) <= size, words
        for dot in dot_boxes(tree):
            assert not meet(box, dot), (words, box, dot)
    for (first, a), (second, b) in itertools.combinations(labels, 2):
        assert not meet(a, b), (first, a, second, b)


def named_dots(svg: str) -> tuple[int, int]:
    """How many dots a map draws, and how many names: a name's second line
    is drawn straight under its first."""
    tree = parse(svg)
    names = [t for t in tree.iter(f"{SVG}text") if t.get("fill") == charts.INK]
    first_lines = [
        line
        for before, line in zip([None, *names], names, strict=False)
        if before is None
        or before.get("x") != line.get("x")
        or round(float(line.get("y", 0)) - float(before.get("y", 0)), 1) != charts.NAME_LINE_HEIGHT
    ]
    return len(drawn_dots(tree)), len(first_lines)


def map_of(people: list[tuple[str, str]], places: list[tuple[str, str]] = []) -> str:  # noqa: B006
    """The support-network kind's map of (name, circle) people and places."""
    from homework.kinds.support_network import KIND as kind

    response = {
        "people": [
            {"name": name, "circle": circle, "roles": [], "steadying": n % 2 == 0}
            for n, (name, circle) in enumerate(people)
        ],
        "places_and_services": [{"name": name, "circle": circle} for name, circle in places],
    }
    return kind.chart(kind.circles(response))


def test_names_on_neighbouring_rings_in_a_line_do_not_run_into_each_other():
    """Two on each ring sit side by side across the middle, one ring's dot
    just outside the next one's: each name used to be drawn under its dot,
    into its neighbours' names."""
    svg = map_of(
        [
            ("Wolfeschlegel Anne", "inner"),
            ("Bo", "inner"),
            ("Mary-Margaret Jones", "middle"),
            ("Christopher Long", "middle"),
        ],
        [("The Wednesday group", "outer"), ("Library", "outer")],
    )
    assert_every_label_clear(svg)
    dots, names = named_dots(svg)
    assert dots == names == 6


def test_the_fullest_map_of_long_names_keeps_every_name_clear():
    from homework.kinds.support_network import MAX_PEOPLE, MAX_PLACES

    circles = ["inner", "middle", "outer"]
    people = [(f"{LONG_NAMES[n % 4][:37]} {n:02d}", circles[n % 3]) for n in range(MAX_PEOPLE)]
    places = [(f"{LONG_NAMES[n % 4]}", circles[n % 3]) for n in range(MAX_PLACES)]
    for count in range(1, 14):  # every number of dots a ring draws, with every other ring full
        for ring in circles:
            few = [p for p in people if p[1] != ring] + [p for p in people if p[1] == ring][:count]
            svg = map_of(few, places if count > 12 else [])
            assert_every_label_clear(svg)
            dots, names = named_dots(svg)
            assert dots == names, (ring, count)  # each dot keeps its name beside it


@given(
    st.lists(
        st.tuples(NAMES, st.sampled_from(["inner", "middle", "outer"])), min_size=1, max_size=50
    ),
    st.lists(st.tuples(PLACE_NAMES, st.sampled_from(["inner", "middle", "outer"])), max_size=30),
)
def test_no_map_the_form_allows_draws_a_name_on_another(people, places):
    assert_every_label_clear(map_of(people, places))
