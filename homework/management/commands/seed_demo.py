"""A demo practice for trying the product by hand. Safe to run twice.
(The large practice for load tests and benchmarks is ``python -m bench.large_practice``.)"""

import datetime as dt
import uuid
from base64 import b32decode
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients.models import Client
from clients.services import client_attach_portal_account, client_create, session_schedule
from clients.services.staff_two_step import RECOVERY_DEVICE_NAME
from homework.library import install as install_library
from homework.library import install_translations
from homework.library.es import PROGRAMS as SPANISH_PROGRAMS
from homework.library.programs import install_programs
from homework.management.commands import _demo_kinds as demo_kinds
from homework.management.commands import _demo_spanish as demo_spanish
from homework.models import Assignment, Entry, Exercise, OutboxMessage, Program, ProgramStep
from homework.services import Flags, assignment_create, entry_submit
from practice.models import User

DEFAULT_PASSWORD = "demo-pass-2026"  # noqa: S105 (the documented demo login)  # nosec B105
# The demo's staff sign in with two factors too: this authenticator key (printed,
# documented, the same on every run) and a recovery code put back on every run.
DEMO_TOTP_SECRET = "DEMOPRACTICE2FACTORKEY7DEMOSTAFF"  # noqa: S105 (the documented demo key)  # nosec B105
DEMO_RECOVERY_CODE = "demo2026"
DEMO_AUTHENTICATOR = "demo authenticator"
# A fixed namespace makes every demo entry's key the same on every run.
DEMO_NAMESPACE = uuid.UUID("6f1d3f1e-6f8a-4c55-9d8e-2f6b5b8a4d10")

WRITTEN_RECORDS = [
    (
        19,
        {
            "what_happened": "They read my messages while I was in the shower and then went quiet for the whole evening.",
            "what_was_said_or_done": "When I asked what was wrong they said I was imagining things.",
            "body_distress": 7,
            "what_i_told_myself": "That I was overreacting again.",
            "remember_when_i_miss_them": "The silence was a punishment, and I had done nothing.",
        },
        Flags(),
    ),
    (
        11,
        {
            "what_happened": "We argued about money. They said I would never manage without them.",
            "what_was_said_or_done": "They took my bank card 'to keep it safe'.",
            "body_distress": 8,
            "what_i_told_myself": "Maybe they are right.",
            "remember_when_i_miss_them": "I managed for years before we met.",
        },
        Flags(felt_unsafe=True, discuss_in_session=True),
    ),
    (
        4,
        {
            "what_happened": "A kind message after three days of silence. I felt the pull to reply straight away.",
            "what_was_said_or_done": "I waited an hour and called my sister instead.",
            "body_distress": 5,
            "what_i_told_myself": "I can feel this and still wait.",
            "remember_when_i_miss_them": "",
        },
        Flags(discuss_in_session=True),
    ),
]


def demo_second_factor(user: User) -> None:
    """The documented authenticator key and recovery code, as they were printed."""
    TOTPDevice.objects.filter(user=user).exclude(name=DEMO_AUTHENTICATOR).delete()
    TOTPDevice.objects.update_or_create(
        user=user,
        name=DEMO_AUTHENTICATOR,
        defaults={"key": b32decode(DEMO_TOTP_SECRET).hex(), "confirmed": True},
    )
    recovery, _created = StaticDevice.objects.get_or_create(
        user=user, name=RECOVERY_DEVICE_NAME, defaults={"confirmed": True}
    )
    recovery.token_set.get_or_create(token=DEMO_RECOVERY_CODE)


class Command(BaseCommand):
    help = "Load a demo practice: a therapist, a manager, two clients, their work."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--password", default=None)

    def handle(
        self,
        *args: Any,
        password: str | None,
        **options: Any,
    ) -> None:
        self.demo(password or DEFAULT_PASSWORD)

    @transaction.atomic
    def demo(self, password: str) -> None:
        therapist = self._staff("therapist@demo.test", "Robin Hale", User.Role.THERAPIST, password)
        self._staff("manager@demo.test", "Morgan Lee", User.Role.MANAGER, password)
        alex = self._client(therapist, "Alex", "alex@demo.test", password)
        self._client(therapist, "Sam", "sam@demo.test", password)
        # Spanish from the first page: a therapist and a client who each chose it.
        terapeuta = self._staff(
            "terapeuta@demo.test", "Inés Romero", User.Role.THERAPIST, password, language="es"
        )
        lucia = self._client(terapeuta, "Lucía", "lucia@demo.test", password, language="es")

        today = timezone.localdate()
        tomorrow_ten = timezone.make_aware(
            dt.datetime.combine(today + dt.timedelta(days=1), dt.time(10))
        )
        for starts_at in (
            tomorrow_ten - dt.timedelta(days=21),
            tomorrow_ten - dt.timedelta(days=7),
            tomorrow_ten,
        ):
            session_schedule(actor=therapist, client=alex, starts_at=starts_at)

        # The library comes from a migration; a flushed database gets it back here.
        install_library(Exercise)
        install_translations(Exercise)
        install_programs(Program, ProgramStep, Exercise)
        install_programs(Program, ProgramStep, Exercise, programs=SPANISH_PROGRAMS, language="es")
        assignment = self.assign(
            alex,
            therapist,
            "Keep the full picture",
            starts_on=today - dt.timedelta(days=21),
            due_on=today + dt.timedelta(days=1),
            instructions="Whenever something hard happens this week, jot it down here while it is fresh.",
        )
        assert alex.portal_user is not None
        for days_ago, response, flags in WRITTEN_RECORDS:
            occurred = timezone.localtime() - dt.timedelta(days=days_ago, hours=2)
            self.send(
                assignment,
                f"alex-record-{days_ago}",
                {**response, "occurred_at": occurred.strftime("%Y-%m-%dT%H:%M")},
                sent_at=occurred + dt.timedelta(hours=1),
                flags=flags,
            )
        demo_kinds.seed_alex(self, alex=alex, therapist=therapist, today=today)
        demo_spanish.seed_lucia(self, lucia=lucia, therapist=terapeuta, today=today)

        self.stdout.write(self.style.SUCCESS("Demo practice ready. Sign in with:"))
        for who, where in (
            ("therapist@demo.test", "/admin/"),
            ("manager@demo.test", "/admin/"),
            ("alex@demo.test", "/"),
            ("sam@demo.test", "/"),
            ("terapeuta@demo.test", "/admin/"),
            ("lucia@demo.test", "/"),
        ):
            self.stdout.write(f"  {who:<22} {password}   at {settings.SITE_URL}{where}")
        self.stdout.write(
            "Staff then give a second step: the code an authenticator app shows for the key "
            f"{DEMO_TOTP_SECRET} (or `oathtool --totp -b {DEMO_TOTP_SECRET}`), or the "
            f"recovery code {DEMO_RECOVERY_CODE} (once per run of this command)."
        )

    def _staff(
        self, email: str, name: str, role: str, password: str, *, language: str = ""
    ) -> User:
        user = User.objects.filter(email=email).first()
        if user is None:
            user = User.objects.create_user(
                email=email,
                password=password,
                name=name,
                role=role,
                is_staff=True,
                language=language,
            )
        demo_second_factor(user)
        return user

    def _client(
        self, therapist: User, name: str, email: str, password: str, *, language: str = ""
    ) -> Client:
        client = Client.objects.filter(portal_user__email=email).first()
        if client is None:
            client = client_create(
                actor=therapist, display_name=name, contact_email=email, language=language
            )
            client_attach_portal_account(client=client, email=email, password=password)
        return client

    def assign(self, client: Client, therapist: User, title: str, **details: Any) -> Assignment:
        """The client's assignment of a library exercise, made once."""
        exercise = Exercise.objects.filter(title=title).order_by("owner", "pk").first()
        if exercise is None:
            raise CommandError(f"The library has no exercise called {title!r}.")
        return self.assign_exercise(client, therapist, exercise, **details)

    def assign_exercise(
        self, client: Client, therapist: User, exercise: Exercise, **details: Any
    ) -> Assignment:
        existing = Assignment.objects.filter(client=client, exercise=exercise).first()
        return existing or assignment_create(
            actor=therapist, client=client, exercise=exercise, **details
        )

    def send(
        self,
        assignment: Assignment,
        name: str,
        data: dict[str, Any],
        *,
        sent_at: dt.datetime,
        flags: Flags | None = None,
        occurrence_on: dt.date | None = None,
    ) -> None:
        """Submit one demo entry through the real service, once, dated ``sent_at``."""
        key = uuid.uuid5(DEMO_NAMESPACE, name)
        if Entry.objects.filter(key=key).exists():
            return
        portal_user = assignment.client.portal_user
        assert portal_user is not None
        entry = entry_submit(
            user=portal_user,
            assignment_id=assignment.pk,
            key=key,
            base_version=0,
            data=data,
            flags=flags or Flags(),
        )
        # Spread the demo over the past weeks, as if each was sent on its day.
        # Begun and last saved then too: an export listing an entry begun
        # today and sent weeks ago would read as a fault.
        changes: dict[str, Any] = {
            "submitted_at": sent_at,
            "created_at": sent_at,
            "updated_at": sent_at,
        }
        if entry.shared_at is not None:
            changes["shared_at"] = sent_at
        if occurrence_on is not None:
            changes["occurrence_on"] = occurrence_on
        Entry.objects.filter(pk=entry.pk).update(**changes)
        # The therapist heard of each shared one when it was sent, weeks ago.
        OutboxMessage.objects.filter(entry=entry).update(
            state=OutboxMessage.State.SENT,
            created_at=sent_at,
            last_tried_at=sent_at,
            sent_at=sent_at,
        )
