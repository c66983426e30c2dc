"""Written in its cause's transaction, so every committed change has its message waiting,
whatever the broker did; delivery state stays off the clinical rows."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clients.contact.models import ContactProfile
from clients.models import Client


class OutboxMessage(models.Model):
    class Kind(models.TextChoices):
        ENTRY_NOTICE = "entry-notice", _("Something new arrived (to the therapist)")
        REMINDER = "reminder", _("Reminder (to the client)")
        FLAG_NOTICE = "flag-notice", _("Something to read soon (to the therapist)")
        DIGEST = "digest", _("The week in numbers (to the therapist)")
        ESCALATION = "escalation", _("An alert not yet answered (to the manager)")

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        SENT = "sent", _("Sent")
        GIVEN_UP = "given-up", _("Given up")
        NOT_SENT = "not-sent", _("Not sent")

    class Reason(models.TextChoices):
        NONE = "", _("No reason")
        OUTSIDE_SAFE_HOURS = "outside-safe-hours", _("Waiting for the client's safe hours")
        TURNED_OFF = "turned-off", _("The client turned this way of contact off")
        NO_SAFE_TIME = "no-safe-time", _("No safe time left on its day")

    kind = models.CharField(_("kind"), max_length=32, choices=Kind.choices)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=pgettext_lazy("recipient", "to"),
    )
    client = models.ForeignKey(
        Client,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("about client"),
    )
    entry = models.ForeignKey(
        "homework.Entry",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="outbox_messages",
        verbose_name=_("entry"),
    )
    # An escalation names the alert it is about, so one goes to each manager once.
    alert = models.ForeignKey(
        "homework.Alert",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("alert"),
    )
    state = models.CharField(
        _("state"), max_length=16, choices=State.choices, default=State.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("tries"), default=0)
    # The kind of failure only: never the message or the client's words.
    last_error = models.CharField(_("last error"), max_length=200, blank=True, default="")
    # Unique per client (or therapist), so two scans or workers cannot write a second one.
    slot = models.CharField(_("slot"), max_length=64, blank=True, default="")
    slot_on = models.DateField(_("for the day"), null=True, blank=True)
    channel = models.CharField(
        _("channel"), max_length=8, choices=ContactProfile.Channel.choices, blank=True, default=""
    )
    reminder_kinds = models.JSONField(_("what is waiting"), default=list, blank=True)
    # Work already named as past its day, so a reminder names it once only.
    past_due_ids = models.JSONField(default=list, blank=True)
    send_after = models.DateTimeField(_("not before"), null=True, blank=True)
    reason = models.CharField(
        _("reason"), max_length=24, choices=Reason.choices, blank=True, default=""
    )
    created_at = models.DateTimeField(_("asked for"), default=timezone.now)
    last_tried_at = models.DateTimeField(_("last tried"), null=True, blank=True)
    sent_at = models.DateTimeField(pgettext_lazy("a message", "sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("message to send")
        verbose_name_plural = _("messages to send")
        indexes = [
            models.Index(fields=["kind", "state", "attempts"]),
            models.Index(fields=["kind", "client", "slot_on"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "entry"], name="one_message_per_kind_and_entry"
            ),
            models.CheckConstraint(
                condition=Q(state="sent", sent_at__isnull=False)
                | (~Q(state="sent") & Q(sent_at__isnull=True)),
                name="sent_messages_have_a_time",
            ),
            models.UniqueConstraint(
                fields=["client", "slot"],
                condition=~Q(slot=""),
                name="one_reminder_per_client_and_slot",
            ),
            models.CheckConstraint(
                condition=~Q(kind="reminder") | (~Q(slot="") & Q(slot_on__isnull=False)),
                name="reminders_name_their_slot",
            ),
            models.CheckConstraint(
                condition=~Q(kind__in=["entry-notice", "flag-notice"]) | Q(entry__isnull=False),
                name="entry_notices_name_their_entry",
            ),
            models.UniqueConstraint(
                fields=["alert", "recipient"],
                condition=Q(kind="escalation"),
                name="one_escalation_per_alert_and_manager",
            ),
            models.CheckConstraint(
                condition=~Q(kind="escalation") | Q(alert__isnull=False),
                name="escalations_name_their_alert",
            ),
            models.UniqueConstraint(
                fields=["recipient", "slot"],
                condition=Q(kind="digest"),
                name="one_digest_per_therapist_and_week",
            ),
            models.CheckConstraint(
                condition=Q(kind="digest", client__isnull=True, slot__startswith="digest:")
                | (~Q(kind="digest") & Q(client__isnull=False)),
                name="only_digests_are_about_no_one_client",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.get_state_display()}"
