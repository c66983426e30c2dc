"""Assignments: an exercise given to one client, once or on a schedule."""

import datetime as dt
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import formats, timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from clients.models import Client
from homework import schedules
from homework.kinds import get_kind
from homework.models.exercises import Exercise
from homework.models.field_limits import INSTRUCTIONS_MAX_CHARS, too_long
from practice.dates import as_zone

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from homework.schedules import Occurrence


# Beyond these a date is a slip of the keyboard (a year typed as 9999), not a plan.
MAX_SCHEDULE_DAYS = 731
START_BEHIND_DAYS = 31
START_AHEAD_DAYS = 366
# A window longer than a month would ask about a fortnight that has not happened yet.
DAYS_BEFORE_MAX = 31
DAYS_BEFORE_MESSAGE = _("Choose a number of days from 1 to 31 before each session.")


class Assignment(models.Model):
    class Schedule(models.TextChoices):
        ONCE = "once", _("Once")
        DAILY = "daily", _("Every day")
        WEEKLY = "weekly", _("Weekly")
        FORTNIGHTLY = "fortnightly", _("Every two weeks")
        BEFORE_SESSION = "before_session", _("Before each session")

    class Status(models.TextChoices):
        # Said of an assignment, whose word is feminine in Spanish; a client or program is not.
        ACTIVE = "active", pgettext_lazy("assignment status", "Active")
        COMPLETED = "completed", pgettext_lazy("assignment status", "Completed")
        CANCELLED = "cancelled", pgettext_lazy("assignment status", "Cancelled")

    client = models.ForeignKey(
        Client, on_delete=models.PROTECT, related_name="assignments", verbose_name=_("client")
    )
    exercise = models.ForeignKey(
        Exercise, on_delete=models.PROTECT, related_name="assignments", verbose_name=_("exercise")
    )
    instructions = models.TextField(
        _("personal instructions"),
        blank=True,
        help_text=_("Optional. Shown to the client above the exercise's own instructions."),
    )
    starts_on = models.DateField(_("starts on"))
    due_on = models.DateField(_("due on"), null=True, blank=True)
    schedule = models.CharField(
        _("schedule"), max_length=16, choices=Schedule.choices, default=Schedule.ONCE
    )
    weekdays = models.JSONField(
        _("weekdays"), default=list, blank=True, help_text=_("For weekly: 0 = Monday … 6 = Sunday.")
    )
    ends_on = models.DateField(_("repeats until"), null=True, blank=True)
    days_before = models.PositiveSmallIntegerField(
        _("days before each session"),
        null=True,
        blank=True,
        validators=[
            MinValueValidator(1, message=DAYS_BEFORE_MESSAGE),
            MaxValueValidator(DAYS_BEFORE_MAX, message=DAYS_BEFORE_MESSAGE),
        ],
        help_text=_(
            "For “Before each session”: it opens this many days before each booked session, "
            "and is due by the session."
        ),
    )
    no_contact_since = models.DateField(_("no contact since"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["due_on", "-created_at"]
        verbose_name = _("assignment")
        verbose_name_plural = _("assignments")
        indexes = [models.Index(fields=["client", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(due_on__isnull=True) | Q(due_on__gte=F("starts_on")),
                name="due_on_not_before_start",
                violation_error_message=_("The due date cannot be before the start date."),
            ),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=F("starts_on")),
                name="ends_on_not_before_start",
                violation_error_message=_("A schedule cannot end before it starts."),
            ),
            models.CheckConstraint(
                condition=Q(schedule="once", ends_on__isnull=True)
                | (~Q(schedule="once") & Q(due_on__isnull=True)),
                name="repeating_has_no_due_date",
                violation_error_message=_(
                    "A one-off exercise takes a due date and no end date; a repeating one "
                    "takes an end date, or none, instead of a due date."
                ),
            ),
            models.CheckConstraint(
                condition=Q(
                    schedule="before_session",
                    days_before__gte=1,
                    days_before__lte=DAYS_BEFORE_MAX,
                )
                | (~Q(schedule="before_session") & Q(days_before__isnull=True)),
                name="days_before_only_before_sessions",
                violation_error_message=DAYS_BEFORE_MESSAGE,
            ),
        ]

    # Not columns: set by selectors for the portal's "To do" and the admin.
    occurrence: "Occurrence | None" = None
    sent_for_slot: uuid.UUID | None = None
    again_label: "StrOrPromise" = ""
    rescheduled_from: "Assignment | None" = None

    def __str__(self) -> str:
        return f"{self.exercise} · {self.client}"

    def clean(self) -> None:
        """The messages people read; the constraints are the database's backstop."""
        errors: dict[str, str] = {}
        if message := too_long(self.instructions, limit=INSTRUCTIONS_MAX_CHARS):
            errors["instructions"] = message
        once = self.schedule == self.Schedule.ONCE
        if self.due_on and self.starts_on and self.due_on < self.starts_on:
            errors["due_on"] = gettext("The due date cannot be before the start date.")
        elif self.due_on and not once:
            errors["due_on"] = gettext(
                "A repeating exercise runs until its end date: leave this empty."
            )
        if self.ends_on and self.starts_on and self.ends_on < self.starts_on:
            errors["ends_on"] = gettext("A schedule cannot end before it starts.")
        elif self.ends_on and once:
            errors["ends_on"] = gettext("A one-off exercise has a due date, not an end date.")
        self._check_days_before(errors)
        self.weekdays_default_to_start()
        weekdays = self.weekdays if isinstance(self.weekdays, list) else None
        on_weekdays = (self.Schedule.WEEKLY, self.Schedule.FORTNIGHTLY)
        if weekdays is None or not all(
            isinstance(day, int) and not isinstance(day, bool) and 0 <= day <= 6 for day in weekdays
        ):
            errors["weekdays"] = gettext(
                "Days of the week are numbers from 0 (Monday) to 6 (Sunday)."
            )
        elif len(set(weekdays)) != len(weekdays):
            errors["weekdays"] = gettext("Each day of the week can be chosen once.")
        elif self.schedule in on_weekdays and not weekdays:
            errors["weekdays"] = gettext("Choose at least one day of the week.")
        elif weekdays and self.schedule not in on_weekdays:
            errors["weekdays"] = gettext(
                "Days of the week are only for a weekly or fortnightly schedule."
            )
        else:
            self.weekdays = sorted(weekdays)
            if (
                self.schedule in on_weekdays
                and "ends_on" not in errors
                and self.starts_on
                and self.ends_on
                and not schedules.count_slots(self, start=self.starts_on, end=self.ends_on)
            ):
                errors["weekdays"] = gettext(
                    "None of these days falls between the start and the end date. "
                    "Choose another day, or a later end date."
                )
        stored = self._stored()
        self._check_date_bounds(errors, stored)
        self._check_no_contact_since(errors, stored)
        if (
            stored is not None
            and "exercise" not in errors
            and stored["exercise_id"] != self.exercise_id
            and self.entries.exists()
        ):
            errors["exercise"] = gettext(
                "The client has already written for this exercise, so it stays. "
                "To give them another one, assign it as new work."
            )
        if errors:
            raise ValidationError(errors)

    def _check_days_before(self, errors: dict[str, str]) -> None:
        before_session = self.schedule == self.Schedule.BEFORE_SESSION
        if before_session and self.days_before is None:
            errors["days_before"] = gettext(
                "Say how many days before each session it opens: a number from 1 to 31."
            )
        elif not before_session and self.days_before is not None:
            errors["days_before"] = gettext(
                "Days before a session are only for the “Before each session” schedule: "
                "leave this empty."
            )

    @property
    def session_days(self) -> tuple[dt.date, ...]:
        """The client's booked sessions' days, on their calendar; lists load them all at once with
        ``with_session_days``, and one assignment on its own reads them when asked."""
        self._load_windows()
        return self._session_days or ()

    @property
    def answered_days(self) -> frozenset[dt.date]:
        """The slots something was sent for: an answered window stays answered, whatever its
        session does later."""
        self._load_windows()
        return self._answered_days or frozenset()

    def _load_windows(self) -> None:
        if self.schedule != self.Schedule.BEFORE_SESSION or self.client_id is None:
            return
        if self._session_days is None or self._answered_days is None:
            from homework.models.session_windows import with_session_days  # it reads entries too

            with_session_days([self])

    _session_days: tuple[dt.date, ...] | None = None
    _answered_days: frozenset[dt.date] | None = None

    def _stored(self) -> Mapping[str, Any] | None:
        if self.pk is None:
            return None
        return (
            Assignment.objects.filter(pk=self.pk)
            .values("exercise_id", "starts_on", "due_on", "ends_on", "no_contact_since")
            .first()
        )

    def _check_date_bounds(self, errors: dict[str, str], stored: Mapping[str, Any] | None) -> None:
        """Checked on dates being set, not stored ones, so old work can still be completed."""
        today = timezone.localdate()
        start = self.starts_on
        if start and "starts_on" not in errors:
            earliest = today - dt.timedelta(days=START_BEHIND_DAYS)
            if stored is not None:
                earliest = min(earliest, stored["starts_on"])
            latest = today + dt.timedelta(days=START_AHEAD_DAYS)
            if stored is not None:
                latest = max(latest, stored["starts_on"])
            if start < earliest:
                errors["starts_on"] = gettext(
                    "Choose a start date from %(date)s on: new work can start up to a month back."
                ) % {"date": formats.date_format(earliest)}
            elif start > latest:
                errors["starts_on"] = gettext(
                    "Choose a start date by %(date)s: new work starts within a year."
                ) % {"date": formats.date_format(latest)}
        field = "ends_on" if self.ends_on else "due_on"
        last = self.ends_on or self.due_on
        unchanged = stored is not None and all(
            stored[name] == getattr(self, name) for name in ("starts_on", "due_on", "ends_on")
        )
        too_long = bool(start and last and (last - start).days > MAX_SCHEDULE_DAYS)
        # Work that ran "until I stop it" must still be possible to end, years on.
        ending_open_work = (
            stored is not None
            and self.is_recurring
            and stored["ends_on"] is None
            and self.ends_on is not None
            and self.ends_on <= today + dt.timedelta(days=START_AHEAD_DAYS)
        )
        too_long = too_long and not ending_open_work
        if too_long and field not in errors and not unchanged:
            errors[field] = gettext(
                "An exercise can run for at most two years: choose a date by %(date)s."
            ) % {"date": formats.date_format(start + dt.timedelta(days=MAX_SCHEDULE_DAYS))}

    def _check_no_contact_since(
        self, errors: dict[str, str], stored: Mapping[str, Any] | None
    ) -> None:
        day = self.no_contact_since
        if day is None or self.exercise_id is None or "exercise" in errors:
            return
        if stored is not None and stored["no_contact_since"] == day:
            return
        if "no_contact_since" not in get_kind(self.exercise.kind).assignment_fields:
            errors["no_contact_since"] = gettext(
                "Only a no-contact tracker counts days from this date: leave it empty."
            )
        else:
            # The client's days are the ones it counts, and theirs may differ from the practice's.
            practice_today = timezone.localdate()
            their_today = (
                timezone.localdate(timezone=as_zone(self.client.timezone))
                if self.client_id is not None
                else practice_today
            )
            if day <= their_today:
                return
            if their_today == practice_today:
                errors["no_contact_since"] = gettext(
                    "This is the day contact stopped: choose today or earlier."
                )
            else:
                errors["no_contact_since"] = gettext(
                    "This is the day contact stopped: choose %(date)s or earlier. "
                    "It is still %(date)s where the client is."
                ) % {"date": formats.date_format(their_today, "MONTH_DAY_FORMAT")}

    def weekdays_default_to_start(self) -> None:
        """Weekly or fortnightly work with no day chosen comes round on its start's weekday: the
        one rule for the admin's forms, the API and programs alike."""
        on_weekdays = (self.Schedule.WEEKLY, self.Schedule.FORTNIGHTLY)
        if self.schedule in on_weekdays and self.weekdays in ([], None) and self.starts_on:
            self.weekdays = [self.starts_on.weekday()]

    @property
    def client_instructions(self) -> str:
        return self.instructions or self.exercise.instructions

    @property
    def is_recurring(self) -> bool:
        return self.schedule != self.Schedule.ONCE
