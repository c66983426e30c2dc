"""The exercise library; what a response contains is up to the exercise's kind."""

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from homework.kinds import kind_choices
from homework.models.field_limits import INSTRUCTIONS_MAX_CHARS, too_long
from practice.languages import offered_languages, practice_language

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class Exercise(models.Model):
    kind = models.CharField(_("kind"), max_length=32, choices=kind_choices)
    title = models.CharField(_("title"), max_length=120)
    instructions = models.TextField(
        _("instructions for the client"),
        help_text=_("Plain, warm, second person. The client reads this first."),
    )
    therapist_note = models.TextField(
        _("note for therapists"), blank=True, help_text=_("When this exercise helps.")
    )
    options = models.JSONField(
        _("kind options"), default=dict, blank=True, help_text=_("E.g. a worksheet's questions.")
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="exercises",
        help_text=_("Empty: shared with the whole practice."),
    )
    language = models.CharField(
        _("language"),
        max_length=16,
        choices=offered_languages,
        default=practice_language,
        help_text=_("The language its words are written in."),
    )
    # A version in another language: its own row, so answers, scores and flags read in the words
    # the client was shown.
    translation_of = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="translations",
        verbose_name=_("a version of"),
        help_text=_("The exercise this one gives in another language."),
    )
    is_active = models.BooleanField(_("in the library"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["title"]
        verbose_name = _("exercise")
        verbose_name_plural = _("exercises")

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        super().clean()
        errors: dict[str, StrOrPromise] = {
            name: message
            for name in ("instructions", "therapist_note")
            if (message := too_long(getattr(self, name), limit=INSTRUCTIONS_MAX_CHARS))
        }
        if refusal := self.version_refusal():
            errors["translation_of"] = refusal
        # Entries are read by their exercise's kind: another kind could not read them.
        if self.pk is not None and self.assignments.exists():
            stored = Exercise.objects.filter(pk=self.pk).values_list("kind", flat=True).first()
            if stored is not None and stored != self.kind:
                errors["kind"] = _(
                    "This exercise has been assigned, so its kind stays as it is. "
                    "To use another kind, add a new exercise."
                )
        if errors:
            raise ValidationError(errors)

    def version_refusal(self) -> "StrOrPromise | None":
        """A version is the same exercise in another language, shared at least as widely (its
        source's title shows on its page), and versions hang from one source, never in chains."""
        source = self.translation_of
        if source is None:
            return None
        if source.pk == self.pk or source.language == self.language:
            return _("The exercise this one is a version of must be in another language.")
        if source.kind != self.kind:
            return _("A version is the same kind of exercise as the one it gives.")
        if source.owner_id not in (None, self.owner_id):
            return _("Choose an exercise the practice shares, or one of this exercise's author.")
        if source.translation_of_id is not None or (
            self.pk is not None and self.translations.exists()
        ):
            return _("Versions all give the exercise first written: choose that one.")
        return None
