"""PlainOutput, the lists' cheap serializer, says exactly what DRF's own
field-by-field walk says of the same row, from a model or a .values() dict."""

import pytest
from rest_framework import serializers

from homework.api.serializers import AssignmentOut, EntryOut, StaffEntryOut
from homework.models import Assignment, Entry
from tests.conftest import Cast

pytestmark = pytest.mark.django_db


def _drf_walk(serializer: serializers.Serializer, instance: object) -> dict:  # type: ignore[type-arg]
    return dict(serializers.Serializer.to_representation(serializer, instance))


def test_an_assignment_from_a_model_or_a_values_row_reads_as_drf_would(cast: Cast):
    model = Assignment.objects.select_related("exercise").get(pk=cast.alice_assignment.pk)
    row = Assignment.objects.filter(pk=model.pk).values(*AssignmentOut.COLUMNS).get()
    expected = _drf_walk(AssignmentOut(), model)
    assert AssignmentOut().to_representation(model) == expected
    assert AssignmentOut().to_representation(row) == expected


def test_an_entry_reads_as_drf_would_nulls_included(cast: Cast):
    entry = Entry.objects.select_related("assignment__exercise").get(pk=cast.alice_entry.pk)
    assert entry.submitted_at is None or entry.seen_at is None  # some nulls to carry
    assert EntryOut().to_representation(entry) == _drf_walk(EntryOut(), entry)
    entry.status, entry.private = Entry.Status.SUBMITTED, True
    hidden = StaffEntryOut().to_representation(entry)
    assert hidden["response"] is None and hidden["felt_unsafe"] is None
