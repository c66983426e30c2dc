"""A name with a leading underscore is private to its module: no other module
of the app imports it (make it public where it is shared, or move it)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("practice", "clients", "homework")


def private_imports(source: str) -> list[str]:
    """``module.name`` for each private name ``source`` imports from the apps."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] not in APPS:
                continue
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                submodule = (ROOT / node.module.replace(".", "/") / f"{alias.name}.py").exists()
                if private and not submodule:
                    found.append(f"{node.module}.{alias.name}")
    return found


def test_no_module_of_the_app_imports_another_ones_private_name():
    found = {
        str(path.relative_to(ROOT)): names
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and (names := private_imports(path.read_text()))
    }
    assert not found, f"Private names imported from another module: {found}"


def test_the_check_sees_a_private_name_and_lets_a_public_one_and_a_module_pass():
    assert private_imports("from clients.services.clients import _require_staff") == [
        "clients.services.clients._require_staff"
    ]
    assert private_imports("from clients.services.clients import require_staff") == []
    assert private_imports("from homework.management.commands import _demo_kinds") == []
    assert private_imports("from os.path import _joinrealpath") == []
