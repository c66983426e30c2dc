"""clients/ and the base of practice/ import nothing from homework/.

The layers (DESIGN.md): practice's base (settings, env, users, practice
settings), then clients, then homework, then the top (URL assembly and the
admin site's wiring). Read from the source, not by importing it: every
import statement (at the top of a module or inside a function), every
import_module / import_string / __import__ of a literal, every dotted
"homework.…" string (a path Django or Celery imports: a task, a model, a
class), and apps.get_model("homework", …). Imports of the project's own
modules are followed, so clients → practice.x → homework fails too.

URL names ("homework:dashboard") are addresses, not imports: the portal's
home is where signing in lands, and reversing it loads nothing of homework.
"""

import ast
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import TypeGuard

ROOT = Path(__file__).resolve().parents[1]
UPPER = "homework"
BELOW = ("practice", "clients")
# The top: modules that assemble the layers, and the only ones here that may name homework.
TOP = {
    "practice/urls.py": "assembles every app's URLs, homework's included",
    "practice/apps.py": "names the admin site, whose home is the therapist's workspace",
    "practice/api/urls.py": "assembles every app's API routes, homework's included",
}
# Its strings are read by Django and Celery at start-up (INSTALLED_APPS, the
# beat schedule, the sweeps), not imported by the module that holds them.
CONFIGURATION = {"practice/settings.py"}
IMPORTERS = {"import_module", "import_string", "__import__"}


def _names_upper(name: str) -> bool:
    return name == UPPER or name.startswith(UPPER + ".")


def _dotted_upper(value: object) -> TypeGuard[str]:
    """A dotted path that something will import: "homework.tasks.x", "homework.Entry"."""
    return (
        isinstance(value, str)
        and value.startswith(UPPER + ".")
        and value.replace(".", "").isidentifier()
    )


def _module_file(root: Path, module: str) -> Path | None:
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(module: str | None, level: int, here: str, is_package: bool) -> str:
    if not level:
        return module or ""
    package = here.split(".") if is_package else here.split(".")[:-1]
    base = package[: len(package) - level + 1]
    return ".".join([*base, module] if module else base)


def _references(root: Path, path: Path) -> Iterator[tuple[int, str, bool]]:
    """(line, module or dotted path, whether it is an import to follow) for what ``path`` names."""
    here = _module_name(root, path)
    is_package = path.name == "__init__.py"
    configuration = path.relative_to(root).as_posix() in CONFIGURATION
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, True
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node.module, node.level, here, is_package)
            if not _names_upper(module):
                yield node.lineno, module, True
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
            elif called in {"get_model", "get_app_config"} and first.value == UPPER:
                yield node.lineno, UPPER, False
        elif isinstance(node, ast.Constant) and _dotted_upper(node.value) and not configuration:
            yield node.lineno, node.value, False


def _own(module: str) -> bool:
    return module.split(".")[0] in BELOW


def upward_imports(root: Path = ROOT) -> list[str]:
    """Each module of ``BELOW`` (but the top) that reaches homework, with the way it gets there."""
    offenders = set()
    starts = [
        path
        for top in BELOW
        for path in sorted((root / top).rglob("*.py"))
        if path.relative_to(root).as_posix() not in TOP
    ]
    for start in starts:
        seen = {start}
        queue = deque([(start, [start.relative_to(root).as_posix()])])
        while queue:
            path, way = queue.popleft()
            for line, name, follow in _references(root, path):
                if _names_upper(name):
                    offenders.add(" → ".join([*way[:-1], f"{way[-1]}:{line} {name}"]))
                    continue
                if not (follow and _own(name)):
                    continue
                # Importing a.b.c runs a/__init__.py and a/b/__init__.py too.
                parts = name.split(".")
                for depth in range(1, len(parts) + 1):
                    found = _module_file(root, ".".join(parts[:depth]))
                    if found is not None and found not in seen:
                        seen.add(found)
                        queue.append((found, [*way, found.relative_to(root).as_posix()]))
    return sorted(offenders)


def test_clients_and_the_base_of_practice_import_nothing_from_homework():
    offenders = upward_imports()
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
    assert upward_imports(root) == [
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
    assert upward_imports(root) == [
        "clients/a.py:1 homework.export",
        "clients/b.py:1 homework.tasks.sweep",
        "clients/c.py:1 homework",
        "clients/d.py → clients/e.py:1 homework",
        "clients/e.py:1 homework",
    ]
