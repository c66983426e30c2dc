"""The safe-contact profile, the client's own, and the log of its changes. Nothing is sent to a
client unless their profile names a safe channel and the hours it may be used (``allows``)."""

import datetime as dt

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from phonenumber_field.modelfields import PhoneNumberField

from clients.contact.hours import hours_chosen, is_any_time, no_hours_chosen, validate_safe_hours
from clients.models import Client

# The time of day the day's reminder of recurring work goes, until the client chooses.
DEFAULT_REMINDER_TIME = dt.time(18, 0)


class ContactProfile(models.Model):
    """How the practice may reach one client, in their words."""

    class Channel(models.TextChoices):
        EMAIL = "email", _("Email")
        TEXT = "text", _("Text message")

    class CheckedBy(models.TextChoices):
        CLIENT = "client", _("the client, in the portal")
        STAFF = "staff", _("staff, with the client")

    class Spacing(models.IntegerChoices):
        DAILY = 1, _("At most one message a day")
        TWO_DAYS = 2, _("At most one message every two days")
        THREE_DAYS = 3, _("At most one message every three days")
        WEEKLY = 7, _("At most one message a week")

    client = models.OneToOneField(
        Client, on_delete=models.CASCADE, related_name="contact_profile", verbose_name=_("client")
    )
    email_is_safe = models.BooleanField(_("email is safe"), default=False)
    text_is_safe = models.BooleanField(_("text messages are safe"), default=False)
    email = models.EmailField(_("email for reminders"), blank=True)
    phone = PhoneNumberField(_("mobile number for text messages"), blank=True)
    safe_hours = models.JSONField(
        _("safe hours"),
        default=no_hours_chosen,
        blank=True,  # blank: not chosen yet (hours.no_hours_chosen)
        validators=[validate_safe_hours],
    )
    days_between = models.PositiveSmallIntegerField(
        _("how often"), choices=Spacing.choices, default=Spacing.DAILY
    )
    recurring_reminder_at = models.TimeField(
        _("time for the day's reminder"), default=DEFAULT_REMINDER_TIME
    )
    checked_on = models.DateField(_("last checked with the client"), null=True, blank=True)
    checked_by = models.CharField(
        _("last checked by"), max_length=8, choices=CheckedBy.choices, blank=True
    )
    changed_at = models.DateTimeField(_("last changed"), null=True, blank=True)

    class Meta:
        verbose_name = _("contact profile")
        verbose_name_plural = _("contact profiles")
        constraints = [
            models.UniqueConstraint(
                fields=["email"],
                condition=~Q(email=""),
                name="contact_email_one_client",
                violation_error_message=_("This email address is on another client's profile."),
            ),
            models.UniqueConstraint(
                fields=["phone"],
                condition=~Q(phone=""),
                name="contact_phone_one_client",
                violation_error_message=_("This number is on another client's profile."),
            ),
            models.CheckConstraint(
                condition=Q(email_is_safe=False) | ~Q(email=""),
                name="contact_safe_email_has_address",
                violation_error_message=_("Email can only be safe with an address to use."),
            ),
            models.CheckConstraint(
                condition=Q(text_is_safe=False) | ~Q(phone=""),
                name="contact_safe_text_has_number",
                violation_error_message=_("Text messages can only be safe with a number to use."),
            ),
            models.CheckConstraint(
                condition=Q(days_between__in=[1, 2, 3, 7]), name="contact_days_between_known"
            ),
        ]

    def __str__(self) -> str:
        return str(_("Contact profile of %(client)s") % {"client": self.client})

    def clean(self) -> None:
        if (self.email_is_safe or self.text_is_safe) and not self.hours_chosen:
            raise ValidationError(
                {"safe_hours": _("Choose the safe hours for each day before turning messages on.")}
            )

    @property
    def hours_chosen(self) -> bool:
        return hours_chosen(self.safe_hours)

    @property
    def safe_channels(self) -> list["ContactProfile.Channel"]:
        """The channels the client said are safe, email first; empty: send nothing."""
        if not self.hours_chosen:
            return []
        found = []
        if self.email_is_safe and self.email:
            found.append(self.Channel.EMAIL)
        # Compared, not truth-tested: a PhoneNumber's truth formats it, which is slow.
        if self.text_is_safe and self.phone not in (None, ""):
            found.append(self.Channel.TEXT)
        return found

    def allows(self, channel: str) -> bool:
        return channel in self.safe_channels

    @property
    def any_time(self) -> bool:
        return is_any_time(self.safe_hours)

    def recheck_due(self, *, today: dt.date, weeks: int) -> bool:
        """Never checked, or checked more than ``weeks`` weeks before ``today``."""
        return self.checked_on is None or today - self.checked_on > dt.timedelta(weeks=weeks)


class ContactChange(models.Model):
    """One change to a client's contact profile: who, when and which parts, never the address or
    number itself, as the log is shown to both sides."""

    class By(models.TextChoices):
        CLIENT = "client", _("The client")
        STAFF = "staff", _("Staff")

    client = models.ForeignKey(
        Client, on_delete=models.CASCADE, related_name="contact_changes", verbose_name=_("client")
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    by = models.CharField(max_length=8, choices=By.choices)
    parts = models.JSONField(default=list)
    turned_off = models.BooleanField(default=False)
    # The profile was confirmed (changed or not): by the client, or by staff with them.
    checked = models.BooleanField(default=False)
    at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("contact profile change")
        verbose_name_plural = _("contact profile changes")

    def __str__(self) -> str:
        return f"{self.client} · {self.by} · {self.at:%Y-%m-%d %H:%M}"


# What each entry of ContactChange.parts means, in words both sides read.
PARTS = {
    "email_on": _("email turned on"),
    "email_off": _("email turned off"),
    "text_on": _("text messages turned on"),
    "text_off": _("text messages turned off"),
    "email": _("email address"),
    "phone": _("mobile number"),
    "safe_hours": _("safe hours"),
    "days_between": _("how often"),
    "recurring_reminder_at": _("time for the day's reminder"),
    "timezone": _("time zone"),
}
