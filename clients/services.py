"""Every write to clients goes through here."""

import datetime as dt
import hashlib
import logging
import secrets
from base64 import urlsafe_b64encode
from collections.abc import Iterable
from dataclasses import dataclass
from email.utils import formataddr, parseaddr
from smtplib import SMTPException
from typing import Any

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import BadHeaderError, EmailMultiAlternatives
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients.models import AccessEvent, Client, Invitation, Session
from clients.selectors import clients_for_user, invitations_for_client
from practice import delivery
from practice.dates import as_zone, end_of_day
from practice.models import User, new_session_salt
from practice.queue import enqueue_on_commit
from practice.requests import SENT_TWICE_WINDOW
from practice.selectors import practice_settings

logger = logging.getLogger(__name__)

CLIENT_EDITABLE_FIELDS = (
    "display_name",
    "contact_email",
    "timezone",
    "reminder_channel",
    "quiet_hours_start",
    "quiet_hours_end",
)
# An access-log line repeated within this long (a page reloaded) is written once.
ACCESS_EVENT_REPEAT = dt.timedelta(minutes=15)
# Taken sign-in addresses one invitation link may try before it stops working.
INVITATION_TAKEN_EMAIL_TRIES = 5
# "Make the link" sent again within this long is the first press twice (a
# double click, a form sent again after a slow reply): the same link, one
# email. Shorter than SENT_TWICE_WINDOW: a therapist who sees the email went
# to a wrong address, corrects it and asks again means a new link to the new
# address, and that takes longer than this.
INVITATION_SENT_TWICE_WINDOW = dt.timedelta(seconds=15)


def _require_staff(actor: User) -> None:
    if not (actor.is_therapist or actor.is_manager):
        raise PermissionDenied(_("Only therapists and practice managers manage clients."))


@transaction.atomic
def client_create(*, actor: User, therapist: User | None = None, **fields: Any) -> Client:
    """Add a client. A therapist adds to their own caseload; a manager to anyone's."""
    _require_staff(actor)
    therapist = therapist or actor
    if actor.is_therapist and therapist != actor:
        raise PermissionDenied(_("Therapists add clients to their own caseload."))
    if not therapist.is_therapist:
        raise PermissionDenied(_("A client's therapist must be a therapist."))
    unknown = set(fields) - set(CLIENT_EDITABLE_FIELDS)
    if unknown:
        raise TypeError(f"Unknown client fields: {sorted(unknown)}")
    client = Client(therapist=therapist, **fields)
    client.full_clean()
    client.save()
    return client


@transaction.atomic
def client_update(*, actor: User, client: Client, **changes: Any) -> Client:
    _require_staff(actor)
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied(_("This is not one of your clients."))
    unknown = set(changes) - {*CLIENT_EDITABLE_FIELDS, "therapist"}
    if unknown:
        raise TypeError(f"Unknown client fields: {sorted(unknown)}")
    if "therapist" in changes and not actor.is_manager and changes["therapist"] != client.therapist:
        raise PermissionDenied(_("Only a practice manager moves a client to another therapist."))
    for name, value in changes.items():
        setattr(client, name, value)
    client.full_clean()
    client.save(update_fields=list(changes))
    return client


def _own_client(actor: User, client: Client) -> None:
    _require_staff(actor)
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied(_("This is not one of your clients."))


@transaction.atomic
def client_archive(*, actor: User, client: Client) -> Client:
    """Take a client out of the lists and the portal, keeping every record.

    Clients with records are never deleted: what they wrote may matter later
    (a protection order, a complaint). Restoring undoes this.
    """
    _own_client(actor, client)
    if client.status != Client.Status.ARCHIVED:
        client.status = Client.Status.ARCHIVED
        client.save(update_fields=["status"])
    return client


@transaction.atomic
def client_restore(*, actor: User, client: Client) -> Client:
    _own_client(actor, client)
    if client.status != Client.Status.ACTIVE:
        client.status = Client.Status.ACTIVE
        client.save(update_fields=["status"])
    return client


def access_event_record(
    *, actor: User, client: Client, action: str, what: str = ""
) -> AccessEvent | None:
    """Note in the client's access log that ``actor`` saw their records.

    The same look repeated within ACCESS_EVENT_REPEAT (a reload) is written
    once; returns None then.
    """
    written = access_events_record(actor=actor, clients=[client], action=action, what=what)
    return written[0] if written else None


@transaction.atomic
def access_events_record(
    *, actor: User, clients: Iterable[Client], action: str, what: str = ""
) -> list[AccessEvent]:
    """One look at several clients' records at once (a list page showing
    their words): a line in each one's access log, in a constant number of
    queries however many clients. Returns the lines written (a repeat
    within ACCESS_EVENT_REPEAT is not written again)."""
    if action not in AccessEvent.Action.values:
        raise ValueError(f"Unknown access action: {action!r}")
    _require_staff(actor)
    by_id = {client.pk: client for client in clients}
    if not by_id:
        return []
    own = set(clients_for_user(user=actor).filter(pk__in=by_id).values_list("pk", flat=True))
    if own != set(by_id):
        raise PermissionDenied(_("This is not one of your clients."))
    what = what[:200]  # AccessEvent.what's length
    recent = timezone.now() - ACCESS_EVENT_REPEAT
    repeated = set(
        AccessEvent.objects.filter(
            actor=actor, client_id__in=by_id, action=action, what=what, at__gte=recent
        ).values_list("client_id", flat=True)
    )
    return AccessEvent.objects.bulk_create(
        AccessEvent(actor=actor, client=client, action=action, what=what)
        for pk, client in by_id.items()
        if pk not in repeated
    )


@transaction.atomic
def client_attach_portal_account(*, client: Client, email: str, password: str) -> User:
    """Give a client a portal login (the invitation flow will call this)."""
    user = User.objects.create_user(email=email, password=password, role=User.Role.CLIENT)
    client.portal_user = user
    client.save(update_fields=["portal_user"])
    return user


@transaction.atomic
def session_schedule(*, actor: User, client: Client, starts_at: dt.datetime) -> Session:
    _require_staff(actor)
    if not clients_for_user(user=actor).filter(pk=client.pk).exists():
        raise PermissionDenied(_("This is not one of your clients."))
    # Checked here as on the admin's form (Session.clean); a time already
    # booked is that session, not an error.
    Session(client=client, starts_at=starts_at).full_clean(
        validate_unique=False, validate_constraints=False
    )
    session, _created = Session.objects.get_or_create(client=client, starts_at=starts_at)
    return session


def _own_session(actor: User, session: Session) -> None:
    _require_staff(actor)
    if not clients_for_user(user=actor).filter(pk=session.client_id).exists():
        raise PermissionDenied(_("This is not one of your clients."))


@transaction.atomic
def session_reschedule(*, actor: User, session: Session, starts_at: dt.datetime) -> Session:
    _own_session(actor, session)
    session.starts_at = starts_at
    session.full_clean()
    session.save(update_fields=["starts_at"])
    return session


@transaction.atomic
def session_cancel(*, actor: User, session: Session) -> None:
    _own_session(actor, session)
    session.delete()


# -- invitations and portal accounts -------------------------------------------------


class InvitationRefused(Exception):
    """An invitation link that cannot be used. ``reason`` says why, for a kind message."""

    UNKNOWN = "unknown"
    USED = "used"
    EXPIRED = "expired"
    REVOKED = "revoked"
    TOO_MANY_TRIES = "too-many-tries"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class IssuedInvitation:
    invitation: Invitation
    url: str  # shown once, never stored (see Invitation.link_seed)


def invitation_token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _invitation_token(seed: str) -> str:
    """The link's secret, made from the row's seed and SECRET_KEY (as Django
    makes password-reset links): the email can be sent, and sent again, after
    the invitation is saved, and the database alone holds no working link."""
    digest = salted_hmac("clients.invitation.link", seed, algorithm="sha256").digest()
    return urlsafe_b64encode(digest).rstrip(b"=").decode()


def _invitation_url(token: str) -> str:
    return settings.SITE_URL + reverse("clients:welcome", args=[token])


def _issued(invitation: Invitation) -> IssuedInvitation:
    return IssuedInvitation(
        invitation=invitation, url=_invitation_url(_invitation_token(invitation.link_seed))
    )


def invitation_issued(*, user: User, client_id: int, invitation_id: int) -> IssuedInvitation | None:
    """The link of the client's invitation ``invitation_id`` while it still
    works, for the page that shows it to the therapist once, after they made
    it; None if it no longer works or is not theirs to see.

    Here rather than in selectors: the link is made from the row's seed
    only in this module. The admin holds the invitation's id until the
    page shows it, never the link (clients.admin).
    """
    invitation = (
        invitations_for_client(user=user, client_id=client_id)
        .filter(pk=invitation_id, used_at=None, revoked_at=None, expires_at__gt=timezone.now())
        .exclude(link_seed="")
        .first()
    )
    return _issued(invitation) if invitation is not None else None


def _invitation_ends(now: dt.datetime, client: Client) -> dt.datetime:
    """The end of the link's last day on the client's calendar, the day the
    email and the welcome page name ("until 11 March"): a link that stopped
    at the time of day it was made would be dead on the evening it names."""
    made_on = now.astimezone(as_zone(client.timezone)).date()
    return end_of_day(
        made_on + dt.timedelta(days=settings.INVITATION_MAX_AGE_DAYS), client.timezone
    )


@transaction.atomic
def client_invite(*, actor: User, client: Client, send_email: bool = False) -> IssuedInvitation:
    """Make a single-use, expiring link for ``client`` to set their portal password.

    Any earlier link stops working. Only the token's hash is stored: the
    link is returned once, for the therapist to copy, and emailed if asked
    (discreetly: no clinical words, the practice's neutral sender and subject).

    The email goes once this has committed (a link from an invitation that
    was undone would not work), never holding it open on a slow mail server;
    whatever happens to it, the invitation stands and the sweep retries it.

    The same request by the same person within INVITATION_SENT_TWICE_WINDOW
    returns the invitation it made, with the same link, and emails nothing
    more: made again, the link just copied would stop working and the
    client would get a second email.
    """
    _require_staff(actor)
    # Locked: two invitations made at once (two tabs, two people) would each
    # revoke only the links it saw, and both new links would work.
    if not clients_for_user(user=actor).select_for_update().filter(pk=client.pk).first():
        raise PermissionDenied(_("This is not one of your clients."))
    if client.status != Client.Status.ACTIVE:
        raise ValidationError(_("Archived clients cannot be invited."))
    if client.portal_user_id is not None:
        raise ValidationError(
            _(
                "This client already has a portal account. If they have lost their password, "
                "they can use “Forgotten your password?” on the sign-in page."
            )
        )
    if send_email and not client.contact_email:
        raise ValidationError(_("Add a contact email first, or copy the link instead."))
    now = timezone.now()
    repeat = _just_invited(actor=actor, client=client, send_email=send_email, now=now)
    if repeat is not None:
        return _issued(repeat)
    Invitation.objects.filter(client=client, used_at=None, revoked_at=None).update(revoked_at=now)
    seed = secrets.token_hex(16)
    token = _invitation_token(seed)
    invitation = Invitation.objects.create(
        client=client,
        token_hash=invitation_token_hash(token),
        link_seed=seed,
        created_by=actor,
        expires_at=_invitation_ends(now, client),
        email_asked_at=now if send_email else None,
    )
    if send_email:
        from clients.tasks import send_invitation_email

        # Tried here, once, if the queue is down: the therapist is on the
        # page that says whether it went, and can pass the link on otherwise.
        enqueue_on_commit(send_invitation_email, invitation.pk, run_here_if_broker_down=True)
    return IssuedInvitation(invitation=invitation, url=_invitation_url(token))


def _just_invited(
    *, actor: User, client: Client, send_email: bool, now: dt.datetime
) -> Invitation | None:
    """The working invitation ``actor`` made for ``client`` moments ago with
    the same choice about email, if there is one. An email given up is not
    repeated: asking again is asking for a new try."""
    return (
        Invitation.objects.filter(
            client=client,
            created_by=actor,
            created_at__gte=now - INVITATION_SENT_TWICE_WINDOW,
            used_at=None,
            revoked_at=None,
            email_given_up_at=None,
            email_asked_at__isnull=not send_email,
        )
        .exclude(link_seed="")
        .first()
    )


def invitation_send_email(*, invitation_id: int) -> bool:
    """Email an invitation's link, if it is still wanted and still works.

    Safe to run twice: the row lock and ``emailed_at`` send it once (were the
    record of it lost, a second email carries the same link). A failure is
    counted; one that cannot get better, or one too many (practice.delivery),
    is given up, and the therapist sees so. Raises EmailNotSent, once the
    count has committed, while it is worth trying again.
    """
    outcome = _invitation_try_email(invitation_id)
    if outcome == "failed":
        raise EmailNotSent(invitation_id)
    return outcome == "sent"


@transaction.atomic
def _invitation_try_email(invitation_id: int) -> str:
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("client")
        .filter(pk=invitation_id)
        .first()
    )
    if invitation is None or not _email_still_wanted(invitation):
        return "skipped"
    client = invitation.client
    token = _invitation_token(invitation.link_seed)
    now = timezone.now()
    invitation.email_attempts += 1
    try:
        if invitation_token_hash(token) != invitation.token_hash:
            # SECRET_KEY changed since: the link made now would not open. Cannot get better.
            raise BadHeaderError("the link can no longer be made from its seed")
        # "Until 12 March" is read where the client lives: on the practice's
        # calendar it can be a day after the link stops working for them.
        with timezone.override(client.timezone):
            _send_discreet_email(
                to=client.contact_email,
                template="clients/email/invitation",
                context={"url": _invitation_url(token), "expires_at": invitation.expires_at},
            )
    except (OSError, SMTPException, BadHeaderError) as failure:
        return delivery.count_failure(
            invitation,
            failure,
            attempts="email_attempts",
            given_up="email_given_up_at",
            asked_at=invitation.email_asked_at,
            now=now,
            what=f"invitation {invitation.pk}",
        )
    invitation.emailed_at = now
    invitation.save(update_fields=["email_attempts", "emailed_at"])
    return "sent"


def _email_still_wanted(invitation: Invitation) -> bool:
    """Asked for, not sent or given up, and its link would still open (a link
    replaced, used or out of date, or a client archived, gets no late email),
    and someone to send it to: a therapist who cleared the address (someone
    else reads that inbox) has stopped it."""
    client = invitation.client
    return (
        invitation.email_asked_at is not None
        and invitation.emailed_at is None
        and invitation.email_given_up_at is None
        and invitation.used_at is None
        and invitation.revoked_at is None
        and invitation.expires_at > timezone.now()
        and bool(invitation.link_seed)
        and client.status == Client.Status.ACTIVE
        and client.portal_user_id is None
        and bool(client.contact_email)
    )


def send_discreet_email(*, to: str, template: str, context: dict[str, Any]) -> bool:
    """Send an email that names nothing clinical, from the practice's neutral sender.

    Returns whether it went; a mail server being down must not undo the
    action that asked (the caller says to try again, or its task retries).
    """
    try:
        _send_discreet_email(to=to, template=template, context=context)
    except BadHeaderError:
        return False  # logged where it was found
    except (OSError, SMTPException):
        logger.warning("Could not send a %s email.", template, exc_info=True)
        return False
    return True


def _send_discreet_email(*, to: str, template: str, context: dict[str, Any]) -> None:
    """As send_discreet_email, raising what the mail server said (practice.delivery reads it)."""
    practice = practice_settings()
    sender_address = parseaddr(settings.DEFAULT_FROM_EMAIL)[1] or "notifications@localhost"
    message = EmailMultiAlternatives(
        subject=practice.reminder_subject,
        body=render_to_string(f"{template}-body.txt", context),
        from_email=formataddr((practice.reminder_sender_name, sender_address)),
        to=[to],
    )
    message.attach_alternative(render_to_string(f"{template}-body.html", context), "text/html")
    try:
        message.send()
    except BadHeaderError:
        # A stored sender name or subject with a line break (PracticeSettings
        # refuses them now; an older row may still hold one). Retrying will
        # not help: a manager has to correct the practice settings.
        logger.error(
            "Could not send a %s email: the practice's sender name or subject cannot go "
            "into an email header. Correct them in the practice settings.",
            template,
        )
        raise


def _usable_invitation(token: str, *, lock: bool = False) -> Invitation:
    queryset = Invitation.objects.select_related("client")
    if lock:
        queryset = queryset.select_for_update(of=("self",))
    invitation = queryset.filter(token_hash=invitation_token_hash(token)).first()
    if invitation is None:
        raise InvitationRefused(InvitationRefused.UNKNOWN)
    if invitation.used_at is not None or invitation.client.portal_user_id is not None:
        raise InvitationRefused(InvitationRefused.USED)
    if invitation.revoked_at is not None or invitation.client.status != Client.Status.ACTIVE:
        raise InvitationRefused(InvitationRefused.REVOKED)
    if invitation.expires_at <= timezone.now():
        raise InvitationRefused(InvitationRefused.EXPIRED)
    if invitation.taken_emails_tried >= INVITATION_TAKEN_EMAIL_TRIES:
        raise InvitationRefused(InvitationRefused.TOO_MANY_TRIES)
    return invitation


def invitation_check(*, token: str) -> Invitation:
    """The invitation behind a link, if it can still be used (InvitationRefused if not)."""
    return _usable_invitation(token)


def invitation_accept(*, token: str, email: str, password: str) -> User:
    """Create the client's portal login from an invitation; the link is then spent.

    The row lock makes a double submit (or two tabs) create one account. An
    address already taken is refused, and counted (kept when the refusal is
    raised): after INVITATION_TAKEN_EMAIL_TRIES the link stops working.
    """
    with transaction.atomic():
        invitation = _usable_invitation(token, lock=True)
        # As the account will keep it (User.normalize_username), so that the
        # same address written another way is found taken, not made twice.
        email = User.normalize_username(email)
        taken = User.objects.filter(email__iexact=email).exists()
        if taken:
            Invitation.objects.filter(pk=invitation.pk).update(
                taken_emails_tried=F("taken_emails_tried") + 1
            )
        else:
            validate_password(password, user=User(email=email, role=User.Role.CLIENT))
            user = client_attach_portal_account(
                client=invitation.client, email=email, password=password
            )
            invitation.used_at = timezone.now()
            invitation.save(update_fields=["used_at"])
            return user
    raise ValidationError({"email": [_("This email cannot be used here. Try another one.")]})


def invitation_accepted_just_now(*, token: str, email: str, password: str) -> User | None:
    """The account this invitation made moments ago, if ``email`` and
    ``password`` are its own; None otherwise.

    The welcome form sent twice (a double click) arrives as two posts at
    once: the first makes the account, the second finds the link used. The
    second is the same person with the same words, and the browser shows its
    answer, so it signs in as the first did. Only within
    SENT_TWICE_WINDOW and never past two-step sign-in: this is not
    another way in.
    """
    invitation = (
        Invitation.objects.select_related("client__portal_user")
        .filter(
            token_hash=invitation_token_hash(token),
            used_at__gte=timezone.now() - SENT_TWICE_WINDOW,
        )
        .first()
    )
    user = invitation.client.portal_user if invitation else None
    if (
        user is None
        or not user.is_active
        or user.email.casefold() != User.normalize_username(email).casefold()
        or not user.check_password(password)
        or TOTPDevice.objects.filter(user=user, confirmed=True).exists()
    ):
        return None
    return user


@transaction.atomic
def user_log_out_everywhere(*, user: User) -> User:
    """End every session of ``user`` on every device (their auth hash changes)."""
    user.session_salt = new_session_salt()
    user.save(update_fields=["session_salt"])
    return user


@transaction.atomic
def user_change_password(*, user: User, old_password: str, new_password: str) -> User:
    """Change a signed-in person's password, asking for the current one.

    Every session of ``user`` ends, on every device: the session auth hash
    covers the password (User._get_session_auth_hash). A reset link already
    emailed stops working too (its token covers the password). The caller
    keeps its own session with ``update_session_auth_hash``.

    The row is locked, so two changes sent at once (a double click) are
    taken one after the other: the second finds the password changed and is
    refused, as a replay with the old password always is. Its page is the
    one the browser shows, so it says the change is done rather than "not
    right", which would send the person back to a password that no longer
    works. Checked here even when a form has checked it: this is the one
    way a password changes.
    """
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.check_password(old_password):
        if user.check_password(new_password):
            raise ValidationError(
                {
                    "old_password": [
                        _(
                            "That is already your password: the change is done. "
                            "Use your new password from now on."
                        )
                    ]
                }
            )
        raise ValidationError({"old_password": [_("That password is not right.")]})
    try:
        validate_password(new_password, user=user)
    except ValidationError as error:
        raise ValidationError({"new_password2": error.error_list}) from error
    user.set_password(new_password)
    user.save(update_fields=["password"])
    return user


@transaction.atomic
def user_dismiss_exit_note(*, user: User) -> User:
    if user.exit_note_dismissed_at is None:
        user.exit_note_dismissed_at = timezone.now()
        user.save(update_fields=["exit_note_dismissed_at"])
    return user


# -- two-step sign-in (an authenticator app; never SMS or email codes) ---------------


class TwoStepAlreadyOn(Exception):
    """Setting up another app while two-step sign-in is on: it must be turned off first."""


@transaction.atomic
def totp_device_start(*, user: User) -> TOTPDevice:
    """A new, unconfirmed authenticator for ``user`` (replacing an unfinished one).

    Refused while two-step sign-in is on: otherwise anyone at an unlocked,
    signed-in screen could swap the client's app for their own without the
    password. Turning it off asks for the password; then it can be set up again.
    """
    if TOTPDevice.objects.filter(user=user, confirmed=True).exists():
        raise TwoStepAlreadyOn
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name="authenticator", confirmed=False)


@transaction.atomic
def totp_device_confirm(*, user: User, token: str, device_id: int | None = None) -> TOTPDevice:
    """Turn two-step sign-in on, once the app shows a code that matches.

    ``device_id`` is the picture the page showed. Set-up started again in
    another tab replaces it, and a code from the app that scanned the old
    picture can never match the new one: that is said, not "try the newest".
    """
    device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False).last()
    if device is None or TOTPDevice.objects.filter(user=user, confirmed=True).exists():
        raise ValidationError({"token": [_("Start again: scan the new picture first.")]})
    if device_id is not None and device.pk != device_id:
        raise ValidationError(
            {
                "token": [
                    _(
                        "That picture was replaced by a newer one, from another tab or window. "
                        "Scan the picture on this page now (you can delete the earlier one from "
                        "your app), then type the code it shows."
                    )
                ]
            }
        )
    if not device.verify_token(_digits(token)):
        raise ValidationError(
            {
                "token": [
                    _("That code did not match. Codes change every 30 seconds: try the newest.")
                ]
            }
        )
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    return device


@transaction.atomic
def totp_verify(*, user: User, token: str) -> bool:
    """Check a sign-in code. Throttled by django-otp after wrong guesses."""
    device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
    if device is None:
        return False
    allowed, _details = device.verify_is_allowed()
    return bool(allowed) and bool(device.verify_token(_digits(token)))


@transaction.atomic
def totp_device_remove(*, user: User, password: str) -> None:
    """Turn two-step sign-in off; the password is asked again so a borrowed,
    unlocked screen cannot do it."""
    if not user.check_password(password):
        raise ValidationError({"password": [_("That password is not right.")]})
    TOTPDevice.objects.filter(user=user).delete()


def _digits(token: str) -> str:
    return "".join(ch for ch in token if ch.isdigit())[:8]


class EmailNotSent(Exception):
    """The mail server could not take an email that must go (the task retries)."""


def user_send_password_reset(*, user_id: int) -> bool:
    """Email a password-reset link, discreetly. The token is made here, at send
    time, so it never waits in the task queue. False when there is no one to
    send it to; EmailNotSent when the mail server failed."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.has_usable_password():
        return False
    path = reverse(
        "clients:password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    if not send_discreet_email(
        to=user.email,
        template="clients/email/password-reset",
        context={"url": settings.SITE_URL + path},
    ):
        raise EmailNotSent(user_id)
    return True
