"""The client's entries, their notes and the therapist's comments; the kind shapes a response."""

import datetime as dt
import uuid
from typing import Self

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from homework.models.assignments import Assignment
from practice.encryption import EncryptedJSONField, EncryptedTextField


def readable_by_staff_q(through: str = "") -> Q:
    """Staff learn only that a private entry exists (CLINICAL.md); ``through`` is a relation."""
    return Q(**{f"{through}status": Entry.Status.SUBMITTED, f"{through}private": False})


class EntryQuerySet(models.QuerySet["Entry"]):
    def readable_by_staff(self) -> Self:
        return self.filter(readable_by_staff_q())


class Entry(models.Model):
    """Drafts live here too, never in the browser."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        SUBMITTED = "submitted", _("Submitted")

    key = models.UUIDField(
        _("key"),
        default=uuid.uuid4,
        unique=True,
        editable=False,
        help_text=_("Chosen when the form opens, so a replayed save or submit finds this row."),
    )
    assignment = models.ForeignKey(
        Assignment, on_delete=models.PROTECT, related_name="entries", verbose_name=_("assignment")
    )
    # Not unique: a log takes any number of entries a day.
    occurrence_on = models.DateField(_("for the day"), null=True, blank=True)
    schema_version = models.PositiveSmallIntegerField(_("schema version"))
    # Encrypted; what SQL filters and orders on are plain columns below.
    response = EncryptedJSONField(_("response"), default=dict)
    # Reading this row's words logs a look (clients.services.access_log).
    client_words_of = "assignment__client"
    # The questions as asked when last saved: a reworded question must not change an answer's sense.
    asked = models.JSONField(_("questions as asked"), default=dict, blank=True, editable=False)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.DRAFT
    )
    discuss_in_session = models.BooleanField(
        _("wants to talk about this in session"), default=False
    )
    felt_unsafe = models.BooleanField(_("felt unsafe"), default=False)
    # Set from the answers, not "felt unsafe": those are words the client did not say.
    needs_review = models.BooleanField(_("an answer to review"), default=False, editable=False)
    private = models.BooleanField(_("private"), default=False)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("started"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last saved"), auto_now=True)
    submitted_at = models.DateTimeField(_("submitted"), null=True, blank=True)
    # "New since the last session" counts from here, so an entry shared late is still news.
    shared_at = models.DateTimeField(_("shared"), null=True, blank=True, editable=False)
    # Only edits made while shared: not updated_at, which moves for drafts, notes and sharing.
    changed_at = models.DateTimeField(
        _("changed after sending"), null=True, blank=True, editable=False
    )
    seen_at = models.DateTimeField(
        _("first read by the therapist"),
        null=True,
        blank=True,
        help_text=_("Until then the client may still edit what they sent."),
    )
    score = models.FloatField(
        _("score"),
        null=True,
        blank=True,
        help_text=_(
            "A scored worksheet's total, or an urge's pull (0 to 10), kept so it "
            "can be charted over time."
        ),
    )
    # Each subscale's score, by its key, as the total is kept: its series is read in the same query.
    subscale_scores = models.JSONField(_("subscale scores"), null=True, blank=True, editable=False)
    # Plain so charts need not open every response: a time and a yes or no, never the words.
    happened_at = models.DateTimeField(_("happened"), null=True, blank=True, editable=False)
    contact_happened = models.BooleanField(
        _("contact happened"), null=True, blank=True, editable=False
    )
    # A leaving page's last save may race its own earlier one: knowing the page, the later wins
    # rather than meeting the other as a conflict from elsewhere.
    saved_by_page = models.CharField(max_length=32, blank=True, default="", editable=False)
    page_save_number = models.PositiveIntegerField(default=0, editable=False)
    # Entries sent when the page opened: more since means this draft would replace a newer version.
    sent_when_opened = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # A note that could not be sent as the client left; theirs alone, never shown to the practice.
    note_draft = EncryptedTextField(_("note not sent yet"), blank=True, default="", editable=False)

    objects = EntryQuerySet.as_manager()

    class Meta:
        ordering = ["-submitted_at", "-updated_at"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        indexes = [models.Index(fields=["assignment", "status", "-submitted_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="draft", submitted_at__isnull=True)
                | Q(status="submitted", submitted_at__isnull=False),
                name="submitted_entries_have_a_time",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="version_starts_at_one"),
            models.CheckConstraint(
                condition=Q(status="draft") | Q(private=True) | Q(shared_at__isnull=False),
                name="shared_entries_have_a_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.assignment.exercise} · {self.get_status_display()}"

    @property
    def is_submitted(self) -> bool:
        return self.status == self.Status.SUBMITTED

    @property
    def readable_by_staff(self) -> bool:
        return self.is_submitted and not self.private

    @property
    def changed_since_sent(self) -> dt.datetime | None:
        """None where staff may not read the entry: its changes are then the client's alone."""
        return self.changed_at if self.readable_by_staff else None

    @property
    def client_can_edit(self) -> bool:
        """Sent entries stay the client's to change until the therapist has read them."""
        return self.is_submitted and self.seen_at is None


class EntryComment(models.Model):
    """The therapist's only write into a client's records."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = EncryptedTextField(_("comment"), max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("comment")
        verbose_name_plural = _("comments")

    def __str__(self) -> str:
        return f"{self.author} · {self.created_at:%Y-%m-%d}"


class EntryNote(models.Model):
    """Once read, an entry stays as it was (the therapist may have quoted it); a note adds to it."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="notes")
    text = EncryptedTextField(_("note"), max_length=2000)
    client_words_of = "entry__assignment__client"
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("client's note")
        verbose_name_plural = _("client's notes")

    def __str__(self) -> str:
        return f"{self.entry_id} · {self.created_at:%Y-%m-%d}"
