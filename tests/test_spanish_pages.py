"""Every portal page, read in Spanish, has no English sentence left.

The pages a signed-in client opens are the portal's routes of the permission
table (tests/test_permissions.py) that the client may open, so a new portal
route is walked here as soon as it has its row. Each is opened as the demo
practice's Alex (work of every kind, weeks of entries) with Spanish chosen,
and answered by what it is: a page is read as a person reads it (text, the
attributes a screen reader speaks, the messages scripts show), JSON by its
labels, a PDF through pdftotext. What the practice wrote (exercise texts, the
crisis lines) and what the client wrote are data shown as written, and are
taken out before the check (``tests.english.practice_words``). One walk per
audience rather than a test per page: the demo practice is seeded once for
the walk, and a failure names every page and sentence it found.
"""

from __future__ import annotations

import io
import json
import re
import subprocess  # nosec B404 (pdftotext on a PDF the test just made)
from html import escape
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.core.management import call_command
from django.http import FileResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.test import Client as HttpClient
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from clients.models import Client
from clients.services import client_archive, client_invite
from homework.kinds import all_kinds
from homework.management.commands.seed_demo import DEFAULT_PASSWORD
from homework.models import Assignment, Entry
from practice.models import PracticeSettings, User
from tests.conftest import Cast, login
from tests.english import english_sentences, is_english, json_strings, practice_words
from tests.helpers import turn_on_two_step
from tests.test_permissions import ROLES, TABLE

pytestmark = pytest.mark.django_db

SPANISH = {"Accept-Language": "es-ES,es;q=0.9"}
SPANISH_LINES = "Si estás en peligro ahora, llama al 112.\nLínea 016 (24 horas, no deja rastro en la factura): 016"
# The routes that are not the portal's pages: the site's health for its operators.
NOT_THE_PORTAL = {"health/", "favicon.ico"}
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
SIGNED_OUT, CLIENT = ROLES.index("anonymous"), ROLES.index("alice")


def portal_routes(column: int, method: str = "get", status: str = "200") -> list[str]:
    """The portal's routes that answer ``column``'s person's ``method`` with ``status``."""
    return sorted(
        route
        for route, row in TABLE.items()
        if row.method == method
        and row.statuses.split()[column] == status
        and not route.startswith(("api/", "admin/"))
        and route not in NOT_THE_PORTAL
    )


@pytest.fixture
def alex_in_spanish(db) -> Client:
    """The demo practice's Alex, who chose Spanish, with the practice's Spanish crisis lines."""
    call_command("seed_demo", stdout=io.StringIO())
    PracticeSettings.objects.filter(pk=1).update(crisis_resources_by_language={"es": SPANISH_LINES})
    alex = Client.objects.get(portal_user__email="alex@demo.test")
    Client.objects.filter(pk=alex.pk).update(language="es")
    # The quick exit's first-visit note is on every page until it is read.
    User.objects.filter(client_profile=alex).update(exit_note_dismissed_at=None)
    alex.refresh_from_db()
    return alex


def as_cast(alex: Client) -> Cast:
    """Alex in alice's place, so the permission table's paths point at Alex's own."""
    entry = Entry.objects.filter(assignment__client=alex, status=Entry.Status.SUBMITTED).first()
    assert entry is not None
    therapist = alex.therapist
    return Cast(
        tara=therapist,
        theo=therapist,
        morgan=therapist,
        alice=alex,
        bob=alex,
        alice_assignment=entry.assignment,
        bob_assignment=entry.assignment,
        alice_entry=entry,
        bob_entry=entry,
    )


def kind_pages(alex: Client) -> list[str]:
    """Each kind's form, and a sent entry of each kind with its edit page."""
    paths = []
    for kind in all_kinds():
        assignment = (
            Assignment.objects.filter(client=alex, exercise__kind=kind.slug, status="active")
            .order_by("pk")
            .first()
        )
        assert assignment is not None, f"the demo gives Alex no {kind.slug}"
        paths.append(f"/do/{assignment.pk}/")
        entry = Entry.objects.filter(
            assignment__client=alex, assignment__exercise__kind=kind.slug, status="submitted"
        ).first()
        if entry is not None:
            paths += [f"/entries/{entry.key}/", f"/entries/{entry.key}/edit/"]
    return paths


def a_conflict(http: HttpClient, client: Client) -> HttpResponseBase:
    """Two saves of one written record from version 0: the second meets the first."""
    work = Assignment.objects.filter(client=client, exercise__kind="written_record").first()
    assert work is not None
    page = http.get(f"/do/{work.pk}/", headers=SPANISH).content.decode()
    fields = {**dict(HIDDEN.findall(page)), "version": "0"}
    http.post(f"/do/{work.pk}/save/", {**fields, "r-what_happened": "Lo escribí aquí."})
    conflict = http.post(
        f"/do/{work.pk}/save/",
        {**fields, "r-what_happened": "Y aquí, en otra pestaña."},
        headers=SPANISH,
    )
    assert conflict.status_code == 409, conflict.content
    return conflict


def english_in(response: HttpResponseBase, allowed: frozenset[str]) -> list[str]:
    """The English a response holds, whatever it is: a page, JSON or a PDF."""
    kind = response.get("Content-Type", "").split(";")[0]
    body = (
        b"".join(response.streaming_content)  # type: ignore[arg-type]
        if isinstance(response, StreamingHttpResponse | FileResponse)
        else getattr(response, "content", b"")
    )
    if kind == "text/html":
        page = body.decode()
        wrong_language = [] if '<html lang="es"' in page else ['<html lang="es"> missing']
        return wrong_language + english_sentences(page, allowed)
    if kind == "text/plain":
        return english_sentences(f"<p>{escape(body.decode())}</p>", allowed)
    if kind == "application/json":
        strings = json_strings(json.loads(body))
        return [found for text in strings for found in english_sentences(f"<p>{text}</p>", allowed)]
    if kind == "application/pdf":
        text = subprocess.run(  # nosec B603 B607
            ["pdftotext", "-", "-"], input=body, capture_output=True, check=True
        ).stdout.decode()
        # Lines wrapped by the layout are one paragraph again, as it was written.
        paragraphs = (" ".join(part.split()) for part in re.split(r"\n\s*\n", text))
        return english_sentences("".join(f"<p>{escape(p)}</p>" for p in paragraphs), allowed)
    return []


def test_every_page_a_client_opens_is_in_spanish(alex_in_spanish: Client) -> None:
    alex = alex_in_spanish
    cast = as_cast(alex)
    allowed = practice_words()
    http = login(alex.portal_user)
    paths = [TABLE[route].path(cast) for route in portal_routes(CLIENT)] + kind_pages(alex)
    paths += ["/no-such-page/", "/account/exit-note/"]  # the 404 page, and a 405 on a POST route
    paths = list(dict.fromkeys(paths))
    english = []
    for path in paths:
        response = http.get(path, follow=True, headers=SPANISH)
        assert response.status_code in (200, 404, 405), path
        english += [f"{path}: {sentence}" for sentence in english_in(response, allowed)]
    # What a refused form says: each kind's form sent empty (its hidden fields kept),
    for path in (path for path in paths if path.startswith("/do/")):
        hidden = dict(HIDDEN.findall(http.get(path, headers=SPANISH).content.decode()))
        refused = http.post(path, hidden, follow=True, headers=SPANISH)
        english += [f"POST {path}: {sentence}" for sentence in english_in(refused, allowed)]
    # the conflict autosave names when another tab saved first (its rows, labelled),
    english += [f"conflict: {sentence}" for sentence in english_in(a_conflict(http, alex), allowed)]
    # and each POST route that refuses the client's empty form.
    for route in portal_routes(CLIENT, "post", "400"):
        refused = http.post(TABLE[route].path(cast), {}, headers=SPANISH)
        english += [f"POST {route}: {sentence}" for sentence in english_in(refused, allowed)]
    assert english == [], "\n".join(english)


def test_an_archived_clients_pages_are_in_spanish(alex_in_spanish: Client) -> None:
    """A closed notebook still reads in Spanish: the closed page, who looked, the download."""
    alex = alex_in_spanish
    client_archive(actor=alex.therapist, client=alex)
    allowed = practice_words()
    http = login(alex.portal_user)
    english = []
    for route in portal_routes(ROLES.index("archived")):
        path = TABLE[route].path(as_cast(alex))
        response = http.get(path, follow=True, headers=SPANISH)
        english += [f"{path}: {sentence}" for sentence in english_in(response, allowed)]
    assert english == [], "\n".join(english)


def test_every_page_before_signing_in_follows_a_spanish_browser(alex_in_spanish: Client) -> None:
    alex = alex_in_spanish
    allowed = practice_words()
    http = HttpClient()
    paths = [TABLE[route].path(as_cast(alex)) for route in portal_routes(SIGNED_OUT)]
    paths += ["/no-such-page/"]
    english = []
    for path in paths:
        response = http.get(path, headers=SPANISH)
        english += [f"{path}: {sentence}" for sentence in english_in(response, allowed)]
    # A wrong password, and a form sent without its token (the 403 the portal renders).
    wrong = http.post("/login/", {"username": "alex@demo.test", "password": "no"}, headers=SPANISH)
    english += [f"wrong password: {s}" for s in english_in(wrong, allowed)]
    stale = HttpClient(enforce_csrf_checks=True).post("/login/", {}, headers=SPANISH)
    assert stale.status_code == 403
    english += [f"403: {s}" for s in english_in(stale, allowed)]
    assert english == [], "\n".join(english)


def test_the_second_step_of_signing_in_is_in_spanish(alex_in_spanish: Client) -> None:
    """The code page, a wrong code, and the lost-phone page, after the right password."""
    assert alex_in_spanish.portal_user is not None
    turn_on_two_step(alex_in_spanish.portal_user)
    allowed = practice_words()
    http = HttpClient()
    signing_in = {"username": "alex@demo.test", "password": DEFAULT_PASSWORD}
    asked = http.post("/login/", signing_in, follow=True, headers=SPANISH)
    assert asked.redirect_chain[-1][0] == "/login/code/"
    wrong = http.post("/login/code/", {"token": "123456"}, headers=SPANISH)
    lost = http.get("/login/lost-phone/", follow=True, headers=SPANISH)
    english = [
        f"{where}: {sentence}"
        for where, response in (("code", asked), ("wrong code", wrong), ("lost phone", lost))
        for sentence in english_in(response, allowed)
    ]
    assert english == [], "\n".join(english)


def test_the_invitation_and_a_password_reset_are_in_spanish(
    alex_in_spanish: Client, django_capture_on_commit_callbacks
) -> None:
    therapist = alex_in_spanish.therapist
    lucia = Client.objects.create(
        therapist=therapist, display_name="Lucía", contact_email="lu@example.test", language="es"
    )
    with django_capture_on_commit_callbacks(execute=True):  # the email is sent on commit
        link = client_invite(actor=therapist, client=lucia, send_email=True).url
    assert len(mail.outbox) == 1, "the invitation email"
    allowed = practice_words()
    http = HttpClient()
    english = []
    opened = http.get(link, follow=True, headers=SPANISH)
    english += [f"invitation: {s}" for s in english_in(opened, allowed)]
    mismatch = http.post(
        "/welcome/",
        {"email": "lu@example.test", "password1": "a long one 2026", "password2": "other"},
        headers=SPANISH,
    )
    english += [f"invitation, refused: {s}" for s in english_in(mismatch, allowed)]
    user = alex_in_spanish.portal_user
    assert user is not None
    reset = (
        f"/password/reset/{urlsafe_base64_encode(force_bytes(user.pk))}/"
        f"{default_token_generator.make_token(user)}/"
    )
    english += [
        f"reset: {s}" for s in english_in(http.get(reset, follow=True, headers=SPANISH), allowed)
    ]
    http.post("/password/reset/", {"email": user.email}, headers=SPANISH)
    # The practice never changed our neutral subject and sender: hers read in Spanish.
    assert mail.outbox[0].subject == "Tienes una novedad"
    assert mail.outbox[0].from_email.startswith("Notificaciones <")
    for message in mail.outbox:  # the invitation, the next step's, the reset
        email = f"<p>{escape(str(message.subject))}</p><p>{escape(str(message.body))}</p>"
        html = [str(part[0]) for part in getattr(message, "alternatives", [])]
        english += [f"email: {s}" for s in english_sentences(email + "".join(html), allowed)]
    assert english == [], "\n".join(english)


def test_the_detector_finds_english_and_lets_spanish_and_data_be() -> None:
    page = (
        '<p>Tu cuaderno está listo.</p><button aria-label="Close this note">×</button>'
        "<button>Save</button><button>Guardar</button><h2>Alex</h2>"
        "<p>Not done yet — that's OK.</p><p>Keep the full picture</p><p>You have a new update</p>"
        '<script>var x = "Not for the reader";</script>'
    )
    assert english_sentences(page, {"Keep the full picture"}) == [
        "Close this note",
        "Save",
        "Not done yet —",
        "You have a new update",
    ]


SCRIPTS = sorted((Path(settings.BASE_DIR) / "static" / "js").glob("*.js"))
COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\\"'])//[^\n]*", re.DOTALL)
SELECTOR = re.compile(r"[\[\]#>=]|^\.")
LITERAL = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"|'((?:[^'\\\n]|\\.)*)'|`([^`]*)`")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_a_script_shows_no_english_of_its_own(script: Path) -> None:
    """What a script shows comes from the page (json_script, data- attributes), translated."""
    code = COMMENT.sub(" ", script.read_text(encoding="utf-8"))
    literals = ("".join(parts) for parts in LITERAL.findall(code))
    # One lower-case word is an event, a state or a key ("submit", "saved"), and a selector
    # is a selector ("[data-row]:not([data-removed])"): neither is shown.
    shown = (
        text
        for text in literals
        if (" " in text.strip() or text[:1].isupper()) and not SELECTOR.search(text)
    )
    assert [text for text in shown if is_english(text)] == []
