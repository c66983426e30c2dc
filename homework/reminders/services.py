"""The reminders' two writes: the scan, which writes what is due to the outbox, and the send, which
takes one row out through the client's safe channel. The unique (client, slot) constraint makes a
second scan a no-op, and the send holds the row's lock until it records the result, so two workers
send a row once; only a provider timeout can send it twice, and it never names the client's work."""

import datetime as dt
import logging
import zoneinfo
from dataclasses import dataclass
from smtplib import SMTPException
from typing import Any

from anymail.exceptions import AnymailError
from django.core.mail import BadHeaderError
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from clients.contact.models import ContactProfile
from clients.contact.selectors import profiles_with_a_safe_channel
from clients.languages import client_language
from clients.models import Client
from homework.kinds import get_kind
from homework.models import (
    Assignment,
    Entry,
    OutboxMessage,
    answered_days_by_assignment,
    session_days_by_client,
)
from homework.reminders.due import (
    PAST_ITS_DAY_FOR_DAYS,
    Contact,
    Past,
    Work,
    may_go_now,
    reminder_due,
    slot_key,
)
from practice import delivery, sms
from practice.languages import in_language
from practice.reminder_message import reminder_email, reminder_message
from practice.selectors import practice_settings

logger = logging.getLogger(__name__)

# A day-late reminder helps no one; the next day's carries what still waits.
REMINDER_TRIES = 5
# Enough for the longest spacing and for work named as past its day.
LOOK_BACK_DAYS = PAST_ITS_DAY_FOR_DAYS + 3
Reason = OutboxMessage.Reason


class ReminderNotSent(Exception):
    """The task retries."""

    def __init__(self, message_id: int, *, retry_after: float | None = None) -> None:
        super().__init__(message_id)
        self.retry_after = retry_after


def contact_of(profile: ContactProfile) -> Contact:
    return Contact(
        zone=profile.client.timezone,
        safe_hours=profile.safe_hours,
        reminder_at=profile.recurring_reminder_at,
        days_between=profile.days_between,
    )


@dataclass(frozen=True)
class Scanned:
    due: int  # a row already written by another scan is left as it is
    ready: list[int]


def _work_by_client(clients: "QuerySet[Client, Any]", *, since: dt.date) -> dict[int, list[Work]]:
    rows = (
        Assignment.objects.filter(client__in=clients, status=Assignment.Status.ACTIVE)
        .annotate(sent=Count("entries", filter=Q(entries__status=Entry.Status.SUBMITTED)))
        .values(
            "id", "client_id", "schedule", "starts_on", "ends_on", "weekdays", "due_on",
            "sent", "exercise__kind", "days_before",
        )
    )  # fmt: skip
    assignments = list(rows)
    # The day a before-session window opens is that work's day to remind on.
    before_session = [row for row in assignments if row["days_before"] is not None]
    session_days = session_days_by_client({row["client_id"] for row in before_session})
    answered = answered_days_by_assignment(row["id"] for row in before_session)
    sent_slots: dict[int, set[dt.date]] = {}
    for assignment_id, day in Entry.objects.filter(
        assignment__client__in=clients,
        assignment__status=Assignment.Status.ACTIVE,
        status=Entry.Status.SUBMITTED,
        occurrence_on__gte=since,
    ).values_list("assignment_id", "occurrence_on"):
        if day is not None:
            sent_slots.setdefault(assignment_id, set()).add(day)
    found: dict[int, list[Work]] = {}
    for row in assignments:
        found.setdefault(row["client_id"], []).append(
            Work(
                id=row["id"],
                schedule=row["schedule"],
                starts_on=row["starts_on"],
                ends_on=row["ends_on"],
                weekdays=row["weekdays"] or [],
                due_on=row["due_on"],
                sent=row["sent"],
                sent_slots=frozenset(sent_slots.get(row["id"], ())),
                is_log=get_kind(row["exercise__kind"]).is_log,
                days_before=row["days_before"],
                session_days=session_days.get(row["client_id"], ()),
                answered_days=answered.get(row["id"], frozenset()),
            )
        )
    return found


def _past_by_client(clients: "QuerySet[Client, Any]", *, since: dt.date) -> dict[int, Past]:
    days: dict[int, set[dt.date]] = {}
    named: dict[int, set[int]] = {}
    for client_id, slot_on, past_due in OutboxMessage.objects.filter(
        kind=OutboxMessage.Kind.REMINDER, client__in=clients, slot_on__gte=since
    ).values_list("client_id", "slot_on", "past_due_ids"):
        if slot_on is not None:
            days.setdefault(client_id, set()).add(slot_on)
        named.setdefault(client_id, set()).update(past_due or [])
    return {
        client_id: Past(
            days=frozenset(days.get(client_id, ())),
            named_past_its_day=frozenset(named.get(client_id, ())),
        )
        for client_id in days.keys() | named.keys()
    }


@transaction.atomic
def reminders_scan(*, now: dt.datetime) -> Scanned:
    """A fixed number of queries however many clients. Clients without a portal account are skipped:
    the reminder's only link is to sign in."""
    profiles = list(profiles_with_a_safe_channel().filter(client__portal_user__isnull=False))
    clients = Client.objects.filter(
        pk__in=profiles_with_a_safe_channel().values("client_id"), portal_user__isnull=False
    ).values("pk")
    since = now.date() - dt.timedelta(days=LOOK_BACK_DAYS)
    work = _work_by_client(clients, since=since)
    past = _past_by_client(clients, since=since)
    new = []
    for profile in profiles:
        due = reminder_due(
            work.get(profile.client_id, []),
            contact=contact_of(profile),
            past=past.get(profile.client_id, Past()),
            now=now,
        )
        if due is None or profile.client.portal_user_id is None:
            continue
        new.append(
            OutboxMessage(
                kind=OutboxMessage.Kind.REMINDER,
                client_id=profile.client_id,
                recipient_id=profile.client.portal_user_id,
                slot=slot_key(profile.client_id, due.slot_on),
                slot_on=due.slot_on,
                channel=profile.safe_channels[0],
                reminder_kinds=[str(kind) for kind in due.kinds],
                past_due_ids=list(due.past_due_ids),
                send_after=due.send_at,
                reason=Reason.OUTSIDE_SAFE_HOURS if due.held else Reason.NONE,
                created_at=now,
            )
        )
    OutboxMessage.objects.bulk_create(new, ignore_conflicts=True)
    ready = list(
        OutboxMessage.objects.filter(
            kind=OutboxMessage.Kind.REMINDER,
            state=OutboxMessage.State.PENDING,
            send_after__lte=now,
            attempts__lt=REMINDER_TRIES,
        )
        .order_by("attempts", "send_after", "pk")
        .values_list("pk", flat=True)[: delivery.SWEEP_LIMIT * 20]
    )
    return Scanned(due=len(new), ready=ready)


def reminder_send(*, message_id: int, now: dt.datetime | None = None) -> str:
    """The client's choices are read again under lock. Returns "sent", "held" (outside safe hours),
    "not-sent", "given-up" or "skipped"; raises ReminderNotSent, once the try is recorded, when
    worth retrying."""
    outcome, retry_after = _reminder_try(message_id, now or timezone.now())
    return delivery.raise_if_failed(outcome, ReminderNotSent(message_id, retry_after=retry_after))


def _close(row: OutboxMessage, reason: str) -> str:
    row.state = OutboxMessage.State.NOT_SENT
    row.reason = reason
    row.save(update_fields=["state", "reason"])
    logger.info("Reminder %s not sent: %s.", row.pk, reason)
    return "not-sent"


def _locked_with_profile(message_id: int) -> tuple[OutboxMessage | None, ContactProfile | None]:
    """Both locked, so a client turning this channel off waits for this send, and a later send sees
    their change."""
    reminders = OutboxMessage.objects.filter(pk=message_id, kind=OutboxMessage.Kind.REMINDER)
    row = (
        reminders.select_for_update(of=("self", "client__contact_profile"))
        .select_related("client__contact_profile")
        .filter(client__contact_profile__isnull=False)  # inner joins: lockable
        .first()
    )
    if row is not None:
        assert row.client is not None
        return row, row.client.contact_profile
    return reminders.select_for_update(of=("self",)).first(), None


@transaction.atomic
def _reminder_try(message_id: int, now: dt.datetime) -> tuple[str, float | None]:
    row, profile = _locked_with_profile(message_id)
    if row is None or row.state != OutboxMessage.State.PENDING:
        return "skipped", None
    if row.send_after is not None and row.send_after > now:
        return "skipped", None
    if (
        profile is None
        or not profile.allows(row.channel)
        or profile.client.status != Client.Status.ACTIVE
    ):
        return _close(row, Reason.TURNED_OFF), None
    assert row.slot_on is not None
    hold = may_go_now(contact=contact_of(profile), slot_on=row.slot_on, now=now)
    if not hold.go:
        if hold.until is None:
            return _close(row, Reason.NO_SAFE_TIME), None
        row.send_after, row.reason = hold.until, Reason.OUTSIDE_SAFE_HOURS
        row.save(update_fields=["send_after", "reason"])
        return "held", None
    with in_language(client_language(profile.client)):
        message = reminder_message(practice_settings=practice_settings(), kinds=row.reminder_kinds)
    row.attempts += 1
    row.last_tried_at = now
    try:
        if row.channel == ContactProfile.Channel.TEXT:
            sms.send_sms(to=str(profile.phone), body=message.sms)
        else:
            reminder_email(message=message, to=profile.email).send()
    except (sms.SmsError, OSError, SMTPException, BadHeaderError, AnymailError) as failure:
        return _count_failure(row, failure, now=now, zone=profile.client.timezone)
    row.state, row.sent_at, row.reason, row.last_error = (
        OutboxMessage.State.SENT, now, Reason.NONE, ""
    )  # fmt: skip
    row.save(
        update_fields=["state", "attempts", "sent_at", "last_tried_at", "reason", "last_error"]
    )
    return "sent", None


def _count_failure(
    row: OutboxMessage, failure: BaseException, *, now: dt.datetime, zone: str
) -> tuple[str, float | None]:
    """Given up when it cannot get better, after REMINDER_TRIES, or once its day is over on the
    client's clock."""
    if isinstance(failure, sms.SmsError):
        error = f"{type(failure).__name__} {failure.reason}"
        for_good = isinstance(failure, sms.SmsPermanentError)
        if isinstance(failure, sms.SmsTransientError) and failure.maybe_sent:
            error += " (may have gone)"
    else:
        error = delivery.short_error(failure)
        for_good = delivery.refused_for_good(failure)
    day_over = (
        row.slot_on is not None and row.slot_on < now.astimezone(zoneinfo.ZoneInfo(zone)).date()
    )
    stop = for_good or row.attempts >= REMINDER_TRIES or day_over
    if stop:
        row.state = OutboxMessage.State.GIVEN_UP
    row.last_error = error[:200]
    row.save(update_fields=["state", "attempts", "last_tried_at", "last_error"])
    delivery.log_failure(failure, what=f"reminder {row.pk}", tries=row.attempts, stop=stop)
    if stop:
        return "given-up", None
    retry_after = failure.retry_after if isinstance(failure, sms.SmsTransientError) else None
    return "failed", retry_after
