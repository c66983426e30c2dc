"""The words of a reminder: the same for every client, so they cannot give one away."""

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from email.utils import formataddr, parseaddr
from enum import StrEnum

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from practice.discreet import clinical_words
from practice.models import PracticeSettings, is_one_line

logger = logging.getLogger(__name__)


# The defaults of the practice's sender name and subject (practice/models.py), as the
# catalogs know them.
OUR_HEADER_WORDS = {
    "Notifications": gettext_lazy("Notifications"),
    "You have a new update": gettext_lazy("You have a new update"),
}


class ReminderKind(StrEnum):
    TODAY = "today"
    DUE_SOON = "due-soon"
    PAST_ITS_DAY = "past-its-day"


@dataclass(frozen=True)
class Message:
    sender_name: str
    subject: str
    text: str
    html: str
    sms: str
    link: str


def sign_in_link() -> str:
    """No token, no id, nothing to tell who it is for."""
    return settings.SITE_URL + reverse("clients:login")


def reminder_message(*, practice_settings: PracticeSettings, kinds: Iterable[str]) -> Message:
    """A client gets at most one a day; no kinds is the caller's bug."""
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
    address = parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or "notifications@localhost"
    email = EmailMultiAlternatives(
        subject=message.subject,
        body=message.text,
        from_email=formataddr((message.sender_name, address)),
        to=[to],
    )
    email.attach_alternative(message.html, "text/html")
    return email


def header_words(practice_settings: PracticeSettings, field: str) -> str:
    """The practice's sender name or subject as its manager wrote it; our own default,
    never changed, in the reader's language (a Spanish reader's subject is not English)."""
    value: str = getattr(practice_settings, field).strip()
    return str(OUR_HEADER_WORDS[value]) if value in OUR_HEADER_WORDS else value


def _neutral(practice_settings: PracticeSettings, field: str, fallback: str) -> str:
    """A row saved before the settings page refused such words still must not reach a client."""
    value = header_words(practice_settings, field)
    if value and is_one_line(value) and not clinical_words(value):
        return value
    logger.error(
        "The practice's %s is empty, clinical or not one line; reminders use a neutral "
        "default until a manager corrects it in the practice settings.",
        field,
    )
    return fallback
