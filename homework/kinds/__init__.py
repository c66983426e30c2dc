"""Exercise kinds: one module per kind, found by the registry.

Adding a kind touches only this package and its templates:

1. ``homework/kinds/<slug>.py`` (or a package ``homework/kinds/<slug>/``
   whose ``__init__`` imports its ``KIND``) defines a subclass of ``ExerciseKind`` (its
   form, validation, display and summary data) and ``KIND = ...``.
   Repeatable rows are a ``RowSpec`` on the form (see ``rows.py``); pictures
   come from ``charts/``, excerpts of a client's words from ``excerpts.py``.
2. ``templates/homework/kinds/<slug>/`` holds ``form.html``, ``display.html``,
   ``summary.html`` and, if the kind draws progress, ``progress.html``.
3. Optionally, the library (``homework/library/``) gains ready-made
   exercises of the kind, installed by a new data migration.

Nothing else names a kind: tests/test_kind_isolation.py checks that.
"""

from homework.kinds.base import ExerciseKind, ResponseInvalid
from homework.kinds.registry import all_kinds, get_kind, kind_choices

__all__ = ["ExerciseKind", "ResponseInvalid", "all_kinds", "get_kind", "kind_choices"]
