"""Every button on a staff page is drawn by our styles, never as the browser's grey box.

Django's stylesheet draws ``input[type=submit]`` and ``.button``; a bare ``<button>`` it leaves
to the browser. Read from the templates, so every staff page is covered without rendering it.
"""

import re
from pathlib import Path

from django.conf import settings

STAFF_TEMPLATES = Path(settings.BASE_DIR) / "templates" / "admin"
# Django's own "button" and our header button that reads as a link (static/css/admin.css).
STYLED = {"button", "ws-link-button"}
BUTTON = re.compile(r"<button\b[^>]*>", re.DOTALL)
UNDRAWN_INPUT = re.compile(r"<input\b[^>]*type=\"reset\"", re.DOTALL)


def unstyled(html: str) -> list[str]:
    found = []
    for tag in BUTTON.findall(html):
        named = re.search(r'class="([^"]*)"', tag)
        classes = set(named.group(1).split()) if named else set()
        if not classes & STYLED and 'aria-hidden="true"' not in tag:
            found.append(tag)
    return found + UNDRAWN_INPUT.findall(html)


def test_every_button_on_staff_pages_is_styled_as_ours():
    found = {
        str(path.relative_to(STAFF_TEMPLATES)): tags
        for path in sorted(STAFF_TEMPLATES.rglob("*.html"))
        if (tags := unstyled(path.read_text()))
    }
    assert not found


def test_a_bare_button_is_found():
    assert unstyled('<form><button type="submit">Save</button></form>')
    assert not unstyled('<button type="submit" class="button default">Save</button>')


def test_the_header_button_class_is_drawn_by_our_stylesheet():
    css = (Path(settings.BASE_DIR) / "static" / "css" / "admin.css").read_text()
    assert ".ws-link-button" in css
