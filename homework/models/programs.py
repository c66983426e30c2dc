"""Programs: an ordered path of library exercises, each released to the client as an ordinary
assignment when its rule says so (homework.services.programs)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clients.models import Client
from homework.models.assignments import Assignment
from homework.models.exercises import Exercise
from homework.models.field_limits import INSTRUCTIONS_MAX_CHARS, too_long
from practice.languages import offered_languages, practice_language

# The longest wait a step may name: a slip of the keyboard past this, not a plan.
MAX_STEP_DAYS = 365
# How long a released step stays on the client's To do before it shows as past due.
STEP_DUE_DAYS = 7


class Release(models.TextChoices):
    RIGHT_AWAY = "right_away", _("Right away")
    AFTER_PREVIOUS = "after_previous", _("When the previous step is done")
    AFTER_PREVIOUS_DAYS = "after_previous_days", _("Some days after the previous step is done")
    ON_DAY = "on_day", _("On a day of the program")


class StepRule(models.Model):
    """What a step is and when it comes: the same on a program and on a client's copy of it."""

    position = models.PositiveSmallIntegerField(_("position"))
    exercise = models.ForeignKey(
        Exercise, on_delete=models.PROTECT, related_name="+", verbose_name=_("exercise")
    )
    instructions = models.TextField(
        _("instructions for this step"),
        blank=True,
        help_text=_("Optional. Shown to the client above the exercise's own instructions."),
    )
    release = models.CharField(
        _("comes"), max_length=24, choices=Release.choices, default=Release.AFTER_PREVIOUS
    )
    days = models.PositiveSmallIntegerField(
        _("days"),
        null=True,
        blank=True,
        help_text=_("For “some days after”: how many. For “on a day”: which day, day 1 first."),
    )
    required = models.BooleanField(
        _("required"),
        default=False,
        help_text=_("The next step waits until this one is done, whatever its own rule says."),
    )

    class Meta:
        abstract = True
        ordering = ["position"]

    def clean(self) -> None:
        super().clean()
        counted = self.release in (Release.AFTER_PREVIOUS_DAYS, Release.ON_DAY)
        if counted and self.days is None:
            raise ValidationError({"days": gettext("Say how many days.")})
        if counted and self.days is not None and not 1 <= self.days <= MAX_STEP_DAYS:
            raise ValidationError(
                {
                    "days": gettext("Choose a number of days from 1 to %(most)s.")
                    % {"most": MAX_STEP_DAYS}
                }
            )
        if not counted and self.days is not None:
            raise ValidationError(
                {
                    "days": gettext(
                        "Only “some days after” and “on a day” take days: leave this empty."
                    )
                }
            )
        if message := too_long(self.instructions, limit=INSTRUCTIONS_MAX_CHARS):
            raise ValidationError({"instructions": message})


class Program(models.Model):
    title = models.CharField(_("title"), max_length=120)
    description = models.TextField(
        _("what it is for"), blank=True, help_text=_("For therapists; clients never see it.")
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="programs",
        help_text=_("Empty: shared with the whole practice."),
    )
    language = models.CharField(
        _("language"),
        max_length=16,
        choices=offered_languages,
        default=practice_language,
        help_text=_("The language its steps are written in."),
    )
    is_active = models.BooleanField(_("in the library"), default=True)
    # Raised by every change to the steps, so an editor opened before another change says so.
    revision = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["title"]
        verbose_name = _("program")
        verbose_name_plural = _("programs")

    def __str__(self) -> str:
        return self.title


class ProgramStep(StepRule):
    program = models.ForeignKey(Program, on_delete=models.CASCADE, related_name="steps")

    class Meta(StepRule.Meta):
        verbose_name = _("step")
        verbose_name_plural = _("steps")
        constraints = [
            models.UniqueConstraint(
                fields=["program", "position"],
                name="program_step_position_unique",
            )
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.exercise}"

    def clean(self) -> None:
        super().clean()
        if self.exercise_id is None or self.program_id is None:
            return
        if not self.exercise.is_active:
            raise ValidationError(
                {"exercise": gettext("This exercise is no longer in the library: choose another.")}
            )
        if self.exercise.owner_id not in (None, self.program.owner_id):
            raise ValidationError(
                {"exercise": gettext("This exercise is another therapist's: choose one of yours.")}
            )


class ClientProgram(models.Model):
    """A program given to one client: its steps copied, so later edits to the program never move
    a path the client is already on."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        PAUSED = "paused", _("Paused")
        STOPPED = "stopped", _("Stopped")
        FINISHED = "finished", _("Finished")

    client = models.ForeignKey(
        Client, on_delete=models.PROTECT, related_name="programs", verbose_name=_("client")
    )
    program = models.ForeignKey(
        Program, on_delete=models.PROTECT, related_name="+", verbose_name=_("program")
    )
    title = models.CharField(_("title"), max_length=120)
    starts_on = models.DateField(_("starts on"))
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("client's program")
        verbose_name_plural = _("clients' programs")
        constraints = [
            models.UniqueConstraint(
                fields=["client", "program"],
                condition=Q(status__in=["active", "paused"]),
                name="one_running_copy_of_a_program",
                violation_error_message=_("This client is already on this program."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.title} · {self.client}"

    @property
    def is_running(self) -> bool:
        return self.status in (self.Status.ACTIVE, self.Status.PAUSED)


class ClientProgramStep(StepRule):
    client_program = models.ForeignKey(
        ClientProgram, on_delete=models.CASCADE, related_name="steps"
    )
    # The first day the step may come, once the path reaches it; what the beat looks for.
    release_on = models.DateField(null=True, blank=True, db_index=True)
    # One assignment per step: a second release of the same step fails here, whoever tries it.
    assignment = models.OneToOneField(
        Assignment,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="program_step",
    )
    done_on = models.DateField(null=True, blank=True)
    skipped_at = models.DateTimeField(null=True, blank=True)

    class Meta(StepRule.Meta):
        verbose_name = _("client's step")
        verbose_name_plural = _("client's steps")
        constraints = [
            models.UniqueConstraint(
                fields=["client_program", "position"], name="client_program_step_position_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.exercise}"

    @property
    def is_released(self) -> bool:
        return self.assignment_id is not None

    @property
    def is_finished(self) -> bool:
        """Done or skipped: what lets the path go on past it."""
        return self.done_on is not None or self.skipped_at is not None
