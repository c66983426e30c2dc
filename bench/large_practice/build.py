"""A large practice for load tests and benchmarks (``python -m bench.large_practice N``).

N therapists with ``clients_per_therapist`` clients each (50 by default),
every client with a portal login, sessions, maybe a contact profile, and the
work ``bench.large_practice.plan`` gives them: entries of every kind, drafts, private
entries, flags, the therapist's comments and the client's notes.

Written with bulk inserts, one transaction per therapist: a therapist whose
account exists was written whole before, and is skipped, so running again
adds nothing and an interrupted run carries on where it stopped. Responses
go through each kind's own ``validate`` (the stored shape is the real one)
and are sealed like any other (bulk_create prepares each value with the
field's ``get_db_prep_value``, which encrypts). Notices to the therapist
(the outbox) are not written: these entries were all "sent" in the past.
"""

import datetime as dt
import random
import uuid
import zoneinfo
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import models, transaction
from django.utils import timezone

from bench.large_practice import plan
from bench.large_practice.responses import MAKERS
from clients.contact.hours import ANY_TIME
from clients.models import Client, ContactProfile, Session
from homework import schedules
from homework.kinds import get_kind
from homework.models import Assignment, Entry, EntryComment, EntryNote, Exercise
from practice.models import User

# Fixed, so every simulated entry's key is the same on every run.
SCALE_NAMESPACE = uuid.UUID("0b7d1c52-3f1e-4b8e-9a57-5c2f7d0e9a11")
DOMAIN = "scale.test"
MANAGER_EMAIL = f"manager@{DOMAIN}"
BATCH = 500

COMMENTS = [
    "Thank you for writing this down. Let's look at it together on Thursday.",
    "I noticed how you stayed with the feeling here. That took strength.",
    "Let's talk about this one first next time.",
]
NOTES = ["Reading this back, I see it more clearly now.", "It happened again two days later."]


def therapist_email(number: int) -> str:
    return f"therapist-{number:02d}@{DOMAIN}"


def client_email(number: int) -> str:
    return f"client-{number:04d}@{DOMAIN}"


@contextmanager
def dates_as_given(*model_classes: type[models.Model]) -> Iterator[None]:
    """Keep the dates set on the rows (a year of history) instead of "now"
    from auto_now/auto_now_add, for the inserts made inside."""
    fields = [
        f
        for model in model_classes
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]
    saved = [(f, f.auto_now, f.auto_now_add) for f in fields]  # type: ignore[attr-defined]
    for f in fields:
        f.auto_now = f.auto_now_add = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for f, auto_now, auto_now_add in saved:
            f.auto_now, f.auto_now_add = auto_now, auto_now_add  # type: ignore[attr-defined]


@dataclass
class Built:
    therapists_added: int = 0
    clients_added: int = 0


class ScalePractice:
    """Writes the large practice; ``second_factor`` gives staff the demo's
    authenticator and recovery code (seed_demo's own)."""

    def __init__(
        self,
        *,
        password: str,
        clients_per_therapist: int,
        second_factor: Callable[[User], None],
    ) -> None:
        # One slow hash for every simulated account: hashing each would take minutes.
        self.password_hash = make_password(password)
        self.per_therapist = clients_per_therapist
        self.second_factor = second_factor
        self.now = timezone.now()
        found = {e.title: e for e in Exercise.objects.filter(title__in=plan.TITLES, owner=None)}
        missing = sorted(set(plan.TITLES) - set(found))
        if missing:
            raise LookupError(f"The library lacks {', '.join(missing)}.")
        self.exercises = found

    def build(self, therapists: int) -> Built:
        built = Built()
        self._staff(MANAGER_EMAIL, "Practice Manager", User.Role.MANAGER)
        for number in range(1, therapists + 1):
            if User.objects.filter(email=therapist_email(number)).exists():
                continue
            with transaction.atomic():
                self._therapist(number)
            built.therapists_added += 1
            built.clients_added += self.per_therapist
        return built

    def _staff(self, email: str, name: str, role: str) -> User:
        user = User.objects.filter(email=email).first()
        if user is None:
            user = User.objects.create(
                email=email, name=name, role=role, is_staff=True, password=self.password_hash
            )
        self.second_factor(user)
        return user

    def _therapist(self, number: int) -> None:
        therapist = self._staff(
            therapist_email(number), f"Therapist {number:02d}", User.Role.THERAPIST
        )
        first = (number - 1) * self.per_therapist + 1
        plans = [
            plan.plan_client(first + index, index, now=self.now)
            for index in range(self.per_therapist)
        ]
        users = User.objects.bulk_create(
            User(
                email=client_email(p.number),
                role=User.Role.CLIENT,
                password=self.password_hash,
                date_joined=self.now - dt.timedelta(days=p.days),
            )
            for p in plans
        )
        with dates_as_given(Client):
            clients = Client.objects.bulk_create(
                Client(
                    therapist=therapist,
                    display_name=p.name,
                    contact_email=client_email(p.number),
                    timezone=p.timezone,
                    portal_user=user,
                    created_at=self.now - dt.timedelta(days=p.days),
                )
                for p, user in zip(plans, users, strict=True)
            )
        Session.objects.bulk_create(
            (
                Session(client=c, starts_at=at)
                for p, c in zip(plans, clients, strict=True)
                for at in p.sessions
            ),
            batch_size=BATCH,
        )
        ContactProfile.objects.bulk_create(
            self._contact_profile(p, c)
            for p, c in zip(plans, clients, strict=True)
            if p.has_contact_profile
        )
        self._work(therapist, plans, clients)

    def _contact_profile(self, p: plan.ClientPlan, client: Client) -> ContactProfile:
        evenings = [[["18:00", "21:00"]] for _day in range(7)]
        return ContactProfile(
            client=client,
            email_is_safe=p.number % 3 != 0,
            email=client_email(p.number),
            safe_hours=[list(map(list, ANY_TIME))] * 7 if p.number % 2 else evenings,
            days_between=(1, 2, 7)[p.number % 3],
            checked_on=self.now.date() - dt.timedelta(days=p.number % 40),
            changed_at=self.now - dt.timedelta(days=p.number % 40),
        )

    def _work(self, therapist: User, plans: list[plan.ClientPlan], clients: list[Client]) -> None:
        pairs = []
        for p, client in zip(plans, clients, strict=True):
            for work in p.work:
                pairs.append((p, client, work, self._assignment(therapist, client, work)))
        with dates_as_given(Assignment):
            Assignment.objects.bulk_create([a for *_rest, a in pairs], batch_size=BATCH)
        entries: list[Entry] = []
        for p, client, work, assignment in pairs:
            entries += self._entries(p, client, work, assignment)
        with dates_as_given(Entry):
            Entry.objects.bulk_create(entries, batch_size=BATCH)
        self._comments_and_notes(therapist, entries)

    def _assignment(self, therapist: User, client: Client, work: plan.Work) -> Assignment:
        today = self.now.date()
        ended = (work.ends_on or work.due_on or today) < today
        return Assignment(
            client=client,
            exercise=self.exercises[work.title],
            starts_on=work.starts_on,
            due_on=work.due_on,
            schedule=work.schedule,
            weekdays=work.weekdays,
            ends_on=work.ends_on,
            no_contact_since=work.no_contact_since,
            status=Assignment.Status.COMPLETED if ended else Assignment.Status.ACTIVE,
            created_by=therapist,
            created_at=timezone.make_aware(dt.datetime.combine(work.starts_on, dt.time(9))),
        )

    def _entries(
        self, p: plan.ClientPlan, client: Client, work: plan.Work, assignment: Assignment
    ) -> list[Entry]:
        rng = plan.seeded(f"scale-entries-{p.number}-{work.title}")
        exercise = assignment.exercise
        kind = get_kind(exercise.kind)
        make = MAKERS[exercise.kind]
        zone = zoneinfo.ZoneInfo(client.timezone)
        last_session = max((s for s in p.sessions if s <= self.now), default=None)
        entries = []
        for number, sent in enumerate(work.sent):
            data = make(rng, at=sent.at, options=exercise.options, **sent.extra)
            response = kind.validate(data, exercise=exercise, tz=client.timezone)
            lag = dt.timedelta(minutes=rng.choice([5, 20, 90, 600, 1800]))
            submitted = min(sent.at + lag, self.now - dt.timedelta(minutes=30))
            private = rng.random() < 0.04
            entry = Entry(
                key=uuid.uuid5(SCALE_NAMESPACE, f"{p.number}/{work.title}/{number}"),
                assignment=assignment,
                schema_version=kind.schema_version,
                response=response,
                asked=kind.asked(exercise, response, before={}, answered_before={}, shown=None),
                status=Entry.Status.SUBMITTED,
                discuss_in_session=rng.random() < 0.08,
                felt_unsafe=rng.random() < 0.03,
                private=private,
                created_at=submitted - dt.timedelta(minutes=rng.randint(1, 15)),
                updated_at=submitted,
                submitted_at=submitted,
                shared_at=None if private else submitted,
                **kind.plain_columns(response, exercise=exercise),
            )
            if not private and last_session is not None and submitted < last_session:
                entry.seen_at = min(submitted + dt.timedelta(hours=rng.randint(2, 72)), self.now)
            entry.occurrence_on = self._slot(assignment, kind, entry, zone)
            entries.append(entry)
        if work.draft_at is not None:
            entries.append(self._draft(p, client, work, assignment, rng, zone))
        return entries

    def _slot(self, assignment: Assignment, kind: Any, entry: Entry, zone: dt.tzinfo) -> Any:
        """The slot the entry counts for, as entry_submit files it."""
        if not assignment.is_recurring:
            return None
        begun = schedules.slot_for_new_entry(assignment, timezone.localdate(entry.created_at, zone))
        if not kind.is_log:
            return begun
        happened = timezone.localdate(kind.happened_at(entry), zone)
        today = timezone.localdate(self.now, zone)
        return schedules.slot_for_happened(assignment, happened_on=happened, today=today) or begun

    def _draft(
        self,
        p: plan.ClientPlan,
        client: Client,
        work: plan.Work,
        assignment: Assignment,
        rng: random.Random,
        zone: dt.tzinfo,
    ) -> Entry:
        """Words begun and not sent: some of the answers, kept as a draft keeps them."""
        assert work.draft_at is not None
        exercise = assignment.exercise
        kind = get_kind(exercise.kind)
        data = MAKERS[exercise.kind](rng, at=work.draft_at, options=exercise.options)
        partial = {k: v for k, v in data.items() if rng.random() < 0.6}
        draft = Entry(
            key=uuid.uuid5(SCALE_NAMESPACE, f"{p.number}/{work.title}/draft"),
            assignment=assignment,
            schema_version=kind.schema_version,
            response=kind.validate_draft(partial, exercise=exercise, tz=client.timezone),
            status=Entry.Status.DRAFT,
            created_at=work.draft_at - dt.timedelta(minutes=rng.randint(1, 30)),
            updated_at=work.draft_at,
        )
        if assignment.is_recurring:
            draft.occurrence_on = schedules.slot_for_new_entry(
                assignment, timezone.localdate(draft.created_at, zone)
            )
        return draft

    def _comments_and_notes(self, therapist: User, entries: list[Entry]) -> None:
        """The therapist's word on one read entry in twenty; the client's note on a few."""
        rng = plan.seeded(f"scale-comments-{therapist.email}")
        comments, notes = [], []
        for entry in entries:
            if entry.seen_at is None:
                continue
            if rng.random() < 0.05:
                text = rng.choice(COMMENTS)
                comments.append(
                    EntryComment(entry=entry, author=therapist, text=text, created_at=entry.seen_at)
                )
            if rng.random() < 0.015:
                at = min(entry.seen_at + dt.timedelta(days=1), self.now)
                notes.append(EntryNote(entry=entry, text=rng.choice(NOTES), created_at=at))
        with dates_as_given(EntryComment, EntryNote):
            EntryComment.objects.bulk_create(comments, batch_size=BATCH)
            EntryNote.objects.bulk_create(notes, batch_size=BATCH)


def scale_counts() -> dict[str, int]:
    """What the large practice holds now (the lines the command prints)."""
    entries = Entry.objects.filter(assignment__client__therapist__email__endswith=f"@{DOMAIN}")
    return {
        "therapists": User.objects.filter(
            role=User.Role.THERAPIST, email__endswith=f"@{DOMAIN}"
        ).count(),
        "clients": Client.objects.filter(therapist__email__endswith=f"@{DOMAIN}").count(),
        "sessions": Session.objects.filter(client__therapist__email__endswith=f"@{DOMAIN}").count(),
        "entries": entries.count(),
        "drafts": entries.filter(status=Entry.Status.DRAFT).count(),
        "private": entries.filter(private=True).count(),
        "felt unsafe": entries.filter(felt_unsafe=True).count(),
        "to review": entries.filter(needs_review=True).count(),
        "comments": EntryComment.objects.filter(entry__in=entries).count(),
    }
