"""A word longer than a line still prints whole, inside the page's margins."""

import re
import subprocess

import pytest

from .conftest import add
from .test_render import pdf_for

pytestmark = pytest.mark.django_db

RIGHT_MARGIN_MM = 16  # summary.css: @page { margin: 15mm 16mm 17mm }
LINK = "https://example.invalid/" + "x" * 250


def words_with_right_edges(pdf: bytes) -> tuple[float, list[tuple[str, float]]]:
    """The page width and each word's text and right edge, in points."""
    out = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    width = float(re.search(r'<page width="([\d.]+)"', out)[1])  # type: ignore[index]
    words = re.findall(
        r'<word xMin="[\d.]+" yMin="[\d.]+" xMax="([\d.]+)"[^>]*>([^<]*)</word>', out
    )
    return width, [(text, float(x_max)) for x_max, text in words]


@pytest.mark.parametrize("full_detail", [False, True])
def test_a_long_unbroken_word_stays_inside_the_margins(cast, full_detail):
    add(cast.alice_assignment, what_happened=LINK)
    width, words = words_with_right_edges(pdf_for(cast.tara, cast.alice, full_detail=full_detail))
    edge = width - RIGHT_MARGIN_MM * 72 / 25.4
    beyond = [text for text, x_max in words if x_max > edge + 1]
    assert not beyond
    printed = "".join(text for text, _x in words)
    expected = LINK if full_detail else LINK[:100]
    assert expected in printed  # nothing cut off at the paper's edge
