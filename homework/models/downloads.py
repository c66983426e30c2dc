"""The PDF is kept encrypted in the row, so row and file go in one delete and no disk keeps it."""

import datetime as dt
import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from clients.models import Client
from practice.encryption import EncryptedBinaryField

# A build whose page count has not moved for this long has died with its worker.
STALLED_AFTER = dt.timedelta(minutes=10)
KEPT_FOR = dt.timedelta(hours=1)


class PreparedDownload(models.Model):
    class State(models.TextChoices):
        PREPARING = "preparing", _("Being prepared")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Could not be made")

    key = models.UUIDField(_("key"), default=uuid.uuid4, unique=True, editable=False)
    client = models.ForeignKey(
        Client, on_delete=models.CASCADE, related_name="+", verbose_name=_("client")
    )
    state = models.CharField(
        _("state"), max_length=16, choices=State.choices, default=State.PREPARING
    )
    assignment_ids = models.JSONField(_("chosen assignments"), null=True, blank=True)
    pages = models.PositiveIntegerField(_("pages so far"), default=0)
    # A message for an older try (a worker that woke late) finds nothing to claim.
    attempt = models.PositiveIntegerField(_("attempt"), default=1)
    claimed_at = models.DateTimeField(_("building since"), null=True, blank=True)
    created_at = models.DateTimeField(_("asked for at"), auto_now_add=True)
    touched_at = models.DateTimeField(_("last changed at"))
    sealed_file = EncryptedBinaryField(_("file (encrypted)"), null=True, blank=True)

    class Meta:
        verbose_name = _("prepared download")
        constraints = [
            models.UniqueConstraint(
                fields=["client"],
                name="one_prepared_download_per_client",
                violation_error_message=_("A download is already being prepared."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_state_display()} ({self.pages})"

    def shown_state(self, now: dt.datetime) -> str:
        if self.state == self.State.PREPARING and now - self.touched_at > STALLED_AFTER:
            return self.State.FAILED
        return self.state

    def expired(self, now: dt.datetime) -> bool:
        return now - self.touched_at > KEPT_FOR
