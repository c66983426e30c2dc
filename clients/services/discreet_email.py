"""Email that names nothing clinical, from the practice's neutral sender."""

import datetime as dt
import logging
from collections.abc import Callable
from email.utils import formataddr, parseaddr
from smtplib import SMTPException
from typing import Any

from django.conf import settings
from django.core.mail import BadHeaderError, EmailMultiAlternatives
from django.template.loader import render_to_string

from clients.models import Invitation, StaffInvitation
from practice import delivery
from practice.languages import in_language
from practice.reminder_message import header_words
from practice.selectors import practice_settings

logger = logging.getLogger(__name__)


class EmailNotSent(Exception):
    """The mail server could not take an email that must go (the task retries)."""


def send_discreet_email(
    *, to: str, template: str, context: dict[str, Any], language: str | None
) -> bool:
    """Returns whether it went: a mail server being down must not undo the action that asked."""
    try:
        send_discreet_email_or_raise(to=to, template=template, context=context, language=language)
    except BadHeaderError:
        return False  # logged where it was found
    except (OSError, SMTPException) as failure:
        # Never the whole error: a provider's quotes its response, which may hold the address.
        logger.warning("Could not send a %s email: %s.", template, delivery.short_error(failure))
        return False
    return True


def send_discreet_email_or_raise(
    *,
    to: str,
    template: str,
    context: dict[str, Any],
    language: str | None,
    subject: str | None = None,
) -> None:
    """In the recipient's ``language`` (None: the practice's, for someone with no account yet),
    from the neutral sender; under the neutral subject unless ``subject`` (staff mail) says more."""
    practice = practice_settings()
    sender_address = parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or "notifications@localhost"
    with in_language(language):
        text = render_to_string(f"{template}-body.txt", context)
        html = render_to_string(f"{template}-body.html", context)
        sender_name = header_words(practice, "reminder_sender_name")
        neutral_subject = header_words(practice, "reminder_subject")
    message = EmailMultiAlternatives(
        subject=neutral_subject if subject is None else subject,
        body=text,
        from_email=formataddr((sender_name, sender_address)),
        to=[to],
    )
    message.attach_alternative(html, "text/html")
    try:
        message.send()
    except BadHeaderError:
        # Retrying will not help: a manager has to correct the practice settings.
        logger.error(
            "Could not send a %s email: the practice's sender name or subject cannot go "
            "into an email header. Correct them in the practice settings.",
            template,
        )
        raise


def invitation_email_attempt(
    *,
    invitation: Invitation | StaffInvitation,
    send: Callable[[], None],
    now: dt.datetime,
    what: str,
) -> str:
    invitation.email_attempts += 1
    try:
        send()
    except (OSError, SMTPException, BadHeaderError) as failure:
        return delivery.count_failure(
            invitation,
            failure,
            attempts="email_attempts",
            given_up="email_given_up_at",
            asked_at=invitation.email_asked_at,
            now=now,
            what=what,
        )
    invitation.emailed_at = now
    invitation.save(update_fields=["email_attempts", "emailed_at"])
    return "sent"
