"""Outputs read what the selectors loaded, so a list's queries don't grow with its rows."""

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from homework.api.responses import KindResponseField
from homework.kinds import get_kind
from homework.models import Assignment, Entry
from practice.api.serializers import StrictInput


class AssignmentOut(serializers.Serializer[Assignment]):
    id = serializers.IntegerField()
    title = serializers.CharField(source="exercise.title")
    kind = serializers.CharField(source="exercise.kind")
    instructions = serializers.CharField(help_text=_("The therapist's words for this client."))
    status = serializers.ChoiceField(choices=Assignment.Status.choices)
    schedule = serializers.ChoiceField(choices=Assignment.Schedule.choices)
    starts_on = serializers.DateField()
    due_on = serializers.DateField(allow_null=True)
    ends_on = serializers.DateField(allow_null=True)
    days_before = serializers.IntegerField(
        allow_null=True, help_text=_("Before-session work: opens this many days before each.")
    )
    created_at = serializers.DateTimeField()


class NoteOut(serializers.Serializer[Any]):
    text = serializers.CharField()
    created_at = serializers.DateTimeField()


class _ResponseOf(KindResponseField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, value: Any) -> Any:
        return get_kind(value.assignment.exercise.kind).response_of(value)


class _ResponseIfReadable(_ResponseOf):
    """None for a private entry, never read."""

    def to_representation(self, value: Any) -> Any:
        return super().to_representation(value) if value.readable_by_staff else None


class EntryOut(serializers.Serializer[Entry]):
    """An entry as its own client sees it: drafts and private ones too."""

    id = serializers.UUIDField(source="key", help_text=_("The entry's key."))
    assignment = serializers.IntegerField(source="assignment_id")
    kind = serializers.CharField(source="assignment.exercise.kind")
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    response = _ResponseOf()
    discuss_in_session = serializers.BooleanField()
    felt_unsafe = serializers.BooleanField()
    private = serializers.BooleanField()
    version = serializers.IntegerField(help_text=_("Also the ETag; send it back as If-Match."))
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    submitted_at = serializers.DateTimeField(allow_null=True)
    seen_at = serializers.DateTimeField(
        allow_null=True, help_text=_("When the therapist first read it; then it stays as it is.")
    )
    can_edit = serializers.BooleanField(source="client_can_edit")


class EntryWithNotesOut(EntryOut):
    notes = NoteOut(many=True)
    comments = NoteOut(many=True)


class StaffEntryOut(serializers.Serializer[Entry]):
    """Never a draft; a private one only as the fact that it exists, words and flags null."""

    id = serializers.UUIDField(source="key")
    assignment = serializers.IntegerField(source="assignment_id")
    kind = serializers.CharField(source="assignment.exercise.kind")
    private = serializers.BooleanField()
    submitted_at = serializers.DateTimeField()
    seen_at = serializers.DateTimeField(allow_null=True)
    version = serializers.IntegerField(
        help_text=_("Send it back with the id to mark the entry read as you read it.")
    )
    response = _ResponseIfReadable(allow_null=True)
    discuss_in_session = serializers.BooleanField(allow_null=True)
    felt_unsafe = serializers.BooleanField(allow_null=True)
    needs_review = serializers.BooleanField(allow_null=True)
    changed_at = serializers.DateTimeField(source="changed_since_sent", allow_null=True)

    HIDDEN_WHEN_PRIVATE = ("discuss_in_session", "felt_unsafe", "needs_review")

    def to_representation(self, instance: Entry) -> dict[str, Any]:
        data = super().to_representation(instance)
        if not instance.readable_by_staff:
            data.update(dict.fromkeys(self.HIDDEN_WHEN_PRIVATE))
        return data


class EntryIn(StrictInput):
    response = KindResponseField()
    discuss_in_session = serializers.BooleanField(default=False)
    felt_unsafe = serializers.BooleanField(default=False)
    private = serializers.BooleanField(default=False)
    status = serializers.ChoiceField(choices=Entry.Status.choices, default=Entry.Status.DRAFT)


class EntryPatch(StrictInput):
    """A change to an entry: any of these; what is left out stays as it is."""

    response = KindResponseField(required=False)
    discuss_in_session = serializers.BooleanField(required=False)
    felt_unsafe = serializers.BooleanField(required=False)
    private = serializers.BooleanField(required=False)
    status = serializers.ChoiceField(choices=Entry.Status.choices, required=False)


class NoteIn(StrictInput):
    text = serializers.CharField(trim_whitespace=False, allow_blank=True)
