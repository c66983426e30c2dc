"""Crisis lines with each phone number a ``tel:`` link: one tap to call, when it matters most."""

import re

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

# At least three digits: "24 hours" is not a number to call; "999" is.
_NUMBER = re.compile(r"\+?\(?\d[\d\s().\-]*\d")
_MIN_DIGITS = 3


def tel_href(number: str) -> str:
    international = number.lstrip().startswith("+")
    if international:
        # "+44 (0)20 …": the (0) is dialled only from inside the country.
        number = number.replace("(0)", "")
    digits = re.sub(r"\D", "", number)
    return f"tel:+{digits}" if international else f"tel:{digits}"


def _closed(number: str) -> str:
    """The number up to a bracket it opens and never closes: in "016 (24 horas)"
    the bracket begins the words after it, and 01624 would call someone else."""
    depth = 0
    for at, char in enumerate(number):
        if char == "(":
            if depth == 0:
                opened = at
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
    return number[:opened] if depth else number


def crisis_line_parts(line: str) -> list[tuple[str, str]]:
    parts: list[tuple[str, str]] = []
    at = 0
    for match in _NUMBER.finditer(line):
        number = _closed(match.group()).rstrip(" .-(")
        if sum(char.isdigit() for char in number) < _MIN_DIGITS:
            continue
        if match.start() > at:
            parts.append((line[at : match.start()], ""))
        parts.append((number, tel_href(number)))
        at = match.start() + len(number)
    if at < len(line):
        parts.append((line[at:], ""))
    return parts


def crisis_line_html(line: str) -> SafeString:
    return format_html_join(
        "",
        "{}",
        (
            (format_html('<a href="{}">{}</a>', href, text) if href else text,)
            for text, href in crisis_line_parts(line)
        ),
    )
