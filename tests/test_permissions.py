"""Every route the resolver knows, walked as every role.

Each route needs a row here, or this test fails: a new URL cannot ship
without someone deciding who may reach it. Statuses are in ROLES order.
The object behind a route with an id belongs to alice (therapist: tara).
"archived" is a client of tara's whom she archived: their notebook is
closed, so the portal sends them to its closed page (302) but for the few
routes left open to them (their download, password, signing out).
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.contrib.contenttypes.models import ContentType
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from knox.models import AuthToken

from clients import lockout
from clients.models import AccessEvent
from homework.models import Alert, ClientProgram, PreparedDownload, Release
from homework.selectors import client_today
from homework.services.programs import client_program_create
from practice.encryption import codec
from tests.conftest import Cast, login
from tests.factories import EntryFactory
from tests.helpers import assert_safe_shell
from tests.helpers_programs import build

ROLES = ("anonymous", "alice", "bob", "tara", "theo", "morgan", "archived")

# Routes anyone may open signed out. Everything else needs a login.
PUBLIC = {
    "login/",
    "help-now/",
    "favicon.ico",
    "health/",
    "admin/login/",
    "password/reset/",
    "password/reset/sent/",
    "password/reset/<uidb64>/<token>/",
    "password/reset/done/",
    "admin/password/reset/",
    "admin/password/reset/sent/",
    "admin/password/reset/<uidb64>/<token>/",
    "admin/password/reset/done/",
    "welcome/sent/",
}


@dataclass(frozen=True)
class Row:
    path: Callable[[Cast], str]
    statuses: str  # one per role, in ROLES order
    method: str = "get"


def fixed(path: str) -> Callable[[Cast], str]:
    return lambda cast: path


def admin_object(model: str, suffix: str, pick: Callable[[Cast], int]) -> Callable[[Cast], str]:
    return lambda cast: f"/admin/{model}/{pick(cast)}/{suffix}"


ALICE = lambda cast: cast.alice.pk  # noqa: E731
ALICE_SESSION = lambda cast: cast.alice.sessions.get().pk  # noqa: E731
ALICE_EXERCISE = lambda cast: cast.alice_assignment.exercise.pk  # noqa: E731
ALICE_ASSIGNMENT = lambda cast: cast.alice_assignment.pk  # noqa: E731
ALICE_ENTRY = lambda cast: cast.alice_entry.pk  # noqa: E731
SETTINGS_ROW = lambda cast: 1  # noqa: E731
ALICE_LOOK = lambda cast: AccessEvent.objects.get_or_create(  # noqa: E731
    client=cast.alice, actor=cast.tara, action=AccessEvent.Action.VIEWED
)[0].pk
A_FAILED_SIGN_IN = lambda cast: AccessFailureLog.objects.get_or_create(  # noqa: E731
    username="alice@example.test", ip_address="203.0.113.9", path_info="/login/"
)[0].pk
A_LOCK = lambda cast: AccessAttempt.objects.get_or_create(  # noqa: E731
    username="alice@example.test",
    ip_address="203.0.113.9",
    user_agent="",
    defaults={"failures_since_start": lockout.ACCOUNT_FAILURES},
)[0].pk
ALICE_TOKEN = lambda cast: AuthToken.objects.create(cast.alice.portal_user)[0].token_key  # noqa: E731
ALICE_DOWNLOAD = lambda cast: PreparedDownload.objects.get_or_create(  # noqa: E731
    client=cast.alice,
    defaults={
        "state": PreparedDownload.State.READY,
        "touched_at": timezone.now(),
        "sealed_file": codec().encrypt(b"%PDF-1.7"),
    },
)[0].key
ALICE_PROGRAM = lambda cast: alice_on_a_program(cast).pk  # noqa: E731
# An open alert on a felt-unsafe entry of alice's (the factory raises it as the services do).
ALICE_ALERT = lambda cast: (  # noqa: E731
    Alert.objects.filter(client=cast.alice).first()
    or EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True).alerts.get()
).pk
A_PROGRAM = lambda cast: alice_on_a_program(cast).program_id  # noqa: E731
# A practice account: a client's is not in the users list at all (test_admin_clients).
A_USER = lambda cast: cast.theo.pk  # noqa: E731


# Admin statuses: 302 sends the signed-out and clients to the admin login, and
# staff to the admin index when an object is not theirs; 403 is a role without
# that operation; 405 is a GET where only POST is taken.
def alice_on_a_program(cast: Cast) -> ClientProgram:
    """A program of tara's that alice is on, made once per walk."""
    found = ClientProgram.objects.filter(client=cast.alice).first()
    if found is not None:
        return found
    program = build(cast.tara, (Release.RIGHT_AWAY, None), (Release.AFTER_PREVIOUS, None))
    return client_program_create(
        actor=cast.tara, client=cast.alice, program=program, starts_on=client_today(cast.alice)
    )


def program_action(action: str) -> Callable[[Cast], str]:
    return lambda cast: f"/api/v1/client-programs/{ALICE_PROGRAM(cast)}/{action}/"


def program_button(action: str) -> Callable[[Cast], str]:
    return lambda cast: (
        f"/admin/clients/client/{cast.alice.pk}/programs/{ALICE_PROGRAM(cast)}/{action}/"
    )


TABLE: dict[str, Row] = {
    # -- the portal
    "": Row(fixed("/"), "302 200 200 302 302 302 302"),
    "history/": Row(fixed("/history/"), "302 200 200 302 302 302 302"),
    "progress/": Row(fixed("/progress/"), "302 200 200 302 302 302 302"),
    "do/<int:assignment_id>/": Row(
        lambda c: f"/do/{c.alice_assignment.pk}/", "302 200 404 302 302 302 302"
    ),
    "do/<int:assignment_id>/save/": Row(
        lambda c: f"/do/{c.alice_assignment.pk}/save/", "302 400 404 302 302 302 302", "post"
    ),
    "entries/<uuid:key>/": Row(
        lambda c: f"/entries/{c.alice_entry.key}/", "302 200 404 302 302 302 302"
    ),
    "entries/<uuid:key>/edit/": Row(
        lambda c: f"/entries/{c.alice_entry.key}/edit/", "302 200 404 302 302 302 302"
    ),
    "entries/<uuid:key>/privacy/": Row(
        lambda c: f"/entries/{c.alice_entry.key}/privacy/", "302 400 404 302 302 302 302", "post"
    ),
    "entries/<uuid:key>/notes/": Row(
        lambda c: f"/entries/{c.alice_entry.key}/notes/", "302 400 404 302 302 302 302", "post"
    ),
    # -- accounts: getting in (signed out), and the client's own settings
    "login/": Row(fixed("/login/"), "200 302 302 302 302 302 302"),
    "login/code/": Row(fixed("/login/code/"), "302 302 302 302 302 302 302"),
    # The second step without the phone: only after the right password (none here).
    "login/lost-phone/": Row(fixed("/login/lost-phone/"), "302 302 302 302 302 302 302"),
    "welcome/<str:token>/": Row(fixed("/welcome/not-a-real-token/"), "404 404 404 404 404 404 404"),
    "welcome/": Row(fixed("/welcome/"), "404 404 404 404 404 404 404"),
    # "Check your email", the same page for anyone: it names no address.
    "welcome/sent/": Row(fixed("/welcome/sent/"), "200 200 200 200 200 200 200"),
    "welcome/finish/<str:token>/": Row(
        fixed("/welcome/finish/not-a-real-token/"), "404 404 404 404 404 404 404"
    ),
    "welcome/finish/": Row(fixed("/welcome/finish/"), "404 404 404 404 404 404 404"),
    "password/reset/": Row(fixed("/password/reset/"), "200 200 200 200 200 200 200"),
    "password/reset/sent/": Row(fixed("/password/reset/sent/"), "200 200 200 200 200 200 200"),
    "password/reset/<uidb64>/<token>/": Row(
        fixed("/password/reset/MQ/not-a-token/"), "200 200 200 200 200 200 200"
    ),
    "password/reset/done/": Row(fixed("/password/reset/done/"), "200 200 200 200 200 200 200"),
    # staff's own, the same pages beside the admin's sign-in (tests/clients/test_staff_password_reset.py)
    "admin/password/reset/": Row(fixed("/admin/password/reset/"), "200 200 200 200 200 200 200"),
    "admin/password/reset/sent/": Row(
        fixed("/admin/password/reset/sent/"), "200 200 200 200 200 200 200"
    ),
    "admin/password/reset/<uidb64>/<token>/": Row(
        fixed("/admin/password/reset/MQ/not-a-token/"), "200 200 200 200 200 200 200"
    ),
    "admin/password/reset/done/": Row(
        fixed("/admin/password/reset/done/"), "200 200 200 200 200 200 200"
    ),
    "account/": Row(fixed("/account/"), "302 200 200 302 302 302 302"),
    # who at the practice looked at the client's records: their own, an archived client's too
    "account/who-looked/": Row(fixed("/account/who-looked/"), "302 200 200 302 302 302 200"),
    # the client's own contact profile; turning every message off stays open to an archived client
    "account/contact/": Row(fixed("/account/contact/"), "302 200 200 302 302 302 302"),
    "account/contact/off/": Row(
        fixed("/account/contact/off/"), "302 302 302 302 302 302 302", "post"
    ),
    "account/closed/": Row(fixed("/account/closed/"), "302 302 302 302 302 302 200"),
    "account/password/": Row(fixed("/account/password/"), "302 400 400 302 302 302 400", "post"),
    # an empty choice is refused; an archived client's notebook is closed
    "account/language/": Row(fixed("/account/language/"), "302 400 400 302 302 302 302", "post"),
    "account/two-step/": Row(fixed("/account/two-step/"), "302 302 302 302 302 302 302"),
    "account/two-step/off/": Row(
        fixed("/account/two-step/off/"), "302 400 400 302 302 302 302", "post"
    ),
    # a new list of recovery codes: a code from the app first (none here, so 400)
    "account/two-step/codes/": Row(
        fixed("/account/two-step/codes/"), "302 400 400 302 302 302 302", "post"
    ),
    "account/sign-out-everywhere/": Row(
        fixed("/account/sign-out-everywhere/"), "302 302 302 302 302 302 302", "post"
    ),
    "account/still-here/": Row(
        fixed("/account/still-here/"), "302 204 204 302 302 302 204", "post"
    ),
    "account/token/": Row(fixed("/account/token/"), "302 200 200 302 302 302 200"),
    "account/exit-note/": Row(fixed("/account/exit-note/"), "302 302 302 302 302 302 302", "post"),
    "account/export.json": Row(fixed("/account/export.json"), "302 200 200 302 302 302 200"),
    "account/export.pdf": Row(fixed("/account/export.pdf"), "302 200 200 302 302 302 200"),
    # a long notebook's PDF, prepared in the background: asked for (a short one comes at
    # once), followed, then fetched once by its owner; anyone else's fetch is a 404
    "account/download/": Row(fixed("/account/download/"), "302 200 200 302 302 302 200", "post"),
    "account/download/progress/": Row(
        fixed("/account/download/progress/"), "302 200 200 302 302 302 200"
    ),
    "account/download/status/": Row(
        fixed("/account/download/status/"), "302 200 200 302 302 302 200"
    ),
    "account/download/<uuid:key>/": Row(
        lambda c: f"/account/download/{ALICE_DOWNLOAD(c)}/", "404 200 404 404 404 404 404", "post"
    ),
    "logout/": Row(fixed("/logout/"), "302 302 302 302 302 302 302", "post"),
    "exit/": Row(fixed("/exit/"), "302 302 302 302 302 302 302", "post"),
    "help-now/": Row(fixed("/help-now/"), "200 200 200 200 200 200 200"),
    "favicon.ico": Row(fixed("/favicon.ico"), "301 301 301 301 301 301 301"),
    "health/": Row(fixed("/health/"), "200 200 200 200 200 200 200"),
    # -- the REST API: a token or the session; the signed-out are asked for a token
    # (401); staff routes refuse clients; 404 for others' records
    "api/schema/": Row(fixed("/api/schema/"), "401 200 200 200 200 200 200"),
    "api/docs/": Row(fixed("/api/docs/"), "401 200 200 200 200 200 200"),
    # Anyone may ask for a token, in JSON: a form's post is refused as another media type.
    "api/v1/auth/token/": Row(fixed("/api/v1/auth/token/"), "415 415 415 415 415 415 415", "post"),
    "api/v1/auth/tokens/": Row(fixed("/api/v1/auth/tokens/"), "401 200 200 200 200 200 200"),
    "api/v1/auth/tokens/<str:token_id>/": Row(
        lambda c: f"/api/v1/auth/tokens/{ALICE_TOKEN(c)}/", "401 204 404 404 404 404 404", "delete"
    ),
    # the client's own: staff are refused (their routes are their own); an archived client
    # keeps only its download
    "api/v1/assignments/": Row(fixed("/api/v1/assignments/"), "401 200 200 403 403 403 403"),
    "api/v1/assignments/<int:assignment_id>/": Row(
        lambda c: f"/api/v1/assignments/{c.alice_assignment.pk}/", "401 200 404 403 403 403 403"
    ),
    "api/v1/assignments/<int:assignment_id>/entries/": Row(
        lambda c: f"/api/v1/assignments/{c.alice_assignment.pk}/entries/",
        "401 200 404 403 403 403 403",
    ),
    "api/v1/entries/<uuid:key>/": Row(
        lambda c: f"/api/v1/entries/{c.alice_entry.key}/", "401 200 404 403 403 403 403"
    ),
    "api/v1/entries/<uuid:key>/notes/": Row(
        # the walk posts a form: the owner is told the API takes JSON (415)
        lambda c: f"/api/v1/entries/{c.alice_entry.key}/notes/",
        "401 415 404 403 403 403 403",
        "post",
    ),
    "api/v1/me/contact-profile/": Row(
        fixed("/api/v1/me/contact-profile/"), "401 200 200 403 403 403 403"
    ),
    # only "step N of M" and paused or not, of their own programs
    "api/v1/me/programs/": Row(fixed("/api/v1/me/programs/"), "401 200 200 403 403 403 403"),
    "api/v1/me/export/": Row(fixed("/api/v1/me/export/"), "401 200 200 403 403 403 200"),
    # the staff's: a therapist their own clients, the manager all; clients refused
    "api/v1/clients/": Row(fixed("/api/v1/clients/"), "401 403 403 200 200 200 403"),
    "api/v1/clients/<int:client_id>/": Row(
        lambda c: f"/api/v1/clients/{c.alice.pk}/", "401 403 403 200 404 200 403"
    ),
    "api/v1/clients/<int:client_id>/sessions/": Row(
        lambda c: f"/api/v1/clients/{c.alice.pk}/sessions/", "401 403 403 200 404 200 403"
    ),
    "api/v1/clients/<int:client_id>/assignments/": Row(
        lambda c: f"/api/v1/clients/{c.alice.pk}/assignments/", "401 403 403 200 404 200 403"
    ),
    "api/v1/clients/<int:client_id>/entries/": Row(
        lambda c: f"/api/v1/clients/{c.alice.pk}/entries/", "401 403 403 200 404 200 403"
    ),
    # the walk posts a form: staff who may see alice are told the API takes JSON (415);
    # who may mark is tested in tests/homework/test_mark_read.py
    "api/v1/clients/<int:client_id>/entries/read/": Row(
        lambda c: f"/api/v1/clients/{c.alice.pk}/entries/read/",
        "401 403 403 415 404 415 403",
        "post",
    ),
    # the walk posts a form: those who may comment are told the API takes JSON (415)
    "api/v1/entries/<uuid:key>/comments/": Row(
        lambda c: f"/api/v1/entries/{c.alice_entry.key}/comments/",
        "401 403 403 415 404 415 403",
        "post",
    ),
    "api/v1/exercises/": Row(fixed("/api/v1/exercises/"), "401 403 403 200 200 200 403"),
    "api/v1/programs/": Row(fixed("/api/v1/programs/"), "401 403 403 200 200 200 403"),
    "api/v1/programs/<int:program_id>/": Row(
        lambda c: f"/api/v1/programs/{A_PROGRAM(c)}/", "401 403 403 200 404 200 403"
    ),
    "api/v1/clients/<int:client_id>/programs/": Row(
        lambda c: f"/api/v1/clients/{c.alice.pk}/programs/", "401 403 403 200 404 200 403"
    ),
    # the walk posts a form: staff who may see alice's program are told the API takes JSON (415)
    **{
        f"api/v1/client-programs/<int:client_program_id>/{action}/": Row(
            program_action(action),
            "401 403 403 415 404 415 403",
            "post",
        )
        for action in ("pause", "resume", "stop", "skip")
    },
    # A client's alerts are staff's: never any client's, never another therapist's.
    "api/v1/clients/<int:client_id>/alerts/": Row(
        lambda c: f"/api/v1/clients/{c.alice.pk}/alerts/", "401 403 403 200 404 200 403"
    ),
    # the walk posts a form: those who may acknowledge are told the API takes JSON (415);
    # who may, and twice at once, in tests/api/test_alerts.py
    "api/v1/alerts/<int:alert_id>/acknowledge/": Row(
        lambda c: f"/api/v1/alerts/{ALICE_ALERT(c)}/acknowledge/",
        "401 403 403 415 404 415 403",
        "post",
    ),
    "api/v1/access-log/": Row(fixed("/api/v1/access-log/"), "401 403 403 403 403 200 403"),
    "api/v1/^(?P<rest>.*)$": Row(fixed("/api/v1/no-such-thing/"), "404 404 404 404 404 404 404"),
    "api/v1/clients/<int:client_id>/summary.pdf": Row(
        lambda c: f"/api/v1/clients/{c.alice.pk}/summary.pdf", "401 403 403 200 404 200 403"
    ),
    "api/v1/clients/<int:client_id>/fhir/": Row(
        lambda c: f"/api/v1/clients/{c.alice.pk}/fhir/", "401 403 403 200 404 200 403"
    ),
    # -- the admin's own pages
    "admin/": Row(fixed("/admin/"), "302 302 302 200 200 200 302"),
    "admin/caseload/": Row(fixed("/admin/caseload/"), "302 302 302 200 200 200 302"),
    "admin/alerts/": Row(fixed("/admin/alerts/"), "302 302 302 200 200 200 302"),
    # An empty note: tara and morgan are asked what they did (400); theo finds no such alert.
    "admin/alerts/<int:alert_id>/acknowledge/": Row(
        lambda c: f"/admin/alerts/{ALICE_ALERT(c)}/acknowledge/",
        "302 302 302 400 404 400 302",
        "post",
    ),
    "admin/login/": Row(fixed("/admin/login/"), "200 200 200 302 302 302 200"),
    "admin/logout/": Row(fixed("/admin/logout/"), "302 302 302 405 405 405 302"),
    # The second step needs a right password first (none here): back to the password.
    "admin/login/code/": Row(fixed("/admin/login/code/"), "302 302 302 302 302 302 302"),
    "admin/login/enrol/": Row(fixed("/admin/login/enrol/"), "302 302 302 302 302 302 302"),
    # Staff are signed out (everywhere); everyone else is sent to the admin's login.
    "admin/sign-out-everywhere/": Row(
        fixed("/admin/sign-out-everywhere/"), "302 302 302 302 302 302 302", "post"
    ),
    "admin/password_change/": Row(fixed("/admin/password_change/"), "302 302 302 200 200 200 302"),
    "admin/password_change/done/": Row(
        fixed("/admin/password_change/done/"), "302 302 302 200 200 200 302"
    ),
    "admin/autocomplete/": Row(
        fixed(
            "/admin/autocomplete/?app_label=homework&model_name=assignment&field_name=exercise&term="
        ),
        "302 302 302 200 200 200 302",
    ),
    "admin/jsi18n/": Row(fixed("/admin/jsi18n/"), "302 302 302 200 200 200 302"),
    "admin/r/<path:content_type_id>/<path:object_id>/": Row(
        lambda c: f"/admin/r/{ContentType.objects.get_for_model(c.alice).pk}/{c.alice.pk}/",
        "302 302 302 404 404 404 302",
    ),
    "admin/^(?P<app_label>practice|clients|homework)/$": Row(
        fixed("/admin/homework/"), "302 302 302 200 200 200 302"
    ),
    "admin/(?P<url>.*)$": Row(fixed("/admin/no-such-page/"), "302 302 302 404 404 404 302"),
    # -- the Staff pages: the manager's alone (theo, with a client, is the one shown)
    "admin/staff/": Row(fixed("/admin/staff/"), "302 302 302 403 403 200 302"),
    "admin/staff/invite/": Row(fixed("/admin/staff/invite/"), "302 302 302 403 403 200 302"),
    "admin/staff/<int:user_id>/close/": Row(
        admin_object("staff", "close/", A_USER), "302 302 302 403 403 200 302"
    ),
    # Opening an open account changes nothing, and goes back to the list.
    "admin/staff/<int:user_id>/reopen/": Row(
        admin_object("staff", "reopen/", A_USER), "302 302 302 403 403 302 302", "post"
    ),
    "admin/staff/<int:user_id>/hand-over/": Row(
        admin_object("staff", "hand-over/", A_USER), "302 302 302 403 403 200 302"
    ),
    "admin/staff/<int:user_id>/reset-second-factor/": Row(
        admin_object("staff", "reset-second-factor/", A_USER), "302 302 302 403 403 200 302"
    ),
    # A staff member's own new recovery codes (a code from the app first).
    "admin/recovery-codes/": Row(fixed("/admin/recovery-codes/"), "302 302 302 200 200 200 302"),
    "admin/language/": Row(fixed("/admin/language/"), "302 302 302 200 200 200 302"),
    # A new staff member's invitation link: a made-up one is no one's.
    "admin/welcome/<str:token>/": Row(
        fixed("/admin/welcome/not-a-real-token/"), "404 404 404 404 404 404 404"
    ),
    "admin/welcome/": Row(fixed("/admin/welcome/"), "404 404 404 404 404 404 404"),
    # -- users (manager only, read-only)
    "admin/practice/user/": Row(fixed("/admin/practice/user/"), "302 302 302 403 403 200 302"),
    "admin/practice/user/add/": Row(
        fixed("/admin/practice/user/add/"), "302 302 302 403 403 403 302"
    ),
    "admin/practice/user/<path:object_id>/history/": Row(
        admin_object("practice/user", "history/", A_USER), "302 302 302 403 403 200 302"
    ),
    "admin/practice/user/<path:object_id>/delete/": Row(
        admin_object("practice/user", "delete/", A_USER), "302 302 302 403 403 403 302"
    ),
    "admin/practice/user/<path:object_id>/change/": Row(
        admin_object("practice/user", "change/", A_USER), "302 302 302 403 403 200 302"
    ),
    "admin/practice/user/<path:object_id>/": Row(
        admin_object("practice/user", "", A_USER), "302 302 302 302 302 302 302"
    ),
    # -- practice settings (manager only)
    # The list of one row goes straight to that row's form.
    "admin/practice/practicesettings/": Row(
        fixed("/admin/practice/practicesettings/"), "302 302 302 403 403 302 302"
    ),
    "admin/practice/practicesettings/add/": Row(
        fixed("/admin/practice/practicesettings/add/"), "302 302 302 403 403 403 302"
    ),
    "admin/practice/practicesettings/<path:object_id>/history/": Row(
        admin_object("practice/practicesettings", "history/", SETTINGS_ROW),
        "302 302 302 403 403 200 302",
    ),
    "admin/practice/practicesettings/<path:object_id>/delete/": Row(
        admin_object("practice/practicesettings", "delete/", SETTINGS_ROW),
        "302 302 302 403 403 403 302",
    ),
    "admin/practice/practicesettings/<path:object_id>/change/": Row(
        admin_object("practice/practicesettings", "change/", SETTINGS_ROW),
        "302 302 302 403 403 200 302",
    ),
    "admin/practice/practicesettings/<path:object_id>/": Row(
        admin_object("practice/practicesettings", "", SETTINGS_ROW), "302 302 302 302 302 302 302"
    ),
    # -- clients: their therapist and the manager; nobody deletes here
    "admin/clients/client/": Row(fixed("/admin/clients/client/"), "302 302 302 200 200 200 302"),
    "admin/clients/client/add/": Row(
        fixed("/admin/clients/client/add/"), "302 302 302 200 200 200 302"
    ),
    "admin/clients/client/<path:object_id>/history/": Row(
        admin_object("clients/client", "history/", ALICE), "302 302 302 200 302 200 302"
    ),
    "admin/clients/client/<path:object_id>/delete/": Row(
        admin_object("clients/client", "delete/", ALICE), "302 302 302 403 403 403 302"
    ),
    "admin/clients/client/<path:object_id>/change/": Row(
        admin_object("clients/client", "change/", ALICE), "302 302 302 200 302 200 302"
    ),
    # setting the contact profile with the client: another therapist finds no such page
    "admin/clients/client/<path:object_id>/contact/": Row(
        admin_object("clients/client", "contact/", ALICE), "302 302 302 200 404 200 302"
    ),
    # turning off a client's two-step sign-in: GET asks to confirm; another
    # therapist's client is not found (the POST: tests/clients/test_two_step_recovery.py)
    "admin/clients/client/<path:object_id>/two-step-off/": Row(
        admin_object("clients/client", "two-step-off/", ALICE), "302 302 302 200 302 200 302"
    ),
    "admin/clients/client/<path:object_id>/invite/": Row(
        admin_object("clients/client", "invite/", ALICE), "302 302 302 200 302 200 302"
    ),
    "admin/clients/client/<path:object_id>/": Row(
        admin_object("clients/client", "", ALICE), "302 302 302 302 302 302 302"
    ),
    # the Sessions card's pages: GET draws the form or asks to confirm (tests/clients/test_session_pages.py)
    "admin/clients/client/<path:object_id>/sessions/add/": Row(
        admin_object("clients/client", "sessions/add/", ALICE), "302 302 302 200 302 200 302"
    ),
    "admin/clients/client/<path:object_id>/sessions/<int:session_id>/": Row(
        lambda cast: f"/admin/clients/client/{cast.alice.pk}/sessions/{ALICE_SESSION(cast)}/",
        "302 302 302 200 302 200 302",
    ),
    "admin/clients/client/<path:object_id>/sessions/<int:session_id>/remove/": Row(
        lambda cast: (
            f"/admin/clients/client/{cast.alice.pk}/sessions/{ALICE_SESSION(cast)}/remove/"
        ),
        "302 302 302 200 302 200 302",
    ),
    "admin/clients/client/<path:object_id>/since-last-session/": Row(
        admin_object("clients/client", "since-last-session/", ALICE), "302 302 302 200 302 200 302"
    ),
    # "Mark as read" posts here and goes back to a page: with nothing chosen,
    # tara and morgan are told why, theo finds no such client (the admin's
    # home); who may mark what is tested in tests/homework/test_mark_read.py.
    "admin/clients/client/<path:object_id>/mark-read/": Row(
        admin_object("clients/client", "mark-read/", ALICE), "302 302 302 302 302 302 302", "post"
    ),
    # A client's programs from their page: another therapist finds no such client; each button
    # goes back to the page with the service's word (tests/homework/test_admin_client_programs.py).
    "admin/clients/client/<path:object_id>/programs/assign/": Row(
        admin_object("clients/client", "programs/assign/", ALICE), "302 302 302 200 404 200 302"
    ),
    **{
        f"admin/clients/client/<path:object_id>/programs/<int:client_program_id>/{action}/": Row(
            program_button(action), "302 302 302 302 404 302 302", "post"
        )
        for action in ("pause", "resume", "skip", "stop")
    },
    # GET asks to confirm; the POST is tested with the archive service.
    "admin/clients/client/<path:object_id>/archive/": Row(
        admin_object("clients/client", "archive/", ALICE), "302 302 302 200 302 200 302"
    ),
    # the session summary PDF: the client's therapist and the manager
    "admin/clients/client/<path:object_id>/summary/": Row(
        admin_object("clients/client", "summary/", ALICE), "302 302 302 200 404 200 302"
    ),
    # "Export and erase": the manager's alone; other staff find no such page.
    # The POST is tested with the erasure (tests/homework/test_erasure.py).
    "admin/clients/client/<path:object_id>/erase/": Row(
        admin_object("clients/client", "erase/", ALICE), "302 302 302 404 404 200 302"
    ),
    "admin/clients/client/<path:object_id>/erase/export.json": Row(
        admin_object("clients/client", "erase/export.json", ALICE), "302 302 302 404 404 200 302"
    ),
    "admin/clients/client/<path:object_id>/erase/export.pdf": Row(
        admin_object("clients/client", "erase/export.pdf", ALICE), "302 302 302 404 404 200 302"
    ),
    # -- sessions: read here, edited on the client page
    "admin/clients/session/": Row(fixed("/admin/clients/session/"), "302 302 302 200 200 200 302"),
    "admin/clients/session/add/": Row(
        fixed("/admin/clients/session/add/"), "302 302 302 403 403 403 302"
    ),
    "admin/clients/session/<path:object_id>/history/": Row(
        admin_object("clients/session", "history/", ALICE_SESSION), "302 302 302 200 302 200 302"
    ),
    "admin/clients/session/<path:object_id>/delete/": Row(
        admin_object("clients/session", "delete/", ALICE_SESSION), "302 302 302 403 403 403 302"
    ),
    "admin/clients/session/<path:object_id>/change/": Row(
        # to the Sessions card's form on the client's page
        admin_object("clients/session", "change/", ALICE_SESSION),
        "302 302 302 302 302 302 302",
    ),
    "admin/clients/session/<path:object_id>/": Row(
        admin_object("clients/session", "", ALICE_SESSION), "302 302 302 302 302 302 302"
    ),
    # -- the access log: the manager's alone, read-only
    "admin/clients/accessevent/": Row(
        fixed("/admin/clients/accessevent/"), "302 302 302 403 403 200 302"
    ),
    # the log as CSV, filtered as the list is, for an audit
    "admin/clients/accessevent/export.csv": Row(
        fixed("/admin/clients/accessevent/export.csv"), "302 302 302 403 403 200 302"
    ),
    "admin/clients/accessevent/add/": Row(
        fixed("/admin/clients/accessevent/add/"), "302 302 302 403 403 403 302"
    ),
    "admin/clients/accessevent/<path:object_id>/history/": Row(
        admin_object("clients/accessevent", "history/", ALICE_LOOK), "302 302 302 302 302 200 302"
    ),
    "admin/clients/accessevent/<path:object_id>/delete/": Row(
        admin_object("clients/accessevent", "delete/", ALICE_LOOK), "302 302 302 403 403 403 302"
    ),
    "admin/clients/accessevent/<path:object_id>/change/": Row(
        admin_object("clients/accessevent", "change/", ALICE_LOOK), "302 302 302 403 403 200 302"
    ),
    "admin/clients/accessevent/<path:object_id>/": Row(
        admin_object("clients/accessevent", "", ALICE_LOOK), "302 302 302 302 302 302 302"
    ),
    # -- failed sign-ins: the manager's alone, read-only
    "admin/clients/signinfailure/": Row(
        fixed("/admin/clients/signinfailure/"), "302 302 302 403 403 200 302"
    ),
    "admin/clients/signinfailure/add/": Row(
        fixed("/admin/clients/signinfailure/add/"), "302 302 302 403 403 403 302"
    ),
    "admin/clients/signinfailure/<path:object_id>/history/": Row(
        admin_object("clients/signinfailure", "history/", A_FAILED_SIGN_IN),
        "302 302 302 302 302 200 302",
    ),
    "admin/clients/signinfailure/<path:object_id>/delete/": Row(
        admin_object("clients/signinfailure", "delete/", A_FAILED_SIGN_IN),
        "302 302 302 403 403 403 302",
    ),
    "admin/clients/signinfailure/<path:object_id>/change/": Row(
        admin_object("clients/signinfailure", "change/", A_FAILED_SIGN_IN),
        "302 302 302 403 403 200 302",
    ),
    "admin/clients/signinfailure/<path:object_id>/": Row(
        admin_object("clients/signinfailure", "", A_FAILED_SIGN_IN), "302 302 302 302 302 302 302"
    ),
    # -- locked sign-ins (lifted by a list action): the manager's alone, read-only
    "admin/clients/signinlock/": Row(
        fixed("/admin/clients/signinlock/"), "302 302 302 403 403 200 302"
    ),
    "admin/clients/signinlock/add/": Row(
        fixed("/admin/clients/signinlock/add/"), "302 302 302 403 403 403 302"
    ),
    "admin/clients/signinlock/<path:object_id>/history/": Row(
        admin_object("clients/signinlock", "history/", A_LOCK), "302 302 302 302 302 200 302"
    ),
    "admin/clients/signinlock/<path:object_id>/delete/": Row(
        admin_object("clients/signinlock", "delete/", A_LOCK), "302 302 302 403 403 403 302"
    ),
    "admin/clients/signinlock/<path:object_id>/change/": Row(
        admin_object("clients/signinlock", "change/", A_LOCK), "302 302 302 403 403 200 302"
    ),
    "admin/clients/signinlock/<path:object_id>/": Row(
        admin_object("clients/signinlock", "", A_LOCK), "302 302 302 302 302 302 302"
    ),
    # -- the library: shared items are the manager's to edit
    "admin/homework/exercise/": Row(
        fixed("/admin/homework/exercise/"), "302 302 302 200 200 200 302"
    ),
    "admin/homework/exercise/add/": Row(
        fixed("/admin/homework/exercise/add/"), "302 302 302 200 200 200 302"
    ),
    "admin/homework/exercise/<path:object_id>/history/": Row(
        admin_object("homework/exercise", "history/", ALICE_EXERCISE), "302 302 302 200 200 200 302"
    ),
    "admin/homework/exercise/<path:object_id>/delete/": Row(
        admin_object("homework/exercise", "delete/", ALICE_EXERCISE), "302 302 302 403 403 403 302"
    ),
    "admin/homework/exercise/<path:object_id>/change/": Row(
        admin_object("homework/exercise", "change/", ALICE_EXERCISE), "302 302 302 200 200 200 302"
    ),
    # Staff may copy any exercise they can read (alice's is the practice's); who may copy what is
    # tested in tests/homework/test_admin_exercise.py.
    "admin/homework/exercise/<path:object_id>/copy/": Row(
        admin_object("homework/exercise", "copy/", ALICE_EXERCISE),
        "302 302 302 302 302 302 302",
        "post",
    ),
    # The editor's preview draws the form as posted (nothing saved); a saved one is read with GET.
    # Another therapist's exercise is not found (tests/homework/test_exercise_preview.py).
    "admin/homework/exercise/preview/": Row(
        fixed("/admin/homework/exercise/preview/"), "302 302 302 200 200 200 302", "post"
    ),
    "admin/homework/exercise/<path:object_id>/preview/": Row(
        admin_object("homework/exercise", "preview/", ALICE_EXERCISE),
        "302 302 302 200 200 200 302",
    ),
    "admin/homework/exercise/<path:object_id>/": Row(
        admin_object("homework/exercise", "", ALICE_EXERCISE), "302 302 302 302 302 302 302"
    ),
    # -- programs: a therapist reads the practice's and edits their own (tara's here); the shared
    # ones are the manager's to edit; nobody deletes one
    "admin/homework/program/": Row(
        fixed("/admin/homework/program/"), "302 302 302 200 200 200 302"
    ),
    "admin/homework/program/add/": Row(
        fixed("/admin/homework/program/add/"), "302 302 302 200 200 200 302"
    ),
    "admin/homework/program/<path:object_id>/history/": Row(
        admin_object("homework/program", "history/", A_PROGRAM), "302 302 302 200 302 200 302"
    ),
    "admin/homework/program/<path:object_id>/delete/": Row(
        admin_object("homework/program", "delete/", A_PROGRAM), "302 302 302 403 403 403 302"
    ),
    # the manager reads a therapist's program (no form to save); another therapist finds none
    "admin/homework/program/<path:object_id>/change/": Row(
        admin_object("homework/program", "change/", A_PROGRAM), "302 302 302 200 302 200 302"
    ),
    "admin/homework/program/<path:object_id>/preview/": Row(
        admin_object("homework/program", "preview/", A_PROGRAM), "302 302 302 200 302 200 302"
    ),
    # the owner and the manager get a copy of their own; another therapist finds none
    "admin/homework/program/<path:object_id>/copy/": Row(
        admin_object("homework/program", "copy/", A_PROGRAM), "302 302 302 302 302 302 302", "post"
    ),
    "admin/homework/program/<path:object_id>/": Row(
        admin_object("homework/program", "", A_PROGRAM), "302 302 302 302 302 302 302"
    ),
    # -- assignments
    "admin/homework/assignment/": Row(
        fixed("/admin/homework/assignment/"), "302 302 302 200 200 200 302"
    ),
    "admin/homework/assignment/add/": Row(
        fixed("/admin/homework/assignment/add/"), "302 302 302 200 200 200 302"
    ),
    "admin/homework/assignment/<path:object_id>/history/": Row(
        admin_object("homework/assignment", "history/", ALICE_ASSIGNMENT),
        "302 302 302 200 302 200 302",
    ),
    "admin/homework/assignment/<path:object_id>/delete/": Row(
        admin_object("homework/assignment", "delete/", ALICE_ASSIGNMENT),
        "302 302 302 403 403 403 302",
    ),
    "admin/homework/assignment/<path:object_id>/change/": Row(
        admin_object("homework/assignment", "change/", ALICE_ASSIGNMENT),
        "302 302 302 200 302 200 302",
    ),
    # An empty form previews nothing; the preview only ever reads.
    "admin/homework/assignment/preview/": Row(
        fixed("/admin/homework/assignment/preview/"), "302 302 302 200 200 200 302", "post"
    ),
    "admin/homework/assignment/<path:object_id>/": Row(
        admin_object("homework/assignment", "", ALICE_ASSIGNMENT), "302 302 302 302 302 302 302"
    ),
    # -- entries: read-only for staff, never added or deleted here
    "admin/homework/entry/": Row(fixed("/admin/homework/entry/"), "302 302 302 200 200 200 302"),
    "admin/homework/entry/add/": Row(
        fixed("/admin/homework/entry/add/"), "302 302 302 403 403 403 302"
    ),
    "admin/homework/entry/<path:object_id>/history/": Row(
        admin_object("homework/entry", "history/", ALICE_ENTRY), "302 302 302 200 302 200 302"
    ),
    "admin/homework/entry/<path:object_id>/delete/": Row(
        admin_object("homework/entry", "delete/", ALICE_ENTRY), "302 302 302 403 403 403 302"
    ),
    "admin/homework/entry/<path:object_id>/change/": Row(
        admin_object("homework/entry", "change/", ALICE_ENTRY), "302 302 302 200 302 200 302"
    ),
    # An empty comment: tara is told to write something (400); theo cannot find
    # the entry; morgan may read it but only the client's therapist comments.
    "admin/homework/entry/<path:object_id>/comment/": Row(
        admin_object("homework/entry", "comment/", ALICE_ENTRY),
        "302 302 302 400 302 302 302",
        "post",
    ),
    "admin/homework/entry/<path:object_id>/": Row(
        admin_object("homework/entry", "", ALICE_ENTRY), "302 302 302 302 302 302 302"
    ),
}


def all_routes(patterns=None, prefix: str = "") -> Iterator[str]:
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            yield from all_routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def test_every_route_has_a_row():
    missing = sorted(set(all_routes()) - set(TABLE))
    assert not missing, f"Add these routes to the permission table: {missing}"
    stale = sorted(set(TABLE) - set(all_routes()))
    assert not stale, f"These rows name routes that no longer exist: {stale}"


def test_public_routes_are_the_listed_ones():
    open_to_anonymous = {
        route for route, row in TABLE.items() if row.statuses.split()[0] in {"200", "301"}
    }
    assert open_to_anonymous == PUBLIC


@pytest.fixture
def cast_with_session(cast):
    from tests.factories import SessionFactory

    SessionFactory.create(client=cast.alice)
    return cast


@pytest.fixture
def archived_client_user(cast):
    from clients.services import client_archive
    from tests.factories import AssignmentFactory, ClientFactory

    carol = ClientFactory.create(therapist=cast.tara, display_name="Carol")
    AssignmentFactory.create(client=carol)
    client_archive(actor=cast.tara, client=carol)
    return carol.portal_user


def person(cast: Cast, archived_client_user, role: str):
    """Who signs in as ``role`` (None: nobody)."""
    return {
        "anonymous": None,
        "alice": cast.alice.portal_user,
        "bob": cast.bob.portal_user,
        "tara": cast.tara,
        "theo": cast.theo,
        "morgan": cast.morgan,
        "archived": archived_client_user,
    }[role]


@pytest.mark.parametrize("role", ROLES)
def test_every_route_answers_the_role_as_the_table_says(
    cast_with_session, archived_client_user, role
):
    """One cast walks every route; every route that answers otherwise is named."""
    cast = cast_with_session
    who = person(cast, archived_client_user, role)
    column = ROLES.index(role)
    wrong = []
    for route, row in sorted(TABLE.items()):
        url = row.path(cast)
        # Signed in afresh for each route, as the person is now: a route before
        # may have signed them out everywhere, which a fresh sign-in outlives.
        if who is not None:
            who.refresh_from_db()
        got = getattr(login(who), row.method)(url).status_code
        if str(got) != row.statuses.split()[column]:
            wrong.append(
                f"{row.method.upper()} {url} ({route}): {got}, the table says {row.statuses.split()[column]}"
            )
    assert not wrong, f"As {role}:\n" + "\n".join(wrong)


# A GET where only a POST is taken: the routes that still do what was asked
# (leaving and signing out are never refused), and what the others answer.
GET_ON_POST_ONLY = {
    "logout/": 302,  # signs out, as the quick exit does
    "exit/": 302,
}


def test_a_get_on_a_post_only_route_gets_a_calm_page(cast_with_session):
    """Chrome shows a bare error page for an empty 405: no quick exit, no crisis lines."""

    cast = cast_with_session
    wrong = []
    # The API answers in JSON, not pages (tests/api check its 405s).
    posts = (r for r, row in TABLE.items() if row.method == "post" and not r.startswith("api/"))
    for route in sorted(posts):
        who = cast.tara if route.startswith("admin/") else cast.alice.portal_user
        response = login(who).get(TABLE[route].path(cast))
        expected = GET_ON_POST_ONLY.get(route, 405)
        if response.status_code != expected:
            wrong.append(f"{route}: {response.status_code}, expected {expected}")
        elif route.startswith("api/"):  # no page: the API's own error shape
            if response.json().get("code") != "method_not_allowed":
                wrong.append(f"{route}: {response.content!r}")
        elif expected == 405:
            try:
                assert "POST" in response["Allow"]
                assert_safe_shell(response.content.decode())
            except AssertionError as unsafe:
                wrong.append(f"{route}: {unsafe or 'no Allow: POST'}")
    assert not wrong, "\n".join(wrong)
