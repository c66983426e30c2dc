"""Clients of the practice and their appointments."""

import datetime as dt
import zoneinfo

from axes.models import AccessAttempt, AccessFailureLog
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from practice.languages import offered_languages


def validate_timezone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("%(value)s is not a known time zone."), params={"value": value})


def practice_time_zone() -> str:
    """The deployment's own zone, not a fixed city."""
    return str(settings.TIME_ZONE)


class Client(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        ARCHIVED = "archived", _("Archived")
        # The row outlives erasure so the access log's lines keep pointing at one client.
        ERASED = "erased", _("Erased")

    therapist = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="clients",
        limit_choices_to={"role": "therapist"},
        verbose_name=_("therapist"),
    )
    display_name = models.CharField(
        _("display name"),
        max_length=80,
        help_text=_("How the client appears to you. An alias is fine."),
    )
    # Only for the invitation: reminders follow the client's own contact profile.
    contact_email = models.EmailField(_("contact email"), blank=True)
    timezone = models.CharField(
        _("time zone"),
        max_length=64,
        default=practice_time_zone,
        validators=[validate_timezone],
        help_text=_(
            "Where the client lives, such as Europe/London: their days and times run on "
            "it (today's exercise, due dates, when something happened)."
        ),
    )
    language = models.CharField(
        _("language"),
        max_length=16,
        choices=offered_languages,
        blank=True,
        default="",
        help_text=_(
            "The language of their portal, emails and texts. Left empty, the practice's own."
        ),
    )
    portal_user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="client_profile",
        limit_choices_to={"role": "client"},
        verbose_name=_("portal account"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("client")
        verbose_name_plural = _("clients")
        indexes = [models.Index(fields=["therapist", "status"])]

    def __str__(self) -> str:
        if self.status == self.Status.ERASED:
            return gettext("Erased client %(number)s") % {"number": self.pk}
        return self.display_name


# A session typed as 1900 would stretch "since last session" and the summary over a century.
SESSION_BEHIND_DAYS = 366
SESSION_AHEAD_DAYS = 2 * 366


class Session(models.Model):
    """An appointment. "Since last session" windows are cut from these."""

    client = models.ForeignKey(
        Client, on_delete=models.CASCADE, related_name="sessions", verbose_name=_("client")
    )
    starts_at = models.DateTimeField(_("starts at"))

    class Meta:
        ordering = ["-starts_at"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            models.UniqueConstraint(
                fields=["client", "starts_at"],
                name="one_session_per_slot",
                violation_error_message=_("This client already has a session at that time."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.client} · {self.starts_at:%Y-%m-%d %H:%M}"

    def clean(self) -> None:
        """Only a time being set is checked, so saving a page with old sessions never trips."""
        super().clean()
        if self.starts_at is None:
            return
        if self.pk is not None:
            stored = Session.objects.filter(pk=self.pk).values_list("starts_at", flat=True).first()
            if stored == self.starts_at:
                return
        today = timezone.localdate()
        earliest = today - dt.timedelta(days=SESSION_BEHIND_DAYS)
        latest = today + dt.timedelta(days=SESSION_AHEAD_DAYS)
        # Compared as moments: a date like 9999-12-31 has no local day after it.
        first_moment = timezone.make_aware(dt.datetime.combine(earliest, dt.time.min))
        last_moment = timezone.make_aware(dt.datetime.combine(latest, dt.time.max))
        if not first_moment <= self.starts_at <= last_moment:
            raise ValidationError(
                {
                    "starts_at": gettext(
                        "Choose a time between %(earliest)s and %(latest)s: sessions are "
                        "recorded up to a year back and two years ahead."
                    )
                    % {
                        "earliest": formats.date_format(earliest),
                        "latest": formats.date_format(latest),
                    }
                }
            )


class EmailedLink(models.Model):
    """An invitation whose link may also go by email, after commit and retried (practice.delivery)."""

    email_asked_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    email_attempts = models.PositiveSmallIntegerField(default=0)
    # No more tries: refused for good, or too many, too late.
    email_given_up_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def email_state(self) -> str:
        if self.email_asked_at is None:
            return ""
        if self.emailed_at is not None:
            return "sent"
        if self.email_given_up_at is not None:
            return "given-up"
        return "retrying" if self.email_attempts else "waiting"


class Invitation(EmailedLink):
    """A client's single-use portal link; only the token's hash is stored."""

    client = models.ForeignKey(Client, on_delete=models.CASCADE, related_name="invitations")
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # Capped, so a link in the wrong hands cannot mail address after address.
    accept_tries = models.PositiveSmallIntegerField(default=0)
    # Chosen on the welcome form, waiting (hashed) until the emailed link proves the address.
    chosen_email = models.EmailField(max_length=254, blank=True, default="")
    chosen_password = models.CharField(max_length=128, blank=True, default="", editable=False)
    chosen_at = models.DateTimeField(null=True, blank=True)
    finish_seed = models.CharField(max_length=32, blank=True, default="", editable=False)
    finish_token_hash = models.CharField(max_length=64, blank=True, default="", db_index=True)
    # Links derive from a seed and SECRET_KEY: a copy of the database alone opens nothing.
    link_seed = models.CharField(max_length=32, blank=True, default="", editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.client} · {self.created_at:%Y-%m-%d}"


class StaffInvitation(EmailedLink):
    """A new staff member's link; the account is made on use, so an unused link leaves none."""

    class Role(models.TextChoices):
        THERAPIST = "therapist", _("Therapist")
        MANAGER = "manager", _("Practice manager")

    email = models.EmailField(_("email"))
    name = models.CharField(_("name"), max_length=150)
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    token_hash = models.CharField(max_length=64, unique=True)
    link_seed = models.CharField(max_length=32, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        editable=False,
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("staff invitation")
        verbose_name_plural = _("staff invitations")
        constraints = [
            models.CheckConstraint(
                condition=Q(role__in=("therapist", "manager")), name="staff_invitation_role"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.email} · {self.created_at:%Y-%m-%d}"


class AccessEvent(models.Model):
    """Who at the practice viewed or exported which client's records; the client sees their own."""

    class Action(models.TextChoices):
        VIEWED = "viewed", _("Viewed")
        PRINTED = "printed", _("Printed the summary")
        EXPORTED = "exported", _("Exported")
        ERASED = "erased", _("Erased the records")

    client = models.ForeignKey(Client, on_delete=models.PROTECT, related_name="access_events")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=16, choices=Action.choices)
    what = models.CharField(max_length=200, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("access record")
        verbose_name_plural = _("access log")

    def __str__(self) -> str:
        return f"{self.actor} {self.action} {self.client} at {self.at:%Y-%m-%d %H:%M}"


class SignInFailure(AccessFailureLog):
    """axes' refused sign-ins, for the manager's screen of sign-ins."""

    class Meta:
        proxy = True
        ordering = ["-attempt_time", "-pk"]
        verbose_name = _("failed sign-in")
        verbose_name_plural = _("failed sign-ins")


class SignInLock(AccessAttempt):
    """axes' running count of failures for one account, address and browser."""

    class Meta:
        proxy = True
        ordering = ["-attempt_time", "-pk"]
        verbose_name = _("locked sign-in")
        verbose_name_plural = _("locked sign-ins")


# Imported here so Django finds them as the clients app's.
from clients.contact.models import ContactChange, ContactProfile  # noqa: E402

__all__ = [
    "AccessEvent",
    "Client",
    "ContactChange",
    "ContactProfile",
    "Invitation",
    "Session",
    "SignInFailure",
    "SignInLock",
    "StaffInvitation",
    "practice_time_zone",
    "validate_timezone",
]
