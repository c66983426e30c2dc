"""Exercise kinds: one module per kind, found by the registry."""

from homework.kinds.base import ExerciseKind, ResponseInvalid
from homework.kinds.registry import all_kinds, get_kind, kind_choices

__all__ = ["ExerciseKind", "ResponseInvalid", "all_kinds", "get_kind", "kind_choices"]
