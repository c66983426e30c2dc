"""The therapist's writes: reading marks entries seen, comments, several clients at once."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from clients.models import AccessEvent
from homework import services
from homework.models import Assignment, Entry, EntryComment
from tests.factories import AssignmentFactory, EntryFactory, ExerciseFactory

# -- reading marks an entry seen ---------------------------------------------------


def test_the_therapists_first_read_marks_the_entry_seen_and_is_logged(cast):
    entry = services.entry_mark_seen(actor=cast.tara, entry=cast.alice_entry)
    assert entry.seen_at is not None
    first = Entry.objects.get(pk=entry.pk).seen_at
    services.entry_mark_seen(actor=cast.tara, entry=Entry.objects.get(pk=entry.pk))
    assert Entry.objects.get(pk=entry.pk).seen_at == first  # the first read stays the first
    event = AccessEvent.objects.get(client=cast.alice)
    assert (event.actor, event.action) == (cast.tara, "viewed")  # a reload is logged once


def test_a_managers_look_is_logged_but_does_not_fix_the_entry(cast):
    services.entry_mark_seen(actor=cast.morgan, entry=cast.alice_entry)
    assert Entry.objects.get(pk=cast.alice_entry.pk).seen_at is None
    assert AccessEvent.objects.filter(client=cast.alice, actor=cast.morgan).exists()


def test_a_private_entry_is_never_marked_seen(cast):
    cast.alice_entry.private = True
    cast.alice_entry.save()
    services.entry_mark_seen(actor=cast.tara, entry=cast.alice_entry)
    assert Entry.objects.get(pk=cast.alice_entry.pk).seen_at is None


def test_another_therapist_cannot_mark_an_entry(cast):
    with pytest.raises(PermissionDenied):
        services.entry_mark_seen(actor=cast.theo, entry=cast.alice_entry)
    assert Entry.objects.get(pk=cast.alice_entry.pk).seen_at is None
    assert not AccessEvent.objects.exists()


def test_opening_since_last_session_marks_the_windows_shared_entries(cast):
    now = timezone.now()
    a = cast.alice_assignment
    before = EntryFactory.create(assignment=a, submitted_at=now - dt.timedelta(days=9))
    private = EntryFactory.create(assignment=a, private=True, submitted_at=now)
    newly = services.entries_mark_seen(
        actor=cast.tara, client=cast.alice, after=now - dt.timedelta(days=7), until=now
    )
    assert newly == {cast.alice_entry.pk}
    assert Entry.objects.get(pk=cast.alice_entry.pk).seen_at is not None
    assert Entry.objects.get(pk=before.pk).seen_at is None
    assert Entry.objects.get(pk=private.pk).seen_at is None
    again = services.entries_mark_seen(
        actor=cast.tara, client=cast.alice, after=now - dt.timedelta(days=7), until=now
    )
    assert again == set()


def test_since_last_session_of_someone_elses_client_is_refused(cast):
    with pytest.raises(PermissionDenied):
        services.entries_mark_seen(
            actor=cast.theo,
            client=cast.alice,
            after=timezone.now() - dt.timedelta(days=7),
            until=timezone.now(),
        )
    assert Entry.objects.get(pk=cast.alice_entry.pk).seen_at is None


# -- comments ----------------------------------------------------------------------


def test_therapist_leaves_a_comment_and_has_thereby_read_the_entry(cast):
    comment = services.entry_comment_add(
        actor=cast.tara, entry=cast.alice_entry, text="  Thank you for writing this down.  "
    )
    assert (comment.text, comment.author) == ("Thank you for writing this down.", cast.tara)
    assert Entry.objects.get(pk=cast.alice_entry.pk).seen_at is not None


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
        ({"schedule": "weekly", "ends_on": 30}, "weekdays", "at least one day"),
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
    services.entry_mark_seen(actor=cast.tara, entry=stale)
    assert not EntryComment.objects.exists()
    assert Entry.objects.get(pk=stale.pk).seen_at is None
