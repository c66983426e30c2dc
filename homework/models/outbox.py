"""The outbox: one row per message to send, and how its delivery went.

Delivery state lives here, never on the clinical row a message concerns.
A row is written in the same transaction as its cause (an entry shared),
so a message is never asked for by a change that did not commit, and a
change that committed always has its message waiting, whatever the broker
did; workers and the sweep send from here (homework.services.outbox).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clients.models import Client


class OutboxMessage(models.Model):
    class Kind(models.TextChoices):
        ENTRY_NOTICE = "entry-notice", _("Something new arrived (to the therapist)")

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        SENT = "sent", _("Sent")
        GIVEN_UP = "given-up", _("Given up")

    kind = models.CharField(_("kind"), max_length=32, choices=Kind.choices)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("to"),
    )
    client = models.ForeignKey(
        Client, on_delete=models.CASCADE, related_name="+", verbose_name=_("about client")
    )
    # The entry a notice is about; empty for kinds that concern no one entry.
    entry = models.ForeignKey(
        "homework.Entry",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="outbox_messages",
        verbose_name=_("entry"),
    )
    state = models.CharField(
        _("state"), max_length=16, choices=State.choices, default=State.PENDING
    )
    # Tries at the mail server so far; practice.delivery decides when they stop.
    attempts = models.PositiveSmallIntegerField(_("tries"), default=0)
    # The kind of failure only (practice.delivery.short_error): never the
    # message or the client's words.
    last_error = models.CharField(_("last error"), max_length=200, blank=True, default="")
    created_at = models.DateTimeField(_("asked for"), default=timezone.now)
    last_tried_at = models.DateTimeField(_("last tried"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("message to send")
        verbose_name_plural = _("messages to send")
        indexes = [models.Index(fields=["kind", "state", "attempts"])]
        constraints = [
            # One notice per entry, however many times it is shared or sent.
            models.UniqueConstraint(
                fields=["kind", "entry"], name="one_message_per_kind_and_entry"
            ),
            models.CheckConstraint(
                condition=Q(state="sent", sent_at__isnull=False)
                | (~Q(state="sent") & Q(sent_at__isnull=True)),
                name="sent_messages_have_a_time",
            ),
            models.CheckConstraint(
                condition=~Q(kind="entry-notice") | Q(entry__isnull=False),
                name="entry_notices_name_their_entry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.get_state_display()}"
