"""The therapist's writes: entries marked as read when they say so, comments, several
clients at once."""

import datetime as dt
import uuid

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from clients.models import AccessEvent
from homework import services
from homework.models import Assignment, Entry, EntryComment
from practice.models import User
from tests.factories import AssignmentFactory, EntryFactory, ExerciseFactory

# -- marking entries read: only when the therapist says so ---------------------------


def unread(*entries: Entry) -> bool:
    return all(Entry.objects.get(pk=entry.pk).seen_at is None for entry in entries)


def as_shown(*entries: Entry) -> dict[uuid.UUID, int]:
    return {entry.key: entry.version for entry in entries}


def test_opening_an_entry_is_logged_and_reads_nothing(cast):
    services.entry_record_view(actor=cast.tara, entry=cast.alice_entry)
    assert unread(cast.alice_entry)
    event = AccessEvent.objects.get(client=cast.alice)
    assert (event.actor, event.action) == (cast.tara, "viewed")


def test_another_therapists_look_is_refused_and_not_logged(cast):
    with pytest.raises(PermissionDenied):
        services.entry_record_view(actor=cast.theo, entry=cast.alice_entry)
    assert not AccessEvent.objects.exists()


def test_the_therapist_marks_what_they_saw_and_a_second_time_reads_nothing_twice(cast):
    other = EntryFactory.create(assignment=cast.alice_assignment)
    now = timezone.now()
    read = services.entries_mark_read(
        user=cast.tara, client=cast.alice, shown=as_shown(cast.alice_entry, other), now=now
    )
    assert read == {cast.alice_entry.key, other.key}
    assert Entry.objects.get(pk=other.pk).seen_at == now
    again = services.entries_mark_read(
        user=cast.tara,
        client=cast.alice,
        shown=as_shown(cast.alice_entry, other),
        now=now + dt.timedelta(minutes=1),
    )
    assert again == set()
    assert Entry.objects.get(pk=other.pk).seen_at == now  # the first read stays the first


def test_an_entry_sent_after_the_page_was_drawn_stays_unread(cast):
    shown = as_shown(cast.alice_entry)  # the page as drawn
    later = EntryFactory.create(assignment=cast.alice_assignment)  # sent a moment later
    services.entries_mark_read(user=cast.tara, client=cast.alice, shown=shown, now=timezone.now())
    assert not unread(cast.alice_entry)
    assert unread(later)


def refused_because(cast, case: str) -> tuple[User, dict[uuid.UUID, int]]:
    """The user and ``shown`` of a mark-as-read that must change nothing."""
    alice = as_shown(cast.alice_entry)
    if case == "manager":
        return cast.morgan, alice
    if case == "another therapist":
        return cast.theo, alice
    if case == "nothing chosen":
        return cast.tara, {}
    if case == "another clients entry":
        return cast.tara, {**alice, **as_shown(cast.bob_entry)}
    if case == "unknown entry":
        return cast.tara, {**alice, uuid.uuid4(): 1}
    if case == "private entry":
        private = EntryFactory.create(assignment=cast.alice_assignment, private=True)
        return cast.tara, {**alice, **as_shown(private)}
    if case == "changed since shown":
        Entry.objects.filter(pk=cast.alice_entry.pk).update(version=cast.alice_entry.version + 1)
        return cast.tara, alice
    raise AssertionError(case)


@pytest.mark.parametrize(
    ("case", "refusal", "message"),
    [
        ("manager", PermissionDenied, "own therapist"),
        ("another therapist", PermissionDenied, "not one of your clients"),
        ("nothing chosen", ValidationError, "No entries were chosen"),
        ("another clients entry", ValidationError, "not this client's"),
        ("unknown entry", ValidationError, "not this client's"),
        ("private entry", ValidationError, "private"),
        ("changed since shown", ValidationError, "changed after your page was opened"),
    ],
)
def test_a_mark_as_read_that_cannot_be_done_says_why_and_changes_nothing(
    cast, case, refusal, message
):
    user, shown = refused_because(cast, case)
    with pytest.raises(refusal, match=message):
        services.entries_mark_read(user=user, client=cast.alice, shown=shown, now=timezone.now())
    assert not Entry.objects.filter(seen_at__isnull=False).exists()


# -- comments ----------------------------------------------------------------------


def test_therapist_leaves_a_comment_which_reads_nothing(cast):
    comment = services.entry_comment_add(
        actor=cast.tara, entry=cast.alice_entry, text="  Thank you for writing this down.  "
    )
    assert (comment.text, comment.author) == ("Thank you for writing this down.", cast.tara)
    assert unread(cast.alice_entry)  # only "Mark as read" takes the client's edits away


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Write a few words first."),
        ("   \n ", "Write a few words first."),
        ("x" * 2001, "up to 2,000 characters"),
        ("a\x00b", "cannot be saved"),
    ],
)
def test_bad_comments_are_refused_with_a_message_and_nothing_saved(cast, text, message):
    with pytest.raises(ValidationError) as refused:
        services.entry_comment_add(actor=cast.tara, entry=cast.alice_entry, text=text)
    assert message in " ".join(refused.value.messages)
    assert not EntryComment.objects.exists()


def test_a_comment_of_exactly_the_limit_is_kept(cast):
    services.entry_comment_add(actor=cast.tara, entry=cast.alice_entry, text="x" * 2000)
    assert EntryComment.objects.get().text == "x" * 2000


def test_nobody_but_the_clients_therapist_comments(cast):
    with pytest.raises(PermissionDenied):
        services.entry_comment_add(actor=cast.theo, entry=cast.alice_entry, text="Hello")
    with pytest.raises(PermissionDenied):
        services.entry_comment_add(actor=cast.morgan, entry=cast.alice_entry, text="Hello")
    with pytest.raises(PermissionDenied):
        services.entry_comment_add(
            actor=cast.alice.portal_user, entry=cast.alice_entry, text="Hello"
        )
    assert not EntryComment.objects.exists()


def test_a_private_entry_takes_no_comment(cast):
    cast.alice_entry.private = True
    cast.alice_entry.save()
    with pytest.raises(ValidationError, match="private"):
        services.entry_comment_add(actor=cast.tara, entry=cast.alice_entry, text="Hello")
    assert not EntryComment.objects.exists()


def test_a_draft_takes_no_comment(cast):
    draft = EntryFactory.create(assignment=cast.alice_assignment, status="draft", submitted_at=None)
    with pytest.raises(PermissionDenied):
        services.entry_comment_add(actor=cast.tara, entry=draft, text="Hello")


# -- assigning ---------------------------------------------------------------------


def schedule(**overrides):
    today = timezone.localdate()
    return {"starts_on": today, "due_on": today + dt.timedelta(days=7), **overrides}


def test_one_exercise_for_several_clients(cast):
    other = AssignmentFactory.create(client__therapist=cast.tara).client
    exercise = ExerciseFactory.create()
    made = services.assignment_create_many(
        actor=cast.tara, clients=[cast.alice, other], exercise=exercise, **schedule()
    )
    assert {a.client for a in made} == {cast.alice, other}


def test_one_client_not_yours_and_nobody_gets_it(cast):
    exercise = ExerciseFactory.create()
    with pytest.raises(PermissionDenied):
        services.assignment_create_many(
            actor=cast.tara, clients=[cast.alice, cast.bob], exercise=exercise, **schedule()
        )
    assert not Assignment.objects.filter(exercise=exercise).exists()


def test_an_archived_client_gets_no_new_work(cast):
    cast.alice.status = "archived"
    cast.alice.save()
    exercise = ExerciseFactory.create()
    with pytest.raises(ValidationError, match="archived"):
        services.assignment_create(
            actor=cast.tara, client=cast.alice, exercise=exercise, **schedule()
        )
    assert not Assignment.objects.filter(exercise=exercise).exists()


# Dates are given as days from today; None is no date.
@pytest.mark.parametrize(
    ("details", "field", "message"),
    [
        (
            {"schedule": "weekly", "ends_on": 30, "weekdays": [7]},
            "weekdays",
            "from 0 (Monday) to 6",
        ),
        ({"schedule": "weekly", "ends_on": 30, "weekdays": ["1"]}, "weekdays", "from 0 (Monday)"),
        ({"schedule": "weekly", "ends_on": 30, "weekdays": [1, 1]}, "weekdays", "chosen once"),
        ({"schedule": "daily", "ends_on": -2}, "ends_on", "cannot end before it starts"),
        ({"schedule": "daily", "ends_on": 9, "due_on": 7}, "due_on", "leave this empty"),
        ({"schedule": "once", "due_on": 7, "weekdays": [2]}, "weekdays", "only for a weekly"),
        ({"schedule": "once", "due_on": 7, "ends_on": 9}, "ends_on", "not an end date"),
        ({"schedule": "once", "due_on": -2}, "due_on", "cannot be before the start date"),
    ],
)
def test_schedules_that_cannot_work_are_refused_on_their_field(cast, details, field, message):
    today = timezone.localdate()
    values = {"starts_on": today, "due_on": None, "ends_on": None, "weekdays": [], **details}
    for name in ("due_on", "ends_on"):
        if values[name] is not None:
            values[name] = today + dt.timedelta(days=values[name])
    exercise = ExerciseFactory.create()
    with pytest.raises(ValidationError) as refused:
        services.assignment_create(actor=cast.tara, client=cast.alice, exercise=exercise, **values)
    assert message in " ".join(refused.value.message_dict[field])
    assert not Assignment.objects.filter(exercise=exercise).exists()


def test_an_entry_made_private_after_the_page_loaded_takes_no_comment(cast):
    stale = Entry.objects.get(pk=cast.alice_entry.pk)  # as the therapist's page has it
    Entry.objects.filter(pk=stale.pk).update(private=True)  # the client, a moment later
    with pytest.raises(ValidationError, match="private"):
        services.entry_comment_add(actor=cast.tara, entry=stale, text="Hello")
    assert not EntryComment.objects.exists()
    assert Entry.objects.get(pk=stale.pk).seen_at is None
