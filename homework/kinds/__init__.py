"""Exercise kinds: one module per kind, found by the registry. A new kind is a module defining an
``ExerciseKind`` subclass and ``KIND``, plus its templates under
``templates/homework/kinds/<slug>/``; nothing else names a kind (tests/test_kind_isolation.py)."""

from homework.kinds.base import ExerciseKind, ResponseInvalid
from homework.kinds.registry import all_kinds, get_kind, kind_choices

__all__ = ["ExerciseKind", "ResponseInvalid", "all_kinds", "get_kind", "kind_choices"]
