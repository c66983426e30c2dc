"""A client's PDF download, prepared in the background when their notebook is long.

One row per client at most: a second click finds the one under way. The
file is kept in the row itself, encrypted with the same keys as everything
the client wrote, and rotated with them (practice.encryption), so the row and its file go in one
delete: nothing is left on a disk by a worker that died, or by erasure.
"""

import datetime as dt
import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from clients.models import Client
from practice.encryption import EncryptedBinaryField

# A build whose page count has not moved for this long has died (a worker
# restarted, a thread lost with its process): shown as failed, to try again.
STALLED_AFTER = dt.timedelta(minutes=10)
# How long a download is kept, ready or not, after it last changed.
KEPT_FOR = dt.timedelta(hours=1)


class PreparedDownload(models.Model):
    class State(models.TextChoices):
        PREPARING = "preparing", _("Being prepared")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Could not be made")

    # What the client's pages name it by: never the row's number.
    key = models.UUIDField(_("key"), default=uuid.uuid4, unique=True, editable=False)
    client = models.ForeignKey(
        Client, on_delete=models.CASCADE, related_name="+", verbose_name=_("client")
    )
    state = models.CharField(
        _("state"), max_length=16, choices=State.choices, default=State.PREPARING
    )
    # The assignments the client chose, or null for everything they sent.
    assignment_ids = models.JSONField(_("chosen assignments"), null=True, blank=True)
    pages = models.PositiveIntegerField(_("pages so far"), default=0)
    # Each new try of the same row gets a new number; a message for an older
    # try (a worker that woke late) finds nothing to claim.
    attempt = models.PositiveIntegerField(_("attempt"), default=1)
    claimed_at = models.DateTimeField(_("building since"), null=True, blank=True)
    created_at = models.DateTimeField(_("asked for at"), auto_now_add=True)
    # Moved by every page counted and every change of state: what "stalled"
    # and "expired" are measured from.
    touched_at = models.DateTimeField(_("last changed at"))
    # The PDF, stored encrypted; empty until ready.
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
        """The state as the client sees it: a build that stopped moving has failed."""
        if self.state == self.State.PREPARING and now - self.touched_at > STALLED_AFTER:
            return self.State.FAILED
        return self.state

    def expired(self, now: dt.datetime) -> bool:
        return now - self.touched_at > KEPT_FOR
