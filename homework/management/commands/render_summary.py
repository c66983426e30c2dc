"""Write a client's session summary PDF to a file.

    python manage.py render_summary CLIENT --out FILE [--since DATE] [--until DATE]

CLIENT is the client's id, or an email (their portal login or contact email).
The PDF is made as the client's therapist would see it (or as ``--actor``),
and the access log records the export under that person.
"""

import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Q
from django.utils import timezone

from clients.models import AccessEvent, Client
from homework.selectors.period import PeriodInvalid, parse_period_query, practice_date
from homework.services import records_record_view
from homework.summary.http import latest_day_for
from homework.summary.selectors import client_for_summary
from homework.summary.services import summary_pdf
from practice.models import User
from practice.requests import parse_id
from practice.roles import is_acting_staff


class Command(BaseCommand):
    help = "Write a client's session summary PDF to a file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("client", help="The client's id, portal email or contact email.")
        parser.add_argument("--out", required=True, help="Where to write the PDF.")
        # One date alone is read as homework.selectors.period.parse_period_query reads it.
        parser.add_argument(
            "--since",
            help="First day, YYYY-MM-DD (default: the last session; given alone: up to today).",
        )
        parser.add_argument(
            "--until",
            help="Last day, YYYY-MM-DD (default: the next session; "
            "given alone: the four weeks up to it).",
        )
        parser.add_argument(
            "--full-detail", action="store_true", help="Whole texts; the safety plan in full."
        )
        parser.add_argument(
            "--actor", help="Staff email to print as (default: the client's therapist)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        client = self._client(options["client"])
        actor = self._actor(options["actor"], client)
        now = timezone.now()
        try:
            client = client_for_summary(user=actor, client_id=client.pk)
            query = parse_period_query(
                {
                    "since": options["since"],
                    "until": options["until"],
                    "full_detail": "1" if options["full_detail"] else "",
                },
                today=practice_date(now),
                latest=latest_day_for(user=actor, client=client, now=now),
            )
        except PeriodInvalid as invalid:
            problems = (f"--{name}: {' '.join(msgs)}" for name, msgs in invalid.errors.items())
            raise CommandError(" ".join(problems)) from None
        except Client.DoesNotExist:
            raise CommandError(f"{actor.email} cannot see client {client.pk}.") from None
        out = self._out(options["out"])
        summary = summary_pdf(user=actor, client=client, query=query)
        try:
            self._write(out, summary.content)
        except OSError as error:
            raise CommandError(f"--out: cannot write {out}: {error.strerror or error}.") from None
        # Recorded once the file exists: an export that failed exported nothing.
        records_record_view(
            actor=actor,
            client=client,
            action=AccessEvent.Action.EXPORTED,
            what=f"{summary.description}, command line",
        )
        self.stdout.write(f"Wrote {out} ({len(summary.content) // 1024} KB).")

    @staticmethod
    def _out(given: str) -> Path:
        """Where the PDF goes, checked before the (slow) rendering: a folder
        or a missing folder is a typo to fix, not a traceback afterwards."""
        out = Path(given)
        if given.endswith(("/", os.sep)) or out.is_dir():
            raise CommandError(
                f"--out: {given} is a folder. Give a file name, such as summary.pdf."
            )
        folder = out.parent
        if not folder.is_dir():
            raise CommandError(f"--out: the folder {folder} does not exist.")
        return out

    @staticmethod
    def _write(out: Path, content: bytes) -> None:
        """Owner-only from the first byte: this file is a clinical record.

        The mode given to open() applies only to a file it creates, so an
        existing file is made owner-only too, before it is emptied and
        written (a file that cannot be, is left as it was).
        """
        descriptor = os.open(out, os.O_WRONLY | os.O_CREAT, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            os.fchmod(descriptor, 0o600)
            handle.truncate(0)
            handle.write(content)

    def _client(self, given: str) -> Client:
        value = given.strip()
        client_id = parse_id(value)
        if client_id is not None:
            found = list(Client.objects.filter(pk=client_id).select_related("therapist"))
        else:
            found = list(
                Client.objects.filter(
                    Q(portal_user__email__iexact=value) | Q(contact_email__iexact=value)
                ).select_related("therapist")[:5]
            )
        if not found:
            raise CommandError(f"No client has the id or email {value!r}.")
        if len(found) > 1:
            ids = ", ".join(str(client.pk) for client in found)
            raise CommandError(f"Several clients use {value!r}: give one of the ids {ids}.")
        return found[0]

    def _actor(self, email: str | None, client: Client) -> User:
        if not email:
            return client.therapist
        actor = User.objects.filter(email__iexact=email.strip(), is_active=True).first()
        if actor is None or not is_acting_staff(actor):
            raise CommandError(f"--actor {email!r} is not an active therapist or manager.")
        return actor
