"""The registry of exercise kinds: each module or package here that defines ``KIND`` is one."""

import importlib
import pkgutil
from functools import cache

from homework.kinds.base import ExerciseKind

_INFRASTRUCTURE = {
    "base",
    "values",
    "answers",
    "registry",
    "fields",
    "rows",
    "data",
    "charts",
    "excerpts",
    "summaries",
    "timeline",
    "shelves",
}


@cache
def _kinds() -> dict[str, ExerciseKind]:
    package = importlib.import_module("homework.kinds")
    found: dict[str, ExerciseKind] = {}
    for module_info in pkgutil.iter_modules(package.__path__):
        if module_info.name in _INFRASTRUCTURE or module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"homework.kinds.{module_info.name}")
        kind = getattr(module, "KIND", None)
        if isinstance(kind, ExerciseKind):
            if kind.slug in found:
                raise RuntimeError(f"Two exercise kinds are named {kind.slug!r}.")
            found[kind.slug] = kind
    return dict(sorted(found.items()))


def get_kind(slug: str) -> ExerciseKind:
    try:
        return _kinds()[slug]
    except KeyError:
        raise LookupError(f"No exercise kind is named {slug!r}.") from None


def all_kinds() -> list[ExerciseKind]:
    return list(_kinds().values())


def kind_choices() -> list[tuple[str, str]]:
    return [(kind.slug, str(kind.label)) for kind in all_kinds()]
