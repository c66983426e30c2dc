"""One home for each rule, read from the source like tests/test_layering.py.

"May staff read this entry" lives in homework/models/entries.py: the query
(``Entry.objects.readable_by_staff()``, built from ``readable_by_staff_q``)
and the predicate for an entry in hand (``entry.readable_by_staff``).
Anywhere else, a literal ``private=False`` or an ``if not entry.private``
is a second copy of the rule, which the next page would copy again.

"Only a manager may" lives in practice/roles.py (``is_acting_manager``,
``require_manager``): a role read anywhere else is a second guard.
"""

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from rest_framework.request import Request

from homework.models import Entry, OutboxMessage, readable_by_staff_q
from practice.admin_access import is_manager as admin_is_manager
from practice.api.permissions import IsPracticeManager
from practice.models import User
from practice.roles import is_acting_manager, require_manager
from tests import factories

ROOT = Path(__file__).resolve().parents[1]
APPS = ("practice", "clients", "homework")

PRIVACY_HOME = "homework/models/entries.py"
# The client's own pages: they tell the client which of their entries are private.
CLIENTS_OWN = ("homework/portal/",)
PRIVACY_ALLOWED: dict[str, str] = {}
# The flags a client chose in a request, not an entry: a write decides with them.
CHOSEN_FLAGS = {"flags"}
# Templates of the client's own pages (rendered by homework/portal/).
CLIENTS_OWN_TEMPLATES = {
    "templates/homework/dashboard.html",
    "templates/homework/do.html",
    "templates/homework/entry.html",
    "templates/homework/export.html",
    "templates/homework/history.html",
}

GUARD_HOME = "practice/roles.py"
MANAGER_ALLOWED = {
    "practice/models.py": "defines the role",
    "clients/views/who_looked.py": "names the role of whoever looked, then or now; decides nothing",
}


def _app_sources() -> Iterator[tuple[str, str]]:
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" not in relative:
                yield relative, path.read_text()


def _tests(tree: ast.AST) -> Iterator[ast.expr]:
    """Expressions used as a yes or no: conditions, ``not`` and and/or operands."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            yield node.test
        elif isinstance(node, ast.comprehension):
            yield from node.ifs
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node.operand
        elif isinstance(node, ast.BoolOp):
            yield from node.values


def _receiver(node: ast.Attribute) -> str:
    value = node.value
    return value.id if isinstance(value, ast.Name) else getattr(value, "attr", "")


def privacy_literals(source: str) -> list[int]:
    """Lines that decide for themselves whether an entry is private."""
    tree = ast.parse(source)
    lines = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.keyword)
            and node.arg
            and "private" in node.arg.split("__")
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, bool)
        ):
            lines.add(node.lineno)
    for test in _tests(tree):
        if (
            isinstance(test, ast.Attribute)
            and test.attr == "private"
            and _receiver(test) not in CHOSEN_FLAGS
        ):
            lines.add(test.lineno)
    return sorted(lines)


TEMPLATE_PRIVACY_TEST = re.compile(r"{%\s*(?:el)?if\b[^%]*\.private\b")


def template_privacy_literals(source: str) -> list[int]:
    return [
        number
        for number, line in enumerate(source.splitlines(), start=1)
        if TEMPLATE_PRIVACY_TEST.search(line)
    ]


def manager_checks(source: str) -> list[int]:
    """Lines that read the manager role themselves rather than ask practice.roles."""
    lines = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "is_manager":
            lines.add(node.lineno)
        elif isinstance(node, ast.Compare):
            compared = [node.left, *node.comparators]
            if any(isinstance(side, ast.Attribute) and side.attr == "MANAGER" for side in compared):
                lines.add(node.lineno)
    return sorted(lines)


def test_may_staff_read_an_entry_has_one_home() -> None:
    found = [
        f"{path}:{line}"
        for path, source in _app_sources()
        if path != PRIVACY_HOME and path not in PRIVACY_ALLOWED and not path.startswith(CLIENTS_OWN)
        for line in privacy_literals(source)
    ]
    for path in sorted((ROOT / "templates").rglob("*.html")):
        relative = path.relative_to(ROOT).as_posix()
        if relative not in CLIENTS_OWN_TEMPLATES:
            found += [f"{relative}:{line}" for line in template_privacy_literals(path.read_text())]
    assert not found, f"Ask Entry.readable_by_staff / readable_by_staff() instead: {found}"


def test_only_a_manager_may_has_one_home() -> None:
    found = [
        f"{path}:{line}"
        for path, source in _app_sources()
        if path != GUARD_HOME and path not in MANAGER_ALLOWED
        for line in manager_checks(source)
    ]
    assert not found, f"Ask practice.roles instead: {found}"


@pytest.mark.parametrize(
    "source",
    [
        "Entry.objects.filter(private=False)",
        "entries.exclude(private=True)",
        "shared = Q(private=False)",
        "OutboxMessage.objects.filter(entry__private=False)",
        "if not entry.private:\n    pass",
        "if entry.private:\n    pass",
        "shown = [e for e in entries if not e.private]",
        "words = None if obj.private else obj.response",
        "ok = entry.is_submitted and not entry.private",
    ],
)
def test_a_copy_of_the_privacy_rule_is_caught(source: str) -> None:
    assert privacy_literals(source) != []


@pytest.mark.parametrize(
    "source",
    [
        "Entry.objects.readable_by_staff()",
        "entries.filter(readable_by_staff_q(), seen_at__isnull=True)",
        "if entry.readable_by_staff:\n    pass",
        "entry.private = flags.private",
        "shared_at = None if flags.private else now",
        "services.entry_set_private(user=user, key=key, private=chosen)",
        "if entry.private == private:\n    return entry",
    ],
)
def test_asking_the_privacy_rule_is_not_a_copy(source: str) -> None:
    assert privacy_literals(source) == []


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ('{% if not entry.private %}<a href="#">Read</a>{% endif %}', True),
        ("{% elif entry.private %}", True),
        ("{% if not entry.readable_by_staff %}private{% endif %}", False),
    ],
)
def test_a_staff_template_testing_privacy_is_caught(source: str, caught: bool) -> None:
    assert bool(template_privacy_literals(source)) is caught


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("if not (actor.is_active and actor.is_manager):\n    raise PermissionDenied", True),
        ("return isinstance(user, User) and user.is_active and user.is_manager", True),
        ("if request.user.is_manager:\n    pass", True),
        ("ok = user.role == User.Role.MANAGER", True),
        ("require_manager(actor, refusal=_('Only the manager.'))", False),
        ("if not is_acting_manager(user):\n    return Client.objects.none()", False),
        ("User.objects.filter(role=User.Role.MANAGER, is_active=True)", False),
    ],
)
def test_a_copy_of_the_manager_guard_is_caught(source: str, caught: bool) -> None:
    assert bool(manager_checks(source)) is caught


# -- the rule's two forms agree, and every reader asks them


@pytest.mark.django_db
def test_the_query_and_the_predicate_agree_on_every_entry(cast) -> None:
    made = {
        (status, private): factories.EntryFactory.create(
            assignment=cast.alice_assignment,
            status=status,
            private=private,
            submitted_at=None if status == Entry.Status.DRAFT else cast.alice_entry.submitted_at,
        )
        for status in Entry.Status.values
        for private in (False, True)
    }
    ids = [entry.pk for entry in made.values()]
    by_query = set(
        Entry.objects.readable_by_staff().filter(pk__in=ids).values_list("pk", flat=True)
    )
    by_predicate = {
        entry.pk for entry in Entry.objects.filter(pk__in=ids) if entry.readable_by_staff
    }
    through = set(
        OutboxMessage.objects.filter(readable_by_staff_q("entry__"), entry__in=ids).values_list(
            "entry_id", flat=True
        )
    )
    shared_and_sent = {made[Entry.Status.SUBMITTED, False].pk}
    assert by_query == by_predicate == through == shared_and_sent


# -- the guard, as every caller meets it


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "may"),
    [("tara", False), ("alice", False), ("morgan", True), ("closed_manager", False)],
)
def test_only_an_active_manager_passes_every_form_of_the_guard(cast, who: str, may: bool) -> None:
    if who == "alice":
        user = factories.UserFactory.create(role=User.Role.CLIENT)
    elif who == "closed_manager":
        user = factories.ManagerFactory.create(is_active=False)
    else:
        user = getattr(cast, who)
    request = RequestFactory().get("/")
    request.user = user
    assert is_acting_manager(user) is may
    api_request = Request(request)
    api_request.user = user
    assert IsPracticeManager().has_permission(api_request, None) is may  # type: ignore[arg-type]
    assert admin_is_manager(request) is (may and user.is_staff)
    if may:
        assert require_manager(user) is user
    else:
        with pytest.raises(PermissionDenied, match="Only the manager counts"):
            require_manager(user, refusal="Only the manager counts")
