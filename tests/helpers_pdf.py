"""Reading a PDF back in tests: its pages, as lines of text."""

import html
import io
import re
import subprocess
from collections.abc import Iterator
from typing import Any

from pypdf import PdfReader

from homework import export
from homework.models import Entry

FOOTER = re.compile(r"\d+ / \d+")


def pages_of(pdf: bytes) -> list[list[str]]:
    """Each page's lines of text as pypdf reads them, the footer ("1 / 3") left off."""
    pages = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        lines = [line.strip() for line in page.extract_text().splitlines() if line.strip()]
        assert FOOTER.fullmatch(lines[-1]), lines[-1:]
        pages.append(lines[:-1])
    return pages


def downloads_pushed_down(
    cast: Any, first: Entry, *, pushes: int
) -> Iterator[tuple[int, list[list[str]]]]:
    """Alice's download with ``first``'s words pushed down a line at a time, so a page's foot
    falls at every place in what follows: each push's count of lines and its pages."""
    for pushed in range(pushes):
        first.response = {
            **first.response,
            "what_happened": "\n".join(f"Pushed down {i}." for i in range(pushed + 1)),
        }
        first.save(update_fields=["response"])
        yield pushed, pages_of(export.export_pdf(user=cast.alice.portal_user))


def words_on_lines(pdf: bytes) -> list[tuple[str, float, float]]:
    """Each word poppler finds: its text, left edge and top, in points (a word
    from a fallback face may sit a point or two off its line's others)."""
    out = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    found = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)</word>', out)
    return [(html.unescape(text), float(x), float(y)) for x, y, text in found]
