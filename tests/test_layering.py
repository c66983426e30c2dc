"""Imports run one way: each layer reaches nothing of the layers above it.

The layers (DESIGN.md): practice's base (settings, env, users, practice
settings), then clients, then homework, then the top (URL assembly and the
admin site's wiring). Inside homework, the kinds, the selectors and the
services sit below the session summary, which builds on them.

Read from the source, not by importing it: every import statement (at the
top of a module or inside a function), every import_module / import_string /
__import__ of a literal, every dotted "homework.…" or "clients.…" string (a
path Django or Celery imports: a task, a model, a class), and
apps.get_model("homework", …). Imports of the project's own modules are
followed, so clients → practice.x → homework fails too.

URL names ("homework:dashboard") are addresses, not imports: the portal's
home is where signing in lands, and reversing it loads nothing of homework.
"""

import ast
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("practice", "clients", "homework")
# The top: modules that assemble the layers, the only ones in practice/ that may name the others.
TOP = {
    "practice/urls.py": "assembles every app's URLs",
    "practice/apps.py": "names the admin site, whose home is the therapist's workspace",
    "practice/admin_site.py": "wires the staff's sign-in and Staff pages into the admin",
    "practice/api/urls.py": "assembles every app's API routes",
}
# Its strings are read by Django and Celery at start-up (INSTALLED_APPS, the
# beat schedule, the sweeps), not imported by the module that holds them.
CONFIGURATION = {"practice/settings.py", "practice/api/settings.py"}
IMPORTERS = {"import_module", "import_string", "__import__"}


@dataclass(frozen=True)
class Rule:
    """Nothing in ``lower`` (but the files in ``exempt``) reaches anything in
    ``upper``, however many imports away, unless by way of ``entry_points``."""

    lower: str
    upper: tuple[str, ...]
    exempt: frozenset[str] = field(default_factory=frozenset)
    entry_points: frozenset[str] = field(default_factory=frozenset)

    def forbids(self, name: str) -> bool:
        return any(name == upper or name.startswith(upper + ".") for upper in self.upper)


# Homework's pages: the portal, the therapist's workspace and the API, built on all below.
PAGES = ("homework.portal", "homework.workspace", "homework.api")
# A service enqueues a task as it goes, and tasks.py calls the services and the summary in
# turn: Celery's entry points sit on top of homework, like its URLs.
TASKS = frozenset({"homework/tasks.py"})

RULES = [
    Rule("practice", ("clients", "homework"), frozenset(TOP)),
    Rule("clients", ("homework",)),
    # A kind's section takes its limits from homework.kinds.limits; the summary gathers the sections.
    Rule("homework.kinds", ("homework.summary", *PAGES)),
    # The summary reads through the selectors (its period and completion live there), never back.
    Rule("homework.selectors", ("homework.summary", *PAGES)),
    # A client's records to take away (homework.export) serve the portal, the API and the manager.
    Rule("homework.export", ("homework.summary", *PAGES)),
    # A client's measures as FHIR (homework.fhir) serve the API alone, from the kinds and selectors.
    Rule("homework.fhir", ("homework.summary", *PAGES)),
    # The writes forget stored summaries through homework.services.stored_summaries.
    Rule("homework.services", ("homework.summary", *PAGES), entry_points=TASKS),
    Rule("homework.summary", PAGES, entry_points=TASKS),
]


def _dotted(value: object) -> bool:
    """A dotted path into the project that something will import: "homework.tasks.x"."""
    return (
        isinstance(value, str)
        and value.split(".")[0] in PROJECT
        and "." in value
        and value.replace(".", "").isidentifier()
    )


def _module_file(root: Path, module: str) -> Path | None:
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _posix(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(module: str | None, level: int, here: str, is_package: bool) -> str:
    if not level:
        return module or ""
    package = here.split(".") if is_package else here.split(".")[:-1]
    base = package[: len(package) - level + 1]
    return ".".join([*base, module] if module else base)


@cache
def _references(root: Path, path: Path) -> tuple[tuple[int, str, bool], ...]:
    """(line, module or dotted path, whether it is an import to follow) for what ``path`` names."""
    return tuple(_walk(root, path))


def _walk(root: Path, path: Path) -> Iterator[tuple[int, str, bool]]:
    here = _module_name(root, path)
    is_package = path.name == "__init__.py"
    configuration = _posix(root, path) in CONFIGURATION
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, True
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node.module, node.level, here, is_package)
            # "from clients import services" imports a module; "from homework import x" names x.
            for alias in node.names:
                yield node.lineno, f"{module}.{alias.name}", True
        elif isinstance(node, ast.Call) and node.args:
            called = node.func.attr if isinstance(node.func, ast.Attribute) else None
            called = node.func.id if isinstance(node.func, ast.Name) else called
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            if called in IMPORTERS:
                yield node.lineno, first.value, True
            elif called in {"get_model", "get_app_config"} and first.value in PROJECT:
                yield node.lineno, first.value, False
        elif isinstance(node, ast.Constant) and _dotted(node.value) and not configuration:
            yield node.lineno, str(node.value), False


def breaches(rule: Rule, root: Path = ROOT) -> list[str]:
    """Each module under ``rule.lower`` that reaches ``rule.upper``, with the way it gets there."""
    offenders = set()
    lower = root.joinpath(*rule.lower.split("."))
    files = sorted(lower.rglob("*.py")) if lower.is_dir() else [lower.with_suffix(".py")]
    starts = [path for path in files if path.is_file() and _posix(root, path) not in rule.exempt]
    for start in starts:
        seen = {start}
        queue = deque([(start, [_posix(root, start)])])
        while queue:
            path, way = queue.popleft()
            for line, name, follow in _references(root, path):
                if rule.forbids(name):
                    offenders.add(" → ".join([*way[:-1], f"{way[-1]}:{line} {name}"]))
                    continue
                if not (follow and name.split(".")[0] in PROJECT):
                    continue
                # Importing a.b.c runs a/__init__.py and a/b/__init__.py too.
                parts = name.split(".")
                for depth in range(1, len(parts) + 1):
                    found = _module_file(root, ".".join(parts[:depth]))
                    if found is None or found in seen or _posix(root, found) in rule.entry_points:
                        continue
                    seen.add(found)
                    queue.append((found, [*way, _posix(root, found)]))
    return sorted(offenders)


def all_breaches(root: Path) -> list[str]:
    return sorted({breach for rule in RULES for breach in breaches(rule, root)})


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: f"{rule.lower} below {rule.upper}")
def test_each_layer_reaches_nothing_above_it(rule):
    offenders = breaches(rule)
    assert not offenders, "\n".join(offenders)


def test_the_top_modules_still_exist():
    # An exception for a file that is gone would quietly cover a new one of that name.
    assert all((ROOT / path).is_file() for path in TOP)


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_an_import_inside_a_function_two_modules_away_is_found(tmp_path):
    root = _tree(
        tmp_path,
        {
            "clients/__init__.py": "",
            "clients/views.py": "from practice.helpers import help\n",
            "practice/__init__.py": "",
            "practice/helpers.py": "def help():\n    from homework.views import x\n",
        },
    )
    assert all_breaches(root) == [
        "clients/views.py → practice/helpers.py:2 homework.views.x",
        "practice/helpers.py:2 homework.views.x",
    ]


def test_imports_by_name_and_dotted_paths_are_found(tmp_path):
    root = _tree(
        tmp_path,
        {
            "clients/__init__.py": "",
            "clients/a.py": "import_module('homework.export')\n",
            "clients/b.py": "SWEEPS = ('homework.tasks.sweep',)\n",
            "clients/c.py": "apps.get_model('homework', 'Entry')\n",
            "clients/d.py": "from . import e\n",
            "clients/e.py": "import homework\n",
            "clients/fine.py": "reverse('homework:dashboard')\nTEXT = 'homework. Then'\n",
            "practice/__init__.py": "",
            "practice/urls.py": "from homework import urls\n",
            "practice/settings.py": "INSTALLED_APPS = ['homework', 'homework.apps.X']\n",
        },
    )
    assert all_breaches(root) == [
        "clients/a.py:1 homework.export",
        "clients/b.py:1 homework.tasks.sweep",
        "clients/c.py:1 homework",
        "clients/d.py → clients/e.py:1 homework",
        "clients/e.py:1 homework",
    ]


def test_the_base_of_practice_reaches_nothing_of_clients_but_the_top_may(tmp_path):
    root = _tree(
        tmp_path,
        {
            "clients/__init__.py": "",
            "clients/lockout.py": "def client_address(request): ...\n",
            "practice/__init__.py": "",
            "practice/throttling.py": "from clients.lockout import client_address\n",
            "practice/errors.py": "from practice import helpers\n",
            "practice/helpers.py": "MIDDLEWARE = 'clients.middleware.looks'\n",
            "practice/admin_site.py": "from clients.views import staff_two_step\n",
            "practice/urls.py": "from clients import urls\n",
        },
    )
    assert all_breaches(root) == [
        "practice/errors.py → practice/helpers.py:1 clients.middleware.looks",
        "practice/helpers.py:1 clients.middleware.looks",
        "practice/throttling.py:1 clients.lockout.client_address",
    ]


def test_the_kinds_the_selectors_and_the_services_reach_nothing_of_the_summary(tmp_path):
    root = _tree(
        tmp_path,
        {
            "homework/__init__.py": "",
            "homework/kinds/__init__.py": "",
            "homework/kinds/diary.py": "from homework.summary.limits import first_of\n",
            "homework/kinds/limits.py": "LIMIT = 6\n",
            "homework/kinds/fine.py": "from homework.kinds.limits import LIMIT\n",
            "homework/selectors/__init__.py": "",
            "homework/selectors/caseload.py": "from homework.models import x\n",
            "homework/models.py": "def x():\n    from homework import summary\n",
            "homework/summary/__init__.py": "",
            "homework/summary/selectors.py": "from homework.selectors import caseload\n",
            "homework/services/__init__.py": "",
            "homework/services/erasure.py": "def erase():\n    from homework.summary import services\n",
            "homework/services/notify.py": "def send():\n    from homework.tasks import notify\n",
            "homework/tasks.py": "from homework.summary import services\n",
        },
    )
    assert all_breaches(root) == [
        "homework/kinds/diary.py:1 homework.summary.limits.first_of",
        "homework/selectors/caseload.py → homework/models.py:2 homework.summary",
        "homework/services/erasure.py:2 homework.summary.services",
    ]
