"""Written in the transaction of its cause; a worker sends each under the row's lock, once."""

import datetime as dt
from smtplib import SMTPException
from typing import Any

from anymail.exceptions import AnymailError
from django.conf import settings
from django.core.mail import BadHeaderError, EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from clients.languages import person_language
from homework.models import Entry, OutboxMessage
from practice import delivery
from practice.languages import in_language
from practice.models import User

NOTICE_KINDS = (OutboxMessage.Kind.ENTRY_NOTICE, OutboxMessage.Kind.FLAG_NOTICE)


def entry_is_flagged(entry: Entry) -> bool:
    return entry.felt_unsafe or entry.needs_review


def entry_notice_write(*, entry: Entry) -> OutboxMessage:
    """Call in the transaction sharing the entry, its row locked: two shares can't both write."""
    client = entry.assignment.client
    notices = {
        notice.kind: notice
        for notice in OutboxMessage.objects.select_for_update(of=("self",)).filter(
            entry=entry, kind__in=NOTICE_KINDS
        )
    }
    flag = notices.get(OutboxMessage.Kind.FLAG_NOTICE)
    plain = notices.get(OutboxMessage.Kind.ENTRY_NOTICE)
    if flag is not None:
        return flag
    if not entry_is_flagged(entry) and plain is not None:
        return plain
    if plain is not None and plain.state == OutboxMessage.State.PENDING:
        message_not_sent(message=plain)
    kind = (
        OutboxMessage.Kind.FLAG_NOTICE
        if entry_is_flagged(entry)
        else OutboxMessage.Kind.ENTRY_NOTICE
    )
    return OutboxMessage.objects.create(
        kind=kind, entry=entry, client=client, recipient_id=client.therapist_id
    )


def notice_send_again(notice: OutboxMessage) -> None:
    if notice.state == OutboxMessage.State.PENDING:
        return
    notice.state = OutboxMessage.State.PENDING
    notice.attempts = 0
    notice.sent_at = None
    notice.last_error = ""
    notice.save(update_fields=["state", "attempts", "sent_at", "last_error"])


def entry_notice_for_update(*, entry_id: int) -> OutboxMessage | None:
    return (
        OutboxMessage.objects.select_for_update(of=("self",))
        .filter(kind__in=NOTICE_KINDS, entry_id=entry_id, state=OutboxMessage.State.PENDING)
        .first()
    )


def pending_message_for_update(
    *, message_id: int, kind: str, related: tuple[str, ...] = ("recipient",)
) -> OutboxMessage | None:
    """None once it was sent or given up (a task run twice), or for a row of another kind."""
    return (
        OutboxMessage.objects.select_for_update(of=("self",))
        .select_related(*related)
        .filter(pk=message_id, kind=kind, state=OutboxMessage.State.PENDING)
        .first()
    )


def message_not_sent(*, message: OutboxMessage) -> None:
    """Its reason is gone (the alert acknowledged, the digest turned off): never sent, kept."""
    message.state = OutboxMessage.State.NOT_SENT
    message.save(update_fields=["state"])


def message_mark_sent(*, message: OutboxMessage, now: dt.datetime) -> None:
    message.state = OutboxMessage.State.SENT
    message.sent_at = message.last_tried_at = now
    message.last_error = ""
    message.save(
        update_fields=["recipient", "state", "attempts", "sent_at", "last_tried_at", "last_error"]
    )


def message_count_failure(
    *,
    message: OutboxMessage,
    failure: BaseException,
    asked_at: dt.datetime | None,
    now: dt.datetime,
    what: str,
) -> str:
    stop = delivery.gives_up(failure, attempts=message.attempts, asked_at=asked_at, now=now)
    if stop:
        message.state = OutboxMessage.State.GIVEN_UP
    message.last_tried_at = now
    message.last_error = delivery.short_error(failure)[:200]
    message.save(update_fields=["state", "attempts", "last_tried_at", "last_error"])
    return delivery.log_failure(failure, what=what, tries=message.attempts, stop=stop)


def message_email(
    *,
    message: OutboxMessage,
    template: str,
    context: dict[str, Any],
    to: User,
    asked_at: dt.datetime | None,
    now: dt.datetime,
    what: str,
) -> str:
    """One try at the row's email (``template``'s subject, text and HTML), counted on the row."""
    context = {**context, "admin_url": settings.SITE_URL + reverse("admin:index")}
    with in_language(person_language(to)):
        subject = render_to_string(f"{template}-subject.txt", context).strip()
        text = render_to_string(f"{template}-body.txt", context)
        html = render_to_string(f"{template}-body.html", context)
    email = EmailMultiAlternatives(subject=subject, body=text, to=[to.email])
    email.attach_alternative(html, "text/html")
    message.attempts += 1
    try:
        email.send()
    except (OSError, SMTPException, BadHeaderError, AnymailError) as failure:
        return message_count_failure(
            message=message, failure=failure, asked_at=asked_at, now=now, what=what
        )
    message_mark_sent(message=message, now=now)
    return "sent"
