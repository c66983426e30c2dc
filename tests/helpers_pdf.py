"""Reading a PDF back in tests: its pages, as lines of text."""

import io
import re

from pypdf import PdfReader

FOOTER = re.compile(r"\d+ / \d+")


def pages_of(pdf: bytes) -> list[list[str]]:
    """Each page's lines of text as pypdf reads them, the footer ("1 / 3") left off."""
    pages = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        lines = [line.strip() for line in page.extract_text().splitlines() if line.strip()]
        assert FOOTER.fullmatch(lines[-1]), lines[-1:]
        pages.append(lines[:-1])
    return pages
