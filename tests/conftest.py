"""The named cast every test can use, and how service tests find their services.

alice and bob are clients; alice is therapist tara's, bob is therapist theo's.
morgan manages the practice. An anonymous visitor is simply no login.
"""

import inspect
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest
import time_machine
from django.conf import settings
from django.test import Client as HttpClient
from django.test.signals import setting_changed
from hypothesis import settings as hypothesis_settings

from clients.models import Client
from homework.models import Assignment, Entry
from practice.admin_access import OPENED_AS
from practice.celery import app as celery_app
from practice.models import PracticeSettings, User
from tests import factories, wall_clock
from tests.helpers import force_verified_login

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
# What tests leave to look at (PDFs, page images, screenshots); git-ignored.
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"

# Tests pin what happens, never how long it takes (no per-example deadline).
# `make test` tries a few examples of each property; `make fuzz` tries many
# (``--hypothesis-profile=fuzz``).
hypothesis_settings.register_profile("practice", max_examples=25, deadline=None)
hypothesis_settings.register_profile("fuzz", max_examples=1000, deadline=None)
hypothesis_settings.load_profile("practice")


def _redis_database_of_this_worker(url: str, worker: str) -> str:
    """REDIS_URL with its database number moved up by the xdist worker's number (gw1: +1)."""
    offset = int(worker.removeprefix("gw"))
    parts = urlsplit(url)
    if parts.scheme == "unix":
        query = dict(parse_qsl(parts.query))
        query["db"] = str(int(query.get("db", 0)) + offset)
        return urlunsplit(parts._replace(query=urlencode(query)))
    return urlunsplit(parts._replace(path=f"/{int(parts.path.strip('/') or 0) + offset}"))


def _own_redis_database_per_worker() -> None:
    """Each parallel worker uses a Redis database of its own (cache and broker):
    a test's ``cache.clear()`` is a FLUSHDB, which must not empty another worker's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not settings.REDIS_URL or not worker:
        return
    url = _redis_database_of_this_worker(settings.REDIS_URL, worker)
    caches = {**settings.CACHES, "default": {**settings.CACHES["default"], "LOCATION": url}}
    settings.REDIS_URL = url
    settings.CACHES = caches
    setting_changed.send(sender=None, setting="CACHES", value=caches, enter=True)
    settings.CELERY_BROKER_URL = url
    celery_app.conf.update(CELERY_BROKER_URL=url)


_own_redis_database_per_worker()

# The field key every test runs with, fixed (practice.encryption): set here
# for this process and in the environment for the workers and commands the
# tests start, which read the same database. Published, so never a real key.
TEST_FIELD_KEY = "dGVzdHMtb25seS1maWVsZC1rZXktbmV2ZXItcmVhbCE="
os.environ["FIELD_ENCRYPTION_KEYS"] = TEST_FIELD_KEY
settings.FIELD_ENCRYPTION_KEYS = [TEST_FIELD_KEY]


# The whole run's clock, when --suite-clock moves it (time_machine's traveller).
SUITE_CLOCK = pytest.StashKey[Any]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--clock",
        default="now",
        help="run the tests marked `clock` at each of these wall-clock moments, comma-separated: "
        f"HH:MM (today, local) or {', '.join(wall_clock.NAMED)} (default: now)",
    )
    parser.addoption(
        "--suite-clock",
        default="now",
        help="run every test at this wall-clock moment (one of --clock's names): "
        "`--suite-clock=next-year` shows the suite still passes a year from now",
    )
    parser.addoption(
        "--services-pass",
        action="store_true",
        help="run only the tests whose outcome PostgreSQL, Redis or a real worker "
        "can change (CI's services pass; depends_on_the_services)",
    )


def pytest_configure(config: pytest.Config) -> None:
    try:
        wall_clock.parse(config.getoption("clock"))
        wall_clock.parse(config.getoption("suite_clock"))
    except ValueError as bad:
        raise pytest.UsageError(str(bad)) from None
    # From before collection: a module's own "today" is read at that moment too.
    at = wall_clock.moment(config.getoption("suite_clock"))
    if at is not None:
        config.stash[SUITE_CLOCK] = time_machine.travel(at, tick=True)
        config.stash[SUITE_CLOCK].start()


def pytest_unconfigure(config: pytest.Config) -> None:
    if SUITE_CLOCK in config.stash:
        config.stash[SUITE_CLOCK].stop()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked `clock` runs once per moment ``--clock`` names."""
    if metafunc.definition.get_closest_marker("clock") is None:
        return
    names = wall_clock.parse(metafunc.config.getoption("clock"))
    if names != ["now"]:
        metafunc.parametrize(
            "wall_clock_at", names, indirect=True, ids=[f"clock={name}" for name in names]
        )


@pytest.fixture(autouse=True)
def wall_clock_at(request: pytest.FixtureRequest):
    """The wall clock moved to the moment this run of a `clock` test is for (ticking)."""
    at = wall_clock.moment(getattr(request, "param", "now"))
    if at is None:
        yield None
        return
    with time_machine.travel(at, tick=True):
        yield at


# What touches the database: pytest-django refuses any other way in.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def uses_the_database(item: pytest.Item) -> bool:
    if item.get_closest_marker("django_db") or item.get_closest_marker("services"):
        return True
    return bool(DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())))


# What in a test's own code makes its outcome the engine's: a pinned count of
# queries (an engine may plan the same ORM call differently: a savepoint, a
# lock) or SQL written by hand.
ENGINE_SPECIFIC = (
    "django_assert_num_queries",
    "CaptureQueriesContext",
    "count_queries",
    "connection.cursor",
    "RawSQL",
)


def _is_transactional(item: pytest.Item) -> bool:
    marker = item.get_closest_marker("django_db")
    if marker is not None and marker.kwargs.get("transaction"):
        return True
    return bool({"transactional_db", "live_server"} & set(getattr(item, "fixturenames", ())))


def _asks_the_engine(item: pytest.Item) -> bool:
    function = getattr(item, "function", None)
    try:
        source = inspect.getsource(function) if function else ""
    except (OSError, TypeError):
        return False
    return any(code in source for code in ENGINE_SPECIFIC)


def depends_on_the_services(item: pytest.Item) -> bool:
    """Whether PostgreSQL, Redis or a real worker can change this test's outcome:
    CI's services pass (``--services-pass``) runs these again on them. The rest
    ask the same of any engine and run once, on the embedded defaults.

    Those are: the real-service tests; the transactional ones (commits, locks,
    races); dates and clocks (each engine does its own date arithmetic); the
    migrations (each engine's DDL and data moves); the permission walk, so
    every route answers every role on PostgreSQL too; and the tests that pin
    query counts or write SQL by hand (ENGINE_SPECIFIC).
    """
    if not uses_the_database(item):
        return False
    if item.get_closest_marker("services") or item.get_closest_marker("clock"):
        return True
    module = item.path.name
    if "migration" in module or module == "test_permissions.py":
        return True
    return _is_transactional(item) or _asks_the_engine(item)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("services_pass"):
        return
    kept = [item for item in items if depends_on_the_services(item)]
    dropped = [item for item in items if not depends_on_the_services(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def services_missing() -> str | None:
    """Why the real-service tests cannot run here, or None when they can."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return "DATABASE_URL does not point at PostgreSQL"
    if not settings.REDIS_URL:
        return "REDIS_URL is not set"
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Service tests skip where the services are absent, visibly; with
    REQUIRE_SERVICES=1 (CI's second run) their absence is a failure."""
    if item.get_closest_marker("services") is None:
        return
    reason = services_missing()
    if reason is None:
        return
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}")
    pytest.skip(f"needs real services: {reason}")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Each xdist worker tests in a database of its own (pytest-django's
    suffix: test_practice_gw0), and on SQLite in a file rather than in memory.

    An in-memory database is one connection, which Django shares between the
    test and every thread of the live server the browser tests talk to: a
    save in flight and the test reading at the same moment then share one
    transaction, and a browser test can fail for a reason production does
    not have. A file gives each thread its own connection, as in production.
    """
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database.setdefault("TEST", {})["NAME"] = str(
            tmp_path_factory.mktemp("db") / "test.sqlite3"
        )


@pytest.fixture(autouse=True)
def _eager_tasks_by_default(request: pytest.FixtureRequest):
    """Tasks run in-process unless a test asks for the real worker."""
    # Settings come from Django with the CELERY_ namespace, which wins over the
    # plain name: override the namespaced key.
    eager = request.node.get_closest_marker("services") is None
    previous = celery_app.conf.task_always_eager
    celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=eager)
    yield
    celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=previous)


@pytest.fixture
def queue_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """REDIS_URL set and Redis gone: tasks are not run in-process, and the
    broker takes nothing (``monkeypatch.undo()`` and eager tasks bring it back)."""
    from practice.queue import PracticeTask

    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("Redis is down")

    celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=False)  # put back by _eager_tasks_by_default
    monkeypatch.setattr(PracticeTask, "apply_async", broker_down)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Argon2 is deliberately slow; tests/practice/test_settings.py checks it is the default.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _summaries_stored_apart(settings, tmp_path_factory):
    """No test stores a summary in var/, where a later test's key rotation
    would meet a file written with another test's key."""
    folder = tmp_path_factory.getbasetemp() / "summaries" / uuid.uuid4().hex  # made on first save
    summaries = settings.STORAGES["summaries"]
    options = {**summaries.get("OPTIONS", {}), "location": str(folder)}
    settings.STORAGES = {**settings.STORAGES, "summaries": {**summaries, "OPTIONS": options}}


@pytest.fixture(autouse=True)
def _fresh_caches():
    from django.core.cache import cache

    from practice import selectors

    cache.clear()
    yield
    cache.clear()
    selectors._cache_paused_until = 0.0  # a test's cache outage ends with it


@dataclass
class Cast:
    tara: User  # therapist of alice
    theo: User  # therapist of bob
    morgan: User  # practice manager
    alice: Client
    bob: Client
    alice_assignment: Assignment
    bob_assignment: Assignment
    alice_entry: Entry
    bob_entry: Entry


@pytest.fixture
def cast(db: None) -> Cast:
    # Transactional tests flush the row the migration made; the app recreates it too.
    PracticeSettings.objects.get_or_create(pk=1)
    tara = factories.TherapistFactory.create(email="tara@example.test", name="Tara")
    theo = factories.TherapistFactory.create(email="theo@example.test", name="Theo")
    morgan = factories.ManagerFactory.create(email="morgan@example.test", name="Morgan")
    alice = factories.ClientFactory.create(
        therapist=tara, display_name="Alice", portal_user__email="alice@example.test"
    )
    bob = factories.ClientFactory.create(
        therapist=theo, display_name="Bob", portal_user__email="bob@example.test"
    )
    alice_assignment = factories.AssignmentFactory.create(client=alice)
    bob_assignment = factories.AssignmentFactory.create(client=bob)
    return Cast(
        tara=tara,
        theo=theo,
        morgan=morgan,
        alice=alice,
        bob=bob,
        alice_assignment=alice_assignment,
        bob_assignment=bob_assignment,
        alice_entry=factories.EntryFactory.create(assignment=alice_assignment),
        bob_entry=factories.EntryFactory.create(assignment=bob_assignment),
    )


def login(user: User | None) -> HttpClient:
    """A test client signed in as ``user``; staff also verified by their
    authenticator, as the admin's two-step sign-in leaves them."""
    http = HttpClient()
    if user is not None:
        force_verified_login(http, user)
    return http


def save_change_form(http: HttpClient, url: str, data: dict[str, Any]) -> Any:
    """Post an admin change form as a person does: opened first, so it
    carries the fingerprint of what it was opened on (a stale one is refused)."""
    opened_as = http.get(url).context["opened_as"]
    return http.post(url, {**data, OPENED_AS: opened_as})


@pytest.fixture
def artifacts() -> Path:
    """The folder for what a test leaves to look at, made if it is not there yet."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(autouse=True)
def _text_messages_kept(settings):
    """Text messages go to practice.sms.outbox, emptied for each test, as
    Django's test runner does for email."""
    from practice import sms

    settings.SMS_BACKEND = "practice.sms.local.LocmemBackend"
    settings.SMS_OPTIONS = {}
    sms.outbox.clear()
    yield
    sms.outbox.clear()
