"""No names, no words, no titles in the weekly digest: the inbox may be read by others too."""

import datetime as dt
import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from clients.selectors import active_therapists
from homework.models import Entry, OutboxMessage
from homework.selectors.caseload import caseload
from homework.selectors.period import practice_date
from homework.services.outbox import message_email, message_not_sent, pending_message_for_update
from practice.delivery import raise_if_failed
from practice.models import User
from practice.selectors import practice_settings

logger = logging.getLogger(__name__)

# Monday from 8 on the practice's clock: before the week's sessions, never in the night.
DIGEST_WEEKDAY = 0
DIGEST_FROM_HOUR = 8
WEEK = dt.timedelta(days=7)


def digest_slot(therapist_id: int, day: dt.date) -> str:
    year, week, _weekday = day.isocalendar()
    return f"digest:{therapist_id}:{year}-W{week:02d}"


@transaction.atomic
def digests_scan(*, now: dt.datetime) -> list[int]:
    today = practice_date(now)
    local = timezone.localtime(now)
    if (
        practice_settings().weekly_digest
        and today.weekday() == DIGEST_WEEKDAY
        and local.hour >= DIGEST_FROM_HOUR
    ):
        OutboxMessage.objects.bulk_create(
            [
                OutboxMessage(
                    kind=OutboxMessage.Kind.DIGEST,
                    recipient_id=therapist_id,
                    slot=digest_slot(therapist_id, today),
                    slot_on=today,
                    channel="email",
                    created_at=now,
                )
                for therapist_id in active_therapists().values_list("pk", flat=True)
            ],
            ignore_conflicts=True,
        )
    return list(
        OutboxMessage.objects.filter(
            kind=OutboxMessage.Kind.DIGEST, state=OutboxMessage.State.PENDING
        ).values_list("pk", flat=True)
    )


@dataclass(frozen=True)
class WeekInNumbers:
    new_entries: int  # shared with the therapist in the past seven days
    flags_to_read: int  # shared entries with a flag, not opened yet
    done: int  # of the work due in the past seven days, done
    due: int


def week_in_numbers(*, therapist: User, now: dt.datetime) -> WeekInNumbers:
    rows = caseload(user=therapist, therapist=therapist, now=now)
    new = (
        Entry.objects.readable_by_staff()
        .filter(assignment__client__therapist=therapist, shared_at__gt=now - WEEK)
        .count()
    )
    return WeekInNumbers(
        new_entries=new,
        flags_to_read=sum(row.unread_flags for row in rows),
        done=sum(row.week[0] for row in rows),
        due=sum(row.week[1] for row in rows),
    )


class DigestNotSent(Exception):
    """The mail server could not take a digest this time (the task retries)."""


def digest_send(*, message_id: int, now: dt.datetime) -> str:
    return raise_if_failed(_digest_try(message_id, now), DigestNotSent(message_id))


@transaction.atomic
def _digest_try(message_id: int, now: dt.datetime) -> str:
    row = pending_message_for_update(message_id=message_id, kind=OutboxMessage.Kind.DIGEST)
    if row is None:
        return "skipped"
    therapist = row.recipient
    if (
        not (therapist.is_active and therapist.is_therapist)
        or not practice_settings().weekly_digest
    ):
        message_not_sent(message=row)
        return "skipped"
    return message_email(
        message=row,
        template="homework/email/digest",
        context={"therapist": therapist, "week": week_in_numbers(therapist=therapist, now=now)},
        to=therapist,
        asked_at=row.created_at,
        now=now,
        what=f"digest {row.pk}",
    )
