"""Pages and code give dates by a named shape (practice.dates.NAMED_FORMATS), never a raw
format: "j M Y" reads "7 Dic 2026" in Spanish, which writes "7 dic de 2026"."""

import ast
import re
from pathlib import Path

from django.conf import settings
from django.utils.formats import FORMAT_SETTINGS

from practice.dates import NAMED_FORMATS

ROOT = Path(settings.BASE_DIR)
CODE = ("clients", "homework", "practice")
# Django's own named formats are given per language too.
NAMES = set(NAMED_FORMATS) | set(FORMAT_SETTINGS)
# A time alone reads the same in every language offered.
TIME_ALONE = re.compile(r"[HGhgisaAP:. ]+")
# A format given to |date, |time, |calendar_day or {% their_time… %} in a template.
IN_TEMPLATE = re.compile(r'(?:\|(?:calendar_day|date|time):|\{%\s*their_time\w*\s[^%"]*)"([^"]*)"')
# The functions whose string arguments are date formats.
FORMATTERS = {
    "calendar_day",
    "date_format",
    "in_client_time_zone",
    "where_clocks_differ",
    "with_year",
    "show",
}
# strftime letters that write words in the machine's language, not the reader's.
WORDS = re.compile(r"%[aAbBcxp]")


def named(shape: str) -> bool:
    return shape in NAMES or TIME_ALONE.fullmatch(shape) is not None


def test_templates_give_dates_by_named_shape():
    raw = [
        f"{path.relative_to(ROOT)}: {shape}"
        for path in sorted((ROOT / "templates").rglob("*"))
        if path.suffix in {".html", ".txt"}
        for shape in IN_TEMPLATE.findall(path.read_text(encoding="utf-8"))
        if not named(shape)
    ]
    assert raw == []


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _raw_shapes(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        strings = [
            arg.value
            for arg in [*node.args, *(keyword.value for keyword in node.keywords)]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
        ]
        name = _called(node)
        if name in FORMATTERS:
            found += [shape for shape in strings if not named(shape)]
        elif name == "strftime":
            found += [shape for shape in strings if WORDS.search(shape)]
    return found


def test_code_gives_dates_by_named_shape():
    raw = [
        f"{path.relative_to(ROOT)}: {shape}"
        for package in CODE
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        for shape in _raw_shapes(path)
    ]
    assert raw == []
