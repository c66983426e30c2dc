"""The words of a reminder: the same for every client, so they cannot give one away.

``reminder_message`` takes the practice's settings and which kinds of thing
are waiting, and nothing about the client: no name, no titles, no count. What
it returns can be read over a shoulder or on a lock screen and says only that
something is waiting behind a sign-in.
"""

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from email.utils import formataddr, parseaddr
from enum import StrEnum

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext

from practice.discreet import clinical_words
from practice.models import PracticeSettings, is_one_line

logger = logging.getLogger(__name__)


class ReminderKind(StrEnum):
    """What is waiting, in the order a batched message names them."""

    TODAY = "today"  # the day's occurrence of recurring work
    DUE_SOON = "due-soon"  # one-off work whose day is near
    PAST_ITS_DAY = "past-its-day"  # one-off work whose day has gone by


@dataclass(frozen=True)
class Message:
    sender_name: str
    subject: str
    text: str
    html: str
    sms: str
    link: str


def sign_in_link() -> str:
    """The portal's sign-in page: no token, no id, nothing to tell who it is for."""
    return settings.SITE_URL + reverse("clients:login")


def reminder_message(*, practice_settings: PracticeSettings, kinds: Iterable[str]) -> Message:
    """One message for everything waiting today (a client gets at most one a day).

    Raises ValueError for no kinds or one it does not know: a reminder about
    nothing is a bug in the caller, not a message to send.
    """
    chosen = {ReminderKind(kind) for kind in kinds}
    if not chosen:
        raise ValueError("A reminder needs at least one kind of thing waiting.")
    sender_name = _neutral(practice_settings, "reminder_sender_name", gettext("Notifications"))
    subject = _neutral(practice_settings, "reminder_subject", gettext("You have a new update"))
    return _message(sender_name, subject, sign_in_link(), frozenset(chosen))


def _message(sender_name: str, subject: str, link: str, chosen: frozenset[ReminderKind]) -> Message:
    context = {
        "sender_name": sender_name,
        "subject": subject,
        "link": link,
        **{kind.name.lower(): kind in chosen for kind in ReminderKind},
        "several": len(chosen) > 1,
    }
    return Message(
        sender_name=sender_name,
        subject=" ".join(render_to_string("practice/email/reminder-subject.txt", context).split()),
        text=render_to_string("practice/email/reminder-body.txt", context).strip() + "\n",
        html=render_to_string("practice/email/reminder-body.html", context),
        sms=" ".join(render_to_string("practice/sms/reminder.txt", context).split()),
        link=link,
    )


def reminder_email(*, message: Message, to: str) -> EmailMultiAlternatives:
    """The email for ``message``, from the practice's neutral sender name at
    DEFAULT_FROM_EMAIL's address; the caller sends it (and reads a failure
    with practice.delivery.refused_for_good)."""
    address = parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or "notifications@localhost"
    email = EmailMultiAlternatives(
        subject=message.subject,
        body=message.text,
        from_email=formataddr((message.sender_name, address)),
        to=[to],
    )
    email.attach_alternative(message.html, "text/html")
    return email


def _neutral(practice_settings: PracticeSettings, field: str, fallback: str) -> str:
    """The practice's words for ``field``, unless they could give the message
    away or break its header. The settings page refuses such words; a row
    saved before it did (or changed in the database) still must not reach a client."""
    value: str = getattr(practice_settings, field).strip()
    if value and is_one_line(value) and not clinical_words(value):
        return value
    logger.error(
        "The practice's %s is empty, clinical or not one line; reminders use a neutral "
        "default until a manager corrects it in the practice settings.",
        field,
    )
    return fallback
