"""A flag that calls for the therapist: it stays first until they say what they did about it."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clients.models import Client
from homework.models.entries import Entry
from practice.encryption import EncryptedTextField

ACKNOWLEDGEMENT_MAX_CHARS = 200


class Alert(models.Model):
    class Reason(models.TextChoices):
        FELT_UNSAFE = "felt-unsafe", _("felt unsafe")
        WATCHED_ANSWER = "watched-answer", _("a watched answer")

    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="alerts", verbose_name=_("entry")
    )
    # The entry's client, kept here so every page scopes and counts alerts without joining entries.
    client = models.ForeignKey(
        Client, on_delete=models.CASCADE, related_name="alerts", verbose_name=_("client")
    )
    reason = models.CharField(_("why"), max_length=16, choices=Reason.choices)
    # The watched question's key (blank for "felt unsafe"); the answer itself is the client's words.
    question_key = models.CharField(_("question"), max_length=64, blank=True, default="")
    answer = EncryptedTextField(_("the answer as the flag names it"), blank=True, default="")
    client_words_of = "client"
    raised_at = models.DateTimeField(_("raised"))
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("acknowledged by"),
    )
    acknowledged_at = models.DateTimeField(_("acknowledged"), null=True, blank=True)
    note = EncryptedTextField(
        _("what was done"), max_length=ACKNOWLEDGEMENT_MAX_CHARS, blank=True, default=""
    )
    escalated_at = models.DateTimeField(_("raised to the manager"), null=True, blank=True)

    class Meta:
        ordering = ["-raised_at", "-pk"]
        verbose_name = _("alert")
        verbose_name_plural = _("alerts")
        indexes = [
            models.Index(fields=["client", "acknowledged_at"]),
            models.Index(fields=["acknowledged_at", "escalated_at", "raised_at"]),
        ]
        constraints = [
            # An edit that raises the same flag again finds the open alert instead.
            models.UniqueConstraint(
                fields=["entry", "reason", "question_key"],
                condition=Q(acknowledged_at__isnull=True),
                name="one_open_alert_per_flag",
            ),
            models.CheckConstraint(
                condition=Q(acknowledged_at__isnull=True, acknowledged_by__isnull=True)
                | Q(acknowledged_at__isnull=False, acknowledged_by__isnull=False),
                name="acknowledged_alerts_say_by_whom",
            ),
            models.CheckConstraint(
                condition=Q(reason="felt-unsafe", question_key="")
                | Q(reason="watched-answer") & ~Q(question_key=""),
                name="watched_answers_name_their_question",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_reason_display()} · {self.raised_at:%Y-%m-%d %H:%M}"

    @property
    def is_open(self) -> bool:
        return self.acknowledged_at is None

    # Read through these, an alert with no words opens nothing, so no look is logged for it.
    @property
    def named_answer(self) -> str:
        return self.answer if self.reason == self.Reason.WATCHED_ANSWER else ""

    @property
    def acknowledgement_note(self) -> str:
        return "" if self.is_open else self.note
