"""The client's entries, the notes they add once one is read, and the
therapist's comments.

A response is validated JSON with a schema version; what it contains is
decided by its exercise's kind (homework.kinds).
"""

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
    """May staff read an entry, in SQL: sent, and not kept private by the
    client (CLINICAL.md: staff learn only that a private entry exists).
    ``through`` reaches the entry over a relation ("entry__", "entries__").
    The one home of the rule with ``Entry.readable_by_staff`` beside it."""
    return Q(**{f"{through}status": Entry.Status.SUBMITTED, f"{through}private": False})


class EntryQuerySet(models.QuerySet["Entry"]):
    def readable_by_staff(self) -> Self:
        """The entries whose words staff may read (readable_by_staff_q)."""
        return self.filter(readable_by_staff_q())


class Entry(models.Model):
    """One response from the client. Drafts live here too, never in the browser."""

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
    # The slot of recurring work the entry counts for (homework.schedules):
    # the one it was begun in, or, for a log once sent, that of the day what
    # it records happened (homework.services.entry_writes.slot_when_sent). Not
    # unique: a log takes any number of entries a day.
    occurrence_on = models.DateField(_("for the day"), null=True, blank=True)
    schema_version = models.PositiveSmallIntegerField(_("schema version"))
    # What the client wrote, encrypted at rest (practice.encryption); the
    # flags, dates and score SQL filters and orders on are plain columns below.
    response = EncryptedJSONField(_("response"), default=dict)
    # Whose words this row holds: reading them logs a look (clients.services.access_log).
    client_words_of = "assignment__client"
    # What the response answers, as the client was asked it when they last
    # saved it (set by the kind: a worksheet's questions, by key). The
    # therapist may reword a question after it was answered, and it keeps its
    # key so a typo fix keeps its answers; without this, "No" to "Did you
    # feel safe?" would be shown under "Did you feel unsafe?". Empty for
    # kinds whose words do not change under an entry, and for entries saved
    # before it was kept (they are shown as the form asks now).
    asked = models.JSONField(_("questions as asked"), default=dict, blank=True, editable=False)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.DRAFT
    )
    discuss_in_session = models.BooleanField(
        _("wants to talk about this in session"), default=False
    )
    felt_unsafe = models.BooleanField(_("felt unsafe"), default=False)
    # Set from the answers, not by the client (ExerciseKind.needs_review):
    # an answer a questionnaire's authors ask to be reviewed promptly. Its
    # own column, not "felt unsafe": those are words the client did not say.
    needs_review = models.BooleanField(_("an answer to review"), default=False, editable=False)
    private = models.BooleanField(_("private"), default=False)
    version = models.PositiveIntegerField(_("version"), default=1)
    created_at = models.DateTimeField(_("started"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last saved"), auto_now=True)
    submitted_at = models.DateTimeField(_("submitted"), null=True, blank=True)
    # When the therapist could first read it: when it was sent, or, for an
    # entry kept private at first, when the client shared it. "What is new
    # since the last session" is measured by this, so an entry written
    # privately and shared later is news then, not lost in a window that
    # had already closed (homework.selectors.scoping.known_after).
    shared_at = models.DateTimeField(_("shared"), null=True, blank=True, editable=False)
    # When the client last changed the entry after the therapist could read
    # it: its words or flags edited while it was shared (entry_edit). Not
    # updated_at, which also moves when a draft is saved, the entry is made
    # private or shared, or a note is kept; and not an edit made while it was
    # private, which the therapist never had in front of them. Shown to staff
    # beside the date it was sent, only while the entry is shared.
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
        # Each kind's own number (ExerciseKind.score), read only by that kind:
        # a scored worksheet's total, an urge's pull.
        help_text=_(
            "A scored worksheet's total, or an urge's pull (0 to 10), kept so it "
            "can be charted over time."
        ),
    )
    # What a picture drawn over every entry (the urge curve, the timeline)
    # reads of each without opening its response, taken from it by its kind
    # when it is sent or changed (ExerciseKind.plain_columns), as the score
    # is: when what it records happened, as the client gave it (an urge's
    # time; None for kinds that do not draw it), and whether it says there
    # was contact (True), says there was none (False) or does not say
    # (None). Plain like the flags beside them: a time and a yes or no,
    # never the client's words; who reached out stays sealed.
    happened_at = models.DateTimeField(_("happened"), null=True, blank=True, editable=False)
    contact_happened = models.BooleanField(
        _("contact happened"), null=True, blank=True, editable=False
    )
    # Which open portal page last saved this draft, and how many saves that
    # page had sent by then. A page leaving (the quick exit, a closed tab)
    # sends its last words while an earlier save of its own may still be on
    # the way; both carry the version the page last saw, so one of them
    # would meet the other as a conflict from "elsewhere" and be dropped.
    # Knowing the page, the later of its own saves wins, in whatever order
    # they arrive (homework.services.drafts.entry_save_draft).
    saved_by_page = models.CharField(max_length=32, blank=True, default="", editable=False)
    page_save_number = models.PositiveIntegerField(default=0, editable=False)
    # For work that continues the last entry sent (a plan, a map, a ladder:
    # ExerciseKind.continues_last_sent): how many entries of the assignment
    # had been sent when the page this draft was written on opened, filled
    # from the newest of them. More sent since means a newer version arrived
    # from another tab or device, which this draft would quietly replace
    # (homework.services.entry_writes.EntrySentSince). Kept on the draft so a
    # draft carried on later still knows. Null: not that kind of work, or
    # saved before this was kept.
    sent_when_opened = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # A note the client began on this sent entry and could not send: longer
    # than a note may be, or on its way as they left (the quick exit, the
    # idle end, "Sign out"), which cannot stop to ask them to shorten it. The
    # note form has no autosave, so this is the one place those words are
    # kept. The client's alone: shown back in their note box, in their own download
    # (labelled as not sent), never to the practice (editable=False keeps it
    # out of admin forms; the admin and summary show only sent notes).
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
        """readable_by_staff_q for one entry in hand: the same two conditions."""
        return self.is_submitted and not self.private

    @property
    def changed_since_sent(self) -> dt.datetime | None:
        """When the client last changed what they had shared, for staff pages:
        None where staff may not read the entry, whose changes are then the client's alone."""
        return self.changed_at if self.readable_by_staff else None

    @property
    def client_can_edit(self) -> bool:
        """Sent entries stay the client's to change until the therapist has read them."""
        return self.is_submitted and self.seen_at is None


class EntryComment(models.Model):
    """A therapist's short note on an entry: their only write into a client's records."""

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
    """A few lines the client adds to their own entry after the therapist has read it.

    Once read, the entry itself stays as it was (the therapist may have
    quoted it); the client can still say more, and the note is theirs.
    """

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
