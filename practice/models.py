"""People and practice-wide settings; one deployment is one practice, so no tenant column."""

import secrets
import unicodedata
from typing import Any, ClassVar

from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone, translation
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext, gettext_noop, ngettext
from django.utils.translation import gettext_lazy as _

from practice.discreet import clinical_words
from practice.encryption import EncryptedJSONField
from practice.languages import language_or_default, offered_languages


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def get_by_natural_key(self, username: str | None) -> "User":
        return self.get(email=User.normalize_username(username or ""))

    def create_user(self, email: str, password: str | None = None, **extra: Any) -> "User":
        user = self.model(email=User.normalize_username(email), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> "User":
        extra.update(role=User.Role.MANAGER, is_staff=True, is_superuser=True)
        return self.create_user(email, password, **extra)


def new_session_salt() -> str:
    return secrets.token_hex(16)


class User(AbstractBaseUser, PermissionsMixin):
    class Role(models.TextChoices):
        CLIENT = "client", _("Client")
        THERAPIST = "therapist", _("Therapist")
        MANAGER = "manager", _("Practice manager")

    email = models.EmailField(_("email"), unique=True)
    name = models.CharField(_("name"), max_length=150, blank=True)
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.CLIENT)
    is_staff = models.BooleanField(_("staff status"), default=False)
    is_active = models.BooleanField(_("active"), default=True)
    date_joined = models.DateTimeField(_("date joined"), default=timezone.now)
    # Part of every session's auth hash: changing it signs the person out everywhere.
    session_salt = models.CharField(max_length=32, default=new_session_salt, editable=False)
    # Nothing about the portal may live in the browser, so this is remembered here.
    exit_note_dismissed_at = models.DateTimeField(null=True, blank=True, editable=False)
    two_step_reset_at = models.DateTimeField(null=True, blank=True, editable=False)
    # A staff member's own; a client's is on their client record, set before they have an account.
    language = models.CharField(
        _("language"),
        max_length=16,
        choices=offered_languages,
        blank=True,
        default="",
        help_text=_("Left empty, the practice's own language."),
    )

    objects: ClassVar[UserManager] = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.CheckConstraint(
                condition=~Q(role="client") | Q(is_staff=False, is_superuser=False),
                name="client_is_never_staff",
            ),
            models.CheckConstraint(
                condition=Q(email=Lower("email")), name="email_kept_in_lower_case"
            ),
        ]

    def __str__(self) -> str:
        return self.name or self.email

    @classmethod
    def normalize_username(cls, username: str) -> str:
        """Lower case, as kept: a phone's keyboard capitalises the first letter."""
        return super().normalize_username(username).strip().lower()

    def _get_session_auth_hash(self, secret: str | None = None) -> str:
        key_salt = "practice.models.User.get_session_auth_hash"
        return salted_hmac(
            key_salt, self.password + self.session_salt, secret=secret, algorithm="sha256"
        ).hexdigest()

    def get_full_name(self) -> str:
        return self.name or self.email

    def get_short_name(self) -> str:
        return self.name.split(" ")[0] if self.name else self.email

    @property
    def is_client(self) -> bool:
        return self.role == self.Role.CLIENT

    @property
    def is_therapist(self) -> bool:
        return self.role == self.Role.THERAPIST

    @property
    def is_manager(self) -> bool:
        return self.role == self.Role.MANAGER


def is_one_line(text: str) -> bool:
    return not any(unicodedata.category(char) in ("Cc", "Zl", "Zp") for char in text)


def header_refusal(text: str) -> str | None:
    """Why a sender name or subject cannot go on a client's email, or None."""
    # A line break in a header is refused by the mail library: said here, not at send time.
    if not is_one_line(text):
        return gettext(
            "Keep this to one line of plain text: line breaks and other control "
            "characters cannot go into an email."
        )
    found = clinical_words(text)
    if found:
        return gettext(
            "“%(word)s” could tell someone who sees the message what it is about. "
            "Please use neutral words, such as “Notifications” or “You have a new update”."
        ) % {"word": found[0]}
    return None


IDLE_TIMEOUT_MINUTES = (2, 240)


def idle_timeout_out_of_range() -> str:
    low, high = IDLE_TIMEOUT_MINUTES
    return ngettext(
        "Choose between %(low)s and %(high)s minute.",
        "Choose between %(low)s and %(high)s minutes.",
        high,
    ) % {"low": low, "high": high}


DEFAULT_CRISIS_RESOURCES = (
    "If you are in danger now, call 999 (UK) or 911 (US).\n"
    "National Domestic Abuse Helpline (UK, 24 hours): 0808 2000 247\n"
    "National Domestic Violence Hotline (US, 24 hours): 1-800-799-7233\n"
    "Samaritans (UK, 24 hours): 116 123"
)
# The same services for a client who reads Spanish, with what each offers in Spanish: a line a
# client cannot read protects nobody. Services keep their own names, which is what answers.
DEFAULT_CRISIS_RESOURCES_IN = {
    "es": (
        "Si estás en peligro ahora, llama al 999 (Reino Unido) o al 911 (EE. UU.).\n"
        "National Domestic Abuse Helpline (Reino Unido, 24 horas; puedes pedir intérprete): "
        "0808 2000 247\n"
        "National Domestic Violence Hotline (EE. UU., 24 horas, se habla español): "
        "1-800-799-7233\n"
        "Samaritans (Reino Unido, 24 horas): 116 123"
    )
}


def default_crisis_resources_by_language() -> dict[str, str]:
    return dict(DEFAULT_CRISIS_RESOURCES_IN)


class PracticeSettings(models.Model):
    """The practice's own words and safety choices; one row (pk=1)."""

    name = models.CharField(_("practice name"), max_length=120, default="Our practice")
    reminder_sender_name = models.CharField(
        _("sender name on reminders"),
        max_length=80,
        default="Notifications",
        help_text=_("Shown to clients. Keep it neutral: no clinical words."),
    )
    reminder_subject = models.CharField(
        _("subject of reminders"), max_length=120, default="You have a new update"
    )
    # Keyed by language code: the words clients who read that language see instead of the above.
    reminder_sender_name_by_language = models.JSONField(
        _("sender name on reminders in other languages"), default=dict, blank=True
    )
    reminder_subject_by_language = models.JSONField(
        _("subject of reminders in other languages"), default=dict, blank=True
    )
    crisis_resources = models.TextField(
        _("crisis resources"),
        default=DEFAULT_CRISIS_RESOURCES,
        help_text=_("One per line. Shown on every page of the portal."),
    )
    # Keyed by language code: lines for the clients who read that language, instead of the above.
    crisis_resources_by_language = models.JSONField(
        _("crisis resources in other languages"),
        default=default_crisis_resources_by_language,
        blank=True,
    )
    practice_contact = models.TextField(
        _("how clients reach the practice"),
        blank=True,
        default="",
        help_text=_(
            "One per line, for example “Reception, weekdays 9 to 5: 020 7946 0000”. "
            "Shown on the portal's Help now page, after the client's own plan and before "
            "the crisis resources."
        ),
    )
    quick_exit_url = models.URLField(
        _("quick-exit address"),
        default="https://www.bbc.co.uk/weather",
        help_text=_("A neutral website the quick-exit button opens."),
    )
    paper_size = models.CharField(
        _("paper size for summaries"),
        max_length=8,
        choices=[("A4", "A4"), ("Letter", _("US Letter"))],
        default="A4",
    )
    idle_timeout_minutes = models.PositiveSmallIntegerField(
        _("portal idle timeout (minutes)"), default=15
    )
    staff_idle_timeout_minutes = models.PositiveSmallIntegerField(
        _("staff idle timeout (minutes)"),
        default=30,
        help_text=_("A therapist or manager is signed out after this long without a request."),
    )
    # An abuser may gain access to a phone or an inbox at any time.
    contact_recheck_weeks = models.PositiveSmallIntegerField(
        _("re-check contact preferences every (weeks)"),
        default=8,
        help_text=_(
            "The client's page asks you to go through their safe ways of contact with them "
            "again once this many weeks have passed since the last time."
        ),
    )
    weekly_digest = models.BooleanField(
        _("weekly email to each therapist"),
        default=True,
        help_text=_(
            "On Monday morning, each therapist gets counts for the past week and a link: "
            "no names, no words. Flagged entries are always sent at once, whatever this says."
        ),
    )
    alert_escalate_after_hours = models.PositiveSmallIntegerField(
        _("tell the manager about an alert not acknowledged after (hours)"),
        default=24,
        help_text=_(
            "An alert (a client felt unsafe, or a watched answer) that its therapist has not "
            "acknowledged after this long goes to the practice manager, in a message naming "
            "no one."
        ),
    )
    summary_keep_days = models.PositiveSmallIntegerField(
        _("keep printed summaries for (days)"),
        default=14,
        help_text=_("Stored summaries older than this are deleted; they can be printed again."),
    )
    message_keep_days = models.PositiveSmallIntegerField(
        _("keep the record of sent messages for (days)"),
        default=90,
        help_text=_("Sent, given-up and closed messages older than this are deleted."),
    )

    class Meta:
        verbose_name = _("practice settings")
        verbose_name_plural = _("practice settings")
        constraints = [
            models.CheckConstraint(condition=Q(pk=1), name="practice_settings_singleton"),
            models.CheckConstraint(
                condition=Q(idle_timeout_minutes__gte=2, idle_timeout_minutes__lte=240),
                name="idle_timeout_in_range",
            ),
            models.CheckConstraint(
                condition=Q(staff_idle_timeout_minutes__gte=2, staff_idle_timeout_minutes__lte=240),
                name="staff_idle_timeout_in_range",
            ),
            models.CheckConstraint(
                condition=Q(contact_recheck_weeks__gte=1, contact_recheck_weeks__lte=52),
                name="contact_recheck_weeks_in_range",
                violation_error_message=_("Choose between 1 and 52 weeks."),
            ),
            models.CheckConstraint(
                condition=Q(alert_escalate_after_hours__gte=1, alert_escalate_after_hours__lte=168),
                name="alert_escalate_after_hours_in_range",
                violation_error_message=_("Choose between 1 and 168 hours (a week)."),
            ),
            models.CheckConstraint(
                condition=Q(summary_keep_days__gte=1, summary_keep_days__lte=365),
                name="summary_keep_days_in_range",
                violation_error_message=_("Choose between 1 and 365 days."),
            ),
            # The reminder scan reads back ten days of past reminders.
            models.CheckConstraint(
                condition=Q(message_keep_days__gte=30, message_keep_days__lte=730),
                name="message_keep_days_in_range",
                violation_error_message=_("Choose between 30 and 730 days."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    HEADER_FIELDS = ("reminder_sender_name", "reminder_subject")
    # The defaults above, which the catalogs translate: a practice that kept them has said them in
    # every language.
    HEADER_DEFAULTS = {
        "reminder_sender_name": gettext_noop("Notifications"),
        "reminder_subject": gettext_noop("You have a new update"),
    }

    def clean(self) -> None:
        errors: dict[str, list[str]] = {}
        offered = {code for code, _name in offered_languages()}
        for field in self.HEADER_FIELDS:
            refusal = header_refusal(getattr(self, field))
            if refusal:
                errors[field] = [refusal]
            by_language: dict[str, str] = getattr(self, f"{field}_by_language") or {}
            refusals = [header_refusal(str(text)) for text in by_language.values()]
            if set(by_language) - offered:
                refusals.append(
                    gettext("Words can be given only for the languages the practice offers.")
                )
            if any(refusals):
                errors[f"{field}_by_language"] = [refusal for refusal in refusals if refusal]
        if not self.crisis_lines_in(None):
            errors["crisis_resources"] = [
                gettext("Add at least one number or service a client can reach in a crisis.")
            ]
        if set(self.crisis_resources_by_language or {}) - offered:
            errors["crisis_resources_by_language"] = [
                gettext("Crisis resources can be given only for the languages the practice offers.")
            ]
        if self.quick_exit_url and not self.quick_exit_url.lower().startswith("https://"):
            errors["quick_exit_url"] = [
                gettext("Use an address that starts with https://, so the exit is private too.")
            ]
        for field in ("idle_timeout_minutes", "staff_idle_timeout_minutes"):
            if (
                not IDLE_TIMEOUT_MINUTES[0]
                <= (getattr(self, field) or 0)
                <= IDLE_TIMEOUT_MINUTES[1]
            ):
                errors[field] = [idle_timeout_out_of_range()]
        if not 1 <= (self.contact_recheck_weeks or 0) <= 52:
            errors["contact_recheck_weeks"] = [gettext("Choose between 1 and 52 weeks.")]
        if not 1 <= (self.summary_keep_days or 0) <= 365:
            errors["summary_keep_days"] = [gettext("Choose between 1 and 365 days.")]
        if not 30 <= (self.message_keep_days or 0) <= 730:
            errors["message_keep_days"] = [gettext("Choose between 30 and 730 days.")]
        if errors:
            raise ValidationError(errors)

    def reminder_words_in(self, field: str, language: str | None) -> str:
        """``field`` (a HEADER_FIELDS name) as clients who read ``language`` see it."""
        language = language_or_default(language)
        own = str((getattr(self, f"{field}_by_language") or {}).get(language, "")).strip()
        return own or self.reminder_words_unless_given(field, language)

    def reminder_words_unless_given(self, field: str, language: str) -> str:
        """Without the practice's words for that language: our default in it while the practice
        keeps ours, else the practice's own words as written (never nothing)."""
        value: str = getattr(self, field)
        default = self.HEADER_DEFAULTS[field]
        if value.strip() == default:
            with translation.override(language):
                return gettext(default)
        return value

    @property
    def crisis_lines(self) -> list[str]:
        """In the language being read, where the practice gave lines for it."""
        return self.crisis_lines_in(translation.get_language())

    def crisis_lines_in(self, language: str | None) -> list[str]:
        own = (self.crisis_resources_by_language or {}).get(language or "", "")
        text = own if own.strip() else self.crisis_resources
        return [line.strip() for line in text.splitlines() if line.strip()]

    @property
    def contact_lines(self) -> list[str]:
        return [line.strip() for line in self.practice_contact.splitlines() if line.strip()]

    @property
    def crisis_lines_not_in_contact(self) -> list[str]:
        return [line for line in self.crisis_lines if line not in self.contact_lines]


class IdempotentRequest(models.Model):
    """A POST's ``Idempotency-Key`` and its answer, returned instead of a second write."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(null=True)
    # The answer may quote what a client wrote.
    response_body = EncryptedJSONField(null=True)
    response_headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_request_per_idempotency_key")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} · {self.key}"
