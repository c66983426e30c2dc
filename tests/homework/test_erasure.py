"""A manager's "Export and erase": the practice's copy downloaded and logged,
then every record of the client gone, whatever table or file held it."""

import json
from pathlib import Path

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.sessions.models import Session as WebSession
from django.core.files.base import ContentFile
from django.db import connection
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients.models import AccessEvent, Client, ContactChange, ContactProfile, Invitation, Session
from clients.selectors import clients_for_user
from clients.services import access_event_record, contact_profile_update
from homework.models import (
    Assignment,
    Entry,
    EntryComment,
    EntryNote,
    OutboxMessage,
    PreparedDownload,
)
from homework.services.stored_summaries import summary_storage
from homework.workspace.erasure import CHANGED_SINCE_SHOWN
from practice.models import User
from tests.conftest import login
from tests.factories import AssignmentFactory, EntryFactory, ManagerFactory, SessionFactory
from tests.helpers import CONTACT_CHOICES

# Lower case and plain, so it fits an address and survives any encoding a column uses.
CANARY = "zqcanary7f3a9d"


@pytest.fixture(autouse=True)
def summaries_folder(settings, tmp_path) -> Path:
    """Stored summaries go to a folder of this test's own."""
    settings.STORAGES = {
        **settings.STORAGES,
        "summaries": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path / "summaries")},
        },
    }
    return Path(tmp_path) / "summaries"


def erase_url(client: Client, suffix: str = "") -> str:
    return f"/admin/clients/client/{client.pk}/erase/{suffix}"


def confirm(http, client: Client, **overrides):
    """Open the page, then confirm as it asks (the name typed, the box ticked)."""
    page = http.get(erase_url(client))
    assert page.status_code == 200
    data = {
        "name": client.display_name,
        "export_saved": "on",
        "fingerprint": page.context["form"].initial["fingerprint"],
        **overrides,
    }
    return page, data


def seed_canaries(cast, summaries_folder: Path) -> None:
    """The canary in every place that holds a client's words or who they are."""
    alice = cast.alice
    user = alice.portal_user
    alice.display_name = f"Alice {CANARY}"
    alice.contact_email = f"{CANARY}@contact.example.test"
    alice.save()
    user.email = f"{CANARY}@example.test"
    user.name = f"Portal {CANARY}"
    user.save()
    assignment = AssignmentFactory.create(client=alice, instructions=f"Personal {CANARY}")
    shared = EntryFactory.create(
        assignment=assignment,
        response={**cast.alice_entry.response, "what_happened": f"Shared {CANARY}"},
        note_draft=f"Kept words {CANARY}",
    )
    EntryFactory.create(
        assignment=assignment,
        private=True,
        response={**cast.alice_entry.response, "what_happened": f"Private {CANARY}"},
    )
    EntryFactory.create(
        assignment=assignment,
        status=Entry.Status.DRAFT,
        submitted_at=None,
        response={**cast.alice_entry.response, "what_happened": f"Draft {CANARY}"},
    )
    EntryNote.objects.create(entry=shared, text=f"Note {CANARY}")
    EntryComment.objects.create(entry=shared, author=cast.tara, text=f"Comment {CANARY}")
    OutboxMessage.objects.filter(entry=shared).update(last_error=f"Error {CANARY}")
    session = SessionFactory.create(client=alice)
    # The contact profile and its log, changed by both sides.
    contact_profile_update(
        actor=user,
        client=alice,
        **{**CONTACT_CHOICES, "email": f"{CANARY}@reminders.example.test"},
    )
    contact_profile_update(
        actor=cast.tara, client=alice, **{**CONTACT_CHOICES, "email": f"{CANARY}@x.example.test"}
    )
    # Holds no words, but is the client's: it must go (asserted below).
    an_invitation_with_a_chosen_email(cast, alice, f"{CANARY}@chosen.example.test")
    access_event_record(
        actor=cast.tara, client=alice, action=AccessEvent.Action.VIEWED, what=f"Title {CANARY}"
    )
    TOTPDevice.objects.create(user=user, name=f"Phone {CANARY}", confirmed=True)
    StaticDevice.objects.create(user=user, name=f"Codes {CANARY}")
    # Sign-ins tried with each address the client has: portal, contact, reminders, invitation.
    for place in ("", "contact.", "x.", "chosen."):
        sign_in_rows(f"{CANARY}@{place}example.test")
    for model, pk in ((Client, alice.pk), (Session, session.pk), (Entry, shared.pk)):
        LogEntry.objects.log_actions(
            user_id=cast.tara.pk,
            queryset=model.objects.filter(pk=pk),
            action_flag=CHANGE,
            change_message=f"Changed {CANARY}",
        )
    summary_storage().save(
        f"{alice.pk}/2025-01-01_2025-01-08/stored.pdf", ContentFile(f"%PDF {CANARY}".encode())
    )
    assert CANARY in dump_database()
    assert CANARY in dump_folder(summaries_folder)


def sign_in_rows(address: str) -> None:
    """The lockout's rows for sign-ins tried with ``address``."""
    common = {"user_agent": "x", "ip_address": "10.0.0.1", "http_accept": "x", "path_info": "/"}
    AccessAttempt.objects.create(
        username=address, get_data="", post_data="", failures_since_start=1, **common
    )
    AccessFailureLog.objects.create(username=address, **common)
    AccessLog.objects.create(username=address, **common)


def dump_database() -> str:
    """Every row of every table, as text."""
    lines: list[str] = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            # Table names from the database itself, quoted: no outside text in the query.
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")  # noqa: S608
            lines.extend(f"{table}: {row!r}" for row in cursor.fetchall())
    return "\n".join(lines).lower()


def dump_folder(folder: Path) -> str:
    if not folder.exists():
        return ""
    return "\n".join(
        f"{path}: {path.read_bytes()!r}" if path.is_file() else str(path)
        for path in folder.rglob("*")
    ).lower()


def an_invitation_with_a_chosen_email(cast, client, chosen_email: str) -> Invitation:
    """Tara's invitation of ``client``, its welcome form sent with ``chosen_email``."""
    return Invitation.objects.create(
        client=client,
        token_hash=f"{client.pk:064d}",
        created_by=cast.tara,
        expires_at=timezone.now(),
        chosen_email=chosen_email,
    )


def test_erasure_leaves_no_trace_of_the_client_anywhere(cast, summaries_folder):
    seed_canaries(cast, summaries_folder)
    alice_id, user_id = cast.alice.pk, cast.alice.portal_user_id
    portal = login(cast.alice.portal_user)
    looks_before = AccessEvent.objects.filter(client_id=alice_id).count()
    PreparedDownload.objects.create(client=cast.alice, touched_at=timezone.now())
    http = login(cast.morgan)
    _page, data = confirm(http, cast.alice)

    response = http.post(erase_url(cast.alice), data)

    assert response.status_code == 302
    assert CANARY not in dump_database()
    assert CANARY not in dump_folder(summaries_folder)
    # The folders too: their names alone say who had sessions when.
    assert not (summaries_folder / str(alice_id)).exists()
    # Rows gone, not only their words: this holds with the text encrypted too.
    assert not Entry.objects.filter(assignment__client_id=alice_id).exists()
    assert not Assignment.objects.filter(client_id=alice_id).exists()
    assert not Session.objects.filter(client_id=alice_id).exists()
    assert not Invitation.objects.filter(client_id=alice_id).exists()
    assert not OutboxMessage.objects.filter(client_id=alice_id).exists()
    assert not PreparedDownload.objects.filter(client_id=alice_id).exists()
    assert not User.objects.filter(pk=user_id).exists()
    assert not ContactProfile.objects.filter(client_id=alice_id).exists()
    assert not ContactChange.objects.filter(client_id=alice_id).exists()
    assert not any(
        row.get_decoded().get("_auth_user_id") == str(user_id) for row in WebSession.objects.all()
    )
    assert portal.get("/").status_code == 302  # signed out
    # The access log stays, without words, with the erasure on it.
    looks = AccessEvent.objects.filter(client_id=alice_id)
    assert looks.count() == looks_before + 1
    assert set(looks.values_list("what", flat=True)) == {""}
    erased = looks.get(action=AccessEvent.Action.ERASED)
    assert erased.actor == cast.morgan
    tombstone = Client.objects.get(pk=alice_id)
    assert tombstone.status == Client.Status.ERASED
    assert tombstone.display_name == "" and tombstone.portal_user is None
    # Bob's records are untouched.
    assert Entry.objects.filter(pk=cast.bob_entry.pk).exists()


def test_sign_ins_tried_with_the_address_of_a_client_without_an_account_go(cast):
    bob = cast.bob
    bob.portal_user = None
    bob.contact_email = f"{CANARY}@bob.example.test"
    bob.save()
    an_invitation_with_a_chosen_email(cast, bob, f"{CANARY}@bob-chosen.example.test")
    sign_in_rows(bob.contact_email.upper())  # typed in capitals
    sign_in_rows(f"{CANARY}@bob-chosen.example.test")
    sign_in_rows("someone.else@example.test")
    http = login(cast.morgan)
    _page, data = confirm(http, bob)

    assert http.post(erase_url(bob), data).status_code == 302
    assert CANARY not in dump_database()
    assert AccessAttempt.objects.filter(username="someone.else@example.test").exists()


def test_an_erased_client_leaves_the_therapists_lists(cast):
    http = login(cast.morgan)
    _page, data = confirm(http, cast.alice)
    http.post(erase_url(cast.alice), data)

    assert not clients_for_user(user=cast.tara).filter(pk=cast.alice.pk).exists()
    assert not clients_for_user(user=cast.morgan).filter(pk=cast.alice.pk).exists()
    listed = login(cast.tara).get("/admin/clients/client/?status=all")
    assert cast.alice.pk not in [client.pk for client in listed.context["cl"].result_list]
    assert login(cast.tara).get(f"/admin/clients/client/{cast.alice.pk}/change/").status_code == 302


def test_the_practices_copy_holds_what_the_practice_could_read_and_is_logged(cast):
    EntryFactory.create(
        assignment=cast.alice_assignment,
        private=True,
        response={**cast.alice_entry.response, "what_happened": "Only mine"},
    )
    Entry.objects.filter(pk=cast.alice_entry.pk).update(note_draft="Not sent yet")
    http = login(cast.morgan)

    response = http.get(erase_url(cast.alice, "export.json"))

    assert response.status_code == 200
    data = json.loads(response.content)
    assert data["for_the_practice"] is True
    assert [entry["id"] for entry in data["entries"]] == [str(cast.alice_entry.key)]
    assert data["entries"][0]["my_note_not_sent_yet"] is None
    assert "Only mine" not in response.content.decode()
    pdf = http.get(erase_url(cast.alice, "export.pdf"))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert "Alice" not in pdf["Content-Disposition"]
    exports = AccessEvent.objects.filter(
        client=cast.alice, actor=cast.morgan, action=AccessEvent.Action.EXPORTED
    )
    assert exports.count() == 2


@pytest.mark.parametrize("who", ["tara", "theo"])
def test_only_the_manager_can_erase(cast, who):
    http = login(getattr(cast, who))
    data = {"name": "Alice", "export_saved": "on", "fingerprint": "x" * 64}

    assert http.get(erase_url(cast.alice)).status_code == 404
    assert http.post(erase_url(cast.alice), data).status_code == 404
    assert http.get(erase_url(cast.alice, "export.json")).status_code == 404
    assert Client.objects.get(pk=cast.alice.pk).status == Client.Status.ACTIVE
    assert not AccessEvent.objects.filter(action=AccessEvent.Action.EXPORTED).exists()


@pytest.mark.parametrize("who", ["alice", "anonymous"])
def test_clients_and_strangers_are_sent_to_the_admin_sign_in(cast, who):
    user = cast.alice.portal_user if who == "alice" else None
    response = login(user).post(erase_url(cast.alice), {"name": "Alice"})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert Client.objects.get(pk=cast.alice.pk).status == Client.Status.ACTIVE


@pytest.mark.parametrize("object_id", ["999999", "not-a-number", "1e3"])
def test_a_client_that_is_not_there_is_not_found(cast, object_id):
    assert login(cast.morgan).get(f"/admin/clients/client/{object_id}/erase/").status_code == 404


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"name": "Alicia"}, "name"),
        ({"name": ""}, "name"),
        ({"name": "A" * 5000}, "name"),
        ({"export_saved": ""}, "export_saved"),
        ({"fingerprint": ""}, "fingerprint"),
    ],
)
def test_a_confirmation_that_does_not_match_erases_nothing(cast, overrides, field):
    http = login(cast.morgan)
    _page, data = confirm(http, cast.alice, **overrides)

    response = http.post(erase_url(cast.alice), data)

    assert response.status_code == 400
    assert field in response.context["form"].errors
    assert Client.objects.get(pk=cast.alice.pk).status == Client.Status.ACTIVE
    assert Entry.objects.filter(pk=cast.alice_entry.pk).exists()


def test_a_name_typed_in_another_case_or_spacing_is_the_name(cast):
    http = login(cast.morgan)
    _page, data = confirm(http, cast.alice, name="  alice ")
    assert http.post(erase_url(cast.alice), data).status_code == 302


def test_records_changed_since_the_page_opened_are_not_erased(cast):
    http = login(cast.morgan)
    _page, data = confirm(http, cast.alice)
    EntryFactory.create(assignment=cast.alice_assignment)  # the client sent something new

    response = http.post(erase_url(cast.alice), data)

    assert response.status_code == 400
    assert str(CHANGED_SINCE_SHOWN) in response.content.decode()
    assert Client.objects.get(pk=cast.alice.pk).status == Client.Status.ACTIVE
    assert Entry.objects.filter(assignment=cast.alice_assignment).count() == 2
    # Refused again until the page is reloaded: its form keeps what it was opened on.
    assert http.post(erase_url(cast.alice), data).status_code == 400


def test_another_managers_erasure_and_a_replay_get_a_calm_answer(cast):
    other = login(ManagerFactory.create(email="mo@example.test"))
    mine = login(cast.morgan)
    _page, my_data = confirm(mine, cast.alice)
    _page, their_data = confirm(other, cast.alice)
    assert other.post(erase_url(cast.alice), their_data).status_code == 302

    late = mine.post(erase_url(cast.alice), my_data, follow=True)
    replay = other.post(erase_url(cast.alice), their_data, follow=True)

    for response in (late, replay):
        assert response.status_code == 200
        assert "already been erased" in response.content.decode()
    assert AccessEvent.objects.filter(action=AccessEvent.Action.ERASED).count() == 1


def test_the_way_to_erase_is_on_the_client_page_for_the_manager_alone(cast):
    page = f"/admin/clients/client/{cast.alice.pk}/change/"
    assert erase_url(cast.alice) in login(cast.morgan).get(page).content.decode()
    assert erase_url(cast.alice) not in login(cast.tara).get(page).content.decode()
