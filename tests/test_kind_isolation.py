"""Adding a seventh kind touches only homework/kinds/ and templates.

Checked by looking: no kind's slug is written anywhere else in the code
(data — the library, its migration, the demo seed — names kinds, and may).
A kind's module is found by the registry, its templates by their path.
"""

import re
from pathlib import Path

from homework.kinds import all_kinds

ROOT = Path(__file__).resolve().parents[1]
CODE = ("practice", "clients", "homework", "static", "templates")
ALLOWED = (
    "homework/kinds/",
    "templates/homework/kinds/",
    "homework/migrations/",
    "homework/library/",
    "homework/management/commands/",
    # A list of clinical words kept out of reminders: "worksheet" there is
    # English, not the kind.
    "practice/discreet.py",
)


def test_no_kind_is_named_outside_the_kinds_package_and_its_templates():
    slugs = [kind.slug for kind in all_kinds()]
    # As a string literal (how code would branch on it) or in a template path.
    pattern = re.compile(r"[\"'/](" + "|".join(map(re.escape, slugs)) + r")[\"'/]")
    offenders = []
    for top in CODE:
        for path in (ROOT / top).rglob("*"):
            relative = path.relative_to(ROOT).as_posix()
            if not path.is_file() or path.suffix not in {".py", ".html", ".js", ".css", ".txt"}:
                continue
            if relative.startswith(ALLOWED):
                continue
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                code = line.split("#", 1)[0] if path.suffix == ".py" else line
                if pattern.search(code):
                    offenders.append(f"{relative}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_each_kind_brings_its_own_templates():
    for kind in all_kinds():
        for template in ("form", "display", "summary"):
            assert (ROOT / "templates" / f"homework/kinds/{kind.slug}/{template}.html").exists()
