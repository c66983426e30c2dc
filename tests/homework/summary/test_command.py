"""python manage.py render_summary CLIENT --out FILE [--since] [--until]"""

import os
import stat

import pytest
from django.core.management import CommandError, call_command

from clients.models import AccessEvent

from .conftest import pdf_text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("pick", ["id", "portal email", "contact email"])
def test_writes_the_pdf_for_a_client_found_by_id_or_email(cast, tmp_path, pick):
    cast.alice.contact_email = "alice.contact@example.test"
    cast.alice.save()
    given = {
        "id": str(cast.alice.pk),
        "portal email": "ALICE@example.test",
        "contact email": "alice.contact@example.test",
    }[pick]
    out = tmp_path / "summary.pdf"
    call_command("render_summary", given, "--out", str(out))
    assert cast.alice_entry.response["what_happened"] in pdf_text(out.read_bytes())
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    event = AccessEvent.objects.get()
    assert (event.actor, event.client, event.action) == (cast.tara, cast.alice, "exported")


def test_takes_dates_and_an_actor(cast, tmp_path):
    out = tmp_path / "s.pdf"
    call_command(
        "render_summary",
        str(cast.alice.pk),
        "--out",
        str(out),
        "--since",
        "2026-01-01",
        "--until",
        "2026-01-31",
        "--actor",
        cast.morgan.email,
    )
    assert "1 Jan – 31 Jan 2026" in pdf_text(out.read_bytes())
    assert AccessEvent.objects.get().actor == cast.morgan


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nobody@example.test"], "No client"),
        (["424242"], "No client"),
        (["ALICE", "--since", "2026-13-01"], "--since"),
        (["ALICE", "--since", "2026-03-10", "--until", "2026-03-01"], "--until"),
        (["ALICE", "--actor", "theo@example.test"], "cannot see"),
        (["ALICE", "--actor", "bob@example.test"], "not an active therapist"),
    ],
)
def test_bad_arguments_are_explained_and_nothing_is_written(cast, tmp_path, args, message):
    args = [str(cast.alice.pk) if a == "ALICE" else a for a in args]
    out = tmp_path / "s.pdf"
    with pytest.raises(CommandError, match=message):
        call_command("render_summary", *args, "--out", str(out))
    assert not out.exists()
    assert not AccessEvent.objects.exists()


# -- where the PDF goes: checked before anything is rendered


@pytest.fixture
def rendering(monkeypatch):
    """Counts renders, so a test can show a bad --out was refused before one."""
    from homework.management.commands import render_summary
    from homework.summary.services import summary_pdf

    calls = []

    def counted(**kwargs):
        calls.append(kwargs)
        return summary_pdf(**kwargs)

    monkeypatch.setattr(render_summary, "summary_pdf", counted)
    return calls


def test_a_folder_as_out_is_explained_before_rendering(cast, tmp_path, rendering):
    with pytest.raises(CommandError, match="--out"):
        call_command("render_summary", str(cast.alice.pk), "--out", f"{tmp_path}{os.sep}")
    assert rendering == []
    assert list(tmp_path.iterdir()) == []
    assert not AccessEvent.objects.exists()


def test_a_missing_folder_in_out_is_explained_before_rendering(cast, tmp_path, rendering):
    out = tmp_path / "missing" / "a.pdf"
    with pytest.raises(CommandError, match="--out"):
        call_command("render_summary", str(cast.alice.pk), "--out", str(out))
    assert rendering == []
    assert not out.exists()
    assert not AccessEvent.objects.exists()


def test_a_file_that_cannot_be_written_is_a_command_error_not_a_traceback(
    cast, tmp_path, monkeypatch
):
    from homework.management.commands import render_summary

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    # A full disk, a read-only mount: whatever the system refuses at write time.
    monkeypatch.setattr(render_summary.Command, "_write", staticmethod(refuse))
    with pytest.raises(CommandError, match="--out"):
        call_command("render_summary", str(cast.alice.pk), "--out", str(tmp_path / "s.pdf"))
    assert not AccessEvent.objects.exists()


def test_overwriting_a_readable_file_leaves_it_owner_only(cast, tmp_path):
    out = tmp_path / "summary.pdf"
    out.write_bytes(b"an older summary, longer than nothing")
    out.chmod(0o644)
    call_command("render_summary", str(cast.alice.pk), "--out", str(out))
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    assert out.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("given", ["²", "99999999999999999999"])
def test_a_client_id_that_is_not_one_is_explained(cast, tmp_path, given):
    out = tmp_path / "s.pdf"
    with pytest.raises(CommandError, match="No client"):
        call_command("render_summary", given, "--out", str(out))
    assert not out.exists()


def test_the_help_says_what_one_date_alone_means():
    """--since alone runs to today, not to the next session; --until alone
    starts four weeks before it, not at the last session."""
    from homework.management.commands.render_summary import Command

    text = " ".join(Command().create_parser("manage.py", "render_summary").format_help().split())
    assert "given alone: up to today" in text
    assert "given alone: the four weeks up to it" in text
