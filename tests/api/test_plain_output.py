"""PlainOutput, the lists' cheap serializer, says exactly what DRF's own
field-by-field walk says of the same row, from a model or a .values() dict."""

import datetime as dt

import pytest
from rest_framework import serializers

from homework.api.serializers import AssignmentOut, EntryOut, StaffEntryOut
from homework.models import Assignment, Entry
from homework.selectors import staff_rows
from tests.conftest import Cast
from tests.factories import EntryFactory

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
    # A summer time: not UTC in the practice's zone, so shown with its offset.
    entry.created_at = dt.datetime(2026, 7, 1, 12, 30, tzinfo=dt.UTC)
    assert EntryOut().to_representation(entry)["created_at"] == "2026-07-01T13:30:00+01:00"
    assert EntryOut().to_representation(entry) == _drf_walk(EntryOut(), entry)
    entry.status, entry.private = Entry.Status.SUBMITTED, True
    hidden = StaffEntryOut().to_representation(entry)
    assert hidden["response"] is None and hidden["felt_unsafe"] is None


@pytest.mark.parametrize("private", [False, True], ids=["shared", "private"])
def test_a_staff_entry_from_a_plain_row_reads_as_from_its_model(cast: Cast, private: bool):
    entry = EntryFactory.create(assignment=cast.alice_assignment, private=private)
    model = Entry.objects.select_related("assignment__exercise").get(pk=entry.pk)
    row = staff_rows(Entry.objects.filter(pk=entry.pk)).values(*StaffEntryOut.ROW_COLUMNS).get()
    assert StaffEntryOut().to_representation(row) == StaffEntryOut().to_representation(model)
    # A private entry's words are not even fetched for staff, let alone decrypted.
    assert (row["readable_response"] is None) is private
