import uuid

import pytest
from django.core import mail
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError

from clients.models import Client
from homework import services
from homework.kinds import ResponseInvalid
from homework.models import Assignment, Entry, OutboxMessage
from homework.services import EntryConflict, Flags, PageSave
from tests.factories import AssignmentFactory, EntryFactory, ExerciseFactory, written_record
from tests.helpers_entries import submit_written_record
from tests.notices import notice_of, therapist_told


def draft(cast, *, key, version, text="so far", user=None, assignment=None, page_save=None):
    return services.entry_save_draft(
        user=user or cast.alice.portal_user,
        assignment_id=(assignment or cast.alice_assignment).pk,
        key=key,
        base_version=version,
        data={"what_happened": text},
        flags=Flags(),
        page_save=page_save,
    )


def submit(cast, *, key, version, user=None, assignment=None, **overrides):
    return services.entry_submit(
        user=user or cast.alice.portal_user,
        assignment_id=(assignment or cast.alice_assignment).pk,
        key=key,
        base_version=version,
        data=written_record(**overrides),
        flags=Flags(discuss_in_session=True),
    )


def test_first_draft_creates_the_entry_and_later_saves_bump_the_version(cast):
    key = uuid.uuid4()
    entry = draft(cast, key=key, version=0)
    assert (entry.status, entry.version, entry.response) == (
        "draft",
        1,
        {"what_happened": "so far"},
    )
    entry = draft(cast, key=key, version=1, text="so far, and more")
    assert entry.version == 2
    assert Entry.objects.get(key=key).response["what_happened"] == "so far, and more"


def test_stale_draft_is_refused_and_nothing_is_overwritten(cast):
    key = uuid.uuid4()
    draft(cast, key=key, version=0, text="first tab")
    draft(cast, key=key, version=1, text="second tab")
    with pytest.raises(EntryConflict) as caught:
        draft(cast, key=key, version=1, text="first tab, stale")
    assert caught.value.entry.response["what_happened"] == "second tab"
    assert Entry.objects.get(key=key).response["what_happened"] == "second tab"


def test_version_from_the_future_is_a_conflict(cast):
    key = uuid.uuid4()
    draft(cast, key=key, version=0)
    with pytest.raises(EntryConflict):
        draft(cast, key=key, version=99)


def test_submit_is_idempotent_for_a_double_click_or_replay(
    cast, django_capture_on_commit_callbacks
):
    key = uuid.uuid4()
    before = Entry.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        first = submit(cast, key=key, version=0)
        again = submit(cast, key=key, version=0)
    assert first.pk == again.pk
    assert Entry.objects.count() == before + 1
    assert first.status == "submitted" and first.discuss_in_session
    assert len(mail.outbox) == 1


def test_submit_continues_the_draft(cast):
    key = uuid.uuid4()
    draft(cast, key=key, version=0)
    entry = submit(cast, key=key, version=1)
    assert entry.version == 2
    assert entry.response["body_distress"] == 7


def test_invalid_submit_changes_nothing(cast):
    key = uuid.uuid4()
    draft(cast, key=key, version=0, text="keep me")
    with pytest.raises(ResponseInvalid):
        submit(cast, key=key, version=1, body_distress="11")
    entry = Entry.objects.get(key=key)
    assert (entry.status, entry.version, entry.response) == (
        "draft",
        1,
        {"what_happened": "keep me"},
    )


def test_client_cannot_write_to_another_clients_assignment(cast):
    with pytest.raises(ObjectDoesNotExist):
        draft(cast, key=uuid.uuid4(), version=0, assignment=cast.bob_assignment)
    with pytest.raises(ObjectDoesNotExist):
        submit(cast, key=uuid.uuid4(), version=0, assignment=cast.bob_assignment)


def test_client_cannot_reuse_another_clients_entry_key(cast):
    with pytest.raises(Entry.DoesNotExist):
        draft(cast, key=cast.bob_entry.key, version=1)
    assert Entry.objects.get(pk=cast.bob_entry.pk).response == cast.bob_entry.response


def test_sent_entry_is_not_a_draft_any_more(cast):
    with pytest.raises(EntryConflict):
        draft(cast, key=cast.alice_entry.key, version=cast.alice_entry.version)


def test_private_entry_does_not_notify_the_therapist(cast, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        entry = submit_written_record(cast.alice_assignment, private=True)
    assert mail.outbox == []
    assert not entry.outbox_messages.exists()  # nothing waits to be sent either


def test_sharing_a_private_entry_writes_its_notice_once_and_sends_it(
    cast, django_capture_on_commit_callbacks
):
    entry = EntryFactory.create(assignment=cast.alice_assignment, private=True)
    user = cast.alice.portal_user
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_set_private(user=user, key=entry.key, private=False)
    assert notice_of(entry).state == OutboxMessage.State.SENT
    assert [message.to for message in mail.outbox] == [[cast.tara.email]]
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_set_private(user=user, key=entry.key, private=True)
        services.entry_set_private(user=user, key=entry.key, private=False)
    assert entry.outbox_messages.count() == 1 and len(mail.outbox) == 1


def test_notification_is_discreet_and_sent_once(cast):
    assert services.entry_notify_therapist(entry_id=cast.alice_entry.pk) is True
    assert services.entry_notify_therapist(entry_id=cast.alice_entry.pk) is False
    [message] = mail.outbox
    text = f"{message.subject} {message.body}".lower()
    assert message.to == [cast.tara.email]
    for word in (
        "alice",
        "homework",
        "therapy",
        "abuse",
        cast.alice_assignment.exercise.title.lower(),
    ):
        assert word not in text


def test_notification_text_body_prints_the_therapists_name_as_written(cast):
    cast.tara.name = "O'Brien-Jones Siân"
    cast.tara.save(update_fields=["name"])
    services.entry_notify_therapist(entry_id=cast.alice_entry.pk)
    [message] = mail.outbox
    # Plain text is not HTML: an apostrophe is not "&#x27;".
    assert message.body.startswith("Hello O'Brien-Jones,")


def test_notification_keeps_a_right_to_left_name_apart_from_the_greeting(cast):
    """An Arabic first name before the comma: isolated, as plain text in the
    text body (Unicode's isolates) and as HTML in the other (practice.bidi)."""
    cast.tara.name = "سارة أحمد"
    cast.tara.save(update_fields=["name"])
    services.entry_notify_therapist(entry_id=cast.alice_entry.pk)
    [message] = mail.outbox
    assert isinstance(message, mail.EmailMultiAlternatives)
    assert message.body.startswith("Hello \u2068سارة\u2069,")
    [(html, _type)] = message.alternatives
    assert str(html).startswith('<p>Hello <bdi dir="rtl">سارة</bdi>,</p>')


def test_broker_outage_never_fails_a_save(
    cast, django_capture_on_commit_callbacks, monkeypatch, queue_down, caplog
):
    from homework import tasks
    from practice.celery import app as celery_app

    with django_capture_on_commit_callbacks(execute=True):
        entry = submit(cast, key=uuid.uuid4(), version=0)
    assert Entry.objects.get(pk=entry.pk).is_submitted
    assert not therapist_told(entry)
    assert "the sweep will retry" in caplog.text
    # Redis back: the sweep finds it and sends it.
    monkeypatch.undo()
    celery_app.conf.update(CELERY_TASK_ALWAYS_EAGER=True)
    assert tasks.notify_pending_submissions() >= 1
    assert therapist_told(entry)


def test_therapist_cannot_assign_to_another_therapists_client(cast):
    with pytest.raises(PermissionDenied):
        services.assignment_create(
            actor=cast.theo,
            client=cast.alice,
            exercise=ExerciseFactory.create(),
            starts_on=cast.alice_assignment.starts_on,
        )


def test_due_date_before_start_is_refused(cast):
    with pytest.raises(ValidationError):
        services.assignment_create(
            actor=cast.tara,
            client=cast.alice,
            exercise=ExerciseFactory.create(),
            starts_on=cast.alice_assignment.starts_on,
            due_on=cast.alice_assignment.starts_on.replace(year=2000),
        )


def test_manager_may_assign_to_any_client(cast):
    assignment = services.assignment_create(
        actor=cast.morgan,
        client=cast.bob,
        exercise=ExerciseFactory.create(),
        starts_on=cast.bob_assignment.starts_on,
    )
    assert assignment.created_by == cast.morgan


@pytest.mark.parametrize(
    ("status", "refusal"),
    [("erased", PermissionDenied), ("archived", ValidationError)],
)
def test_an_assign_that_waited_on_an_erasure_or_archiving_makes_nothing(
    cast, monkeypatch, status, refusal
):
    """The client changes after the service's first checks, as when it
    queued on the erasure's lock on the client's row."""
    real_clean = Assignment.full_clean

    def clean_then_changed(self, *args, **kwargs):
        real_clean(self, *args, **kwargs)
        Client.objects.filter(pk=cast.alice.pk).update(status=status)

    monkeypatch.setattr(Assignment, "full_clean", clean_then_changed)
    before = Assignment.objects.filter(client=cast.alice).count()
    with pytest.raises(refusal):
        services.assignment_create(
            actor=cast.tara,
            client=cast.alice,
            exercise=ExerciseFactory.create(),
            starts_on=cast.alice_assignment.starts_on,
        )
    assert Assignment.objects.filter(client=cast.alice).count() == before


def test_assigning_the_same_work_again_at_once_returns_the_first(cast):
    exercise = ExerciseFactory.create()
    details = {
        "client": cast.alice,
        "exercise": exercise,
        "starts_on": cast.alice_assignment.starts_on,
        "schedule": "weekly",
        "weekdays": [3, 0],
        "ends_on": cast.alice_assignment.due_on,
    }
    first = services.assignment_create(actor=cast.tara, **details)
    again = services.assignment_create(actor=cast.tara, **{**details, "weekdays": [0, 3]})
    assert again.pk == first.pk
    # Other days, or another person's choice, is new work.
    other_days = services.assignment_create(actor=cast.tara, **{**details, "weekdays": [1]})
    by_manager = services.assignment_create(actor=cast.morgan, **details)
    assert len({first.pk, other_days.pk, by_manager.pk}) == 3


def test_assignment_never_moves_to_another_client(cast):
    with pytest.raises(PermissionDenied):
        services.assignment_update(
            actor=cast.morgan, assignment=cast.alice_assignment, client=cast.bob
        )
    assert (
        AssignmentFactory._meta.model.objects.get(pk=cast.alice_assignment.pk).client == cast.alice
    )


def test_an_entry_is_shared_when_sent_or_when_the_client_shares_it_later(cast):
    from django.db import IntegrityError, transaction

    shared = submit(cast, key=uuid.uuid4(), version=0)
    assert shared.shared_at == shared.submitted_at
    kept = submit_written_record(cast.alice_assignment, private=True)
    assert kept.shared_at is None
    later = services.entry_set_private(user=cast.alice.portal_user, key=kept.key, private=False)
    assert later.shared_at is not None and later.submitted_at is not None
    assert later.shared_at > later.submitted_at
    # A shared entry with no time it was shared would be in no window: refused.
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.filter(pk=shared.pk).update(shared_at=None)


def test_a_second_tab_sending_other_words_under_the_same_key_is_a_conflict(cast):
    """Two tabs hold one draft; one sends. The other's words are not dropped
    behind a "Sent": they come back as a conflict, with both versions."""
    key = uuid.uuid4()
    draft(cast, key=key, version=0)
    sent = submit(cast, key=key, version=1, what_happened="Sent from the phone.")
    assert submit(cast, key=key, version=1, what_happened="Sent from the phone.").pk == sent.pk
    with pytest.raises(EntryConflict):
        submit(cast, key=key, version=1, what_happened="Typed on the laptop meanwhile.")
    sent.refresh_from_db()
    assert sent.response["what_happened"] == "Sent from the phone."


def test_a_draft_holds_whatever_sending_would_take(cast):
    """Every long field at its limit, in characters of four bytes each (320
    KB): the draft saves, as sending would (no cap of its own on the whole)."""
    words = "🌿" * 20_000  # the long-text limit
    fields = (
        "what_happened",
        "what_was_said_or_done",
        "what_i_told_myself",
        "remember_when_i_miss_them",
    )
    saved = services.entry_save_draft(
        user=cast.alice.portal_user,
        assignment_id=cast.alice_assignment.pk,
        key=uuid.uuid4(),
        base_version=0,
        data=dict.fromkeys(fields, words),
        flags=Flags(),
    )
    assert all(saved.response[field] == words for field in fields)


def test_a_line_break_counts_as_one_character_as_the_browser_counted_it(cast):
    typed = ("line\r\n" * 4000)[:-2]  # 20,000 characters as typed, CRLF posted
    assert len(typed.replace("\r\n", "\n")) <= 20_000 < len(typed)
    key = uuid.uuid4()
    saved = draft(cast, key=key, version=0, text=typed)
    assert saved.response["what_happened"] == typed.replace("\r\n", "\n")
    sent = submit(cast, key=key, version=1, what_happened=typed)
    assert sent.is_submitted and "\r" not in sent.response["what_happened"]


def test_a_save_sent_again_after_its_reply_was_lost_is_not_a_conflict(cast):
    key = uuid.uuid4()
    draft(cast, key=key, version=0, text="typed")
    saved = draft(cast, key=key, version=1, text="typed, and more")
    again = draft(cast, key=key, version=1, text="typed, and more")  # the retry
    assert again.version == saved.version == 2
    with pytest.raises(EntryConflict):  # other words from the old version still are
        draft(cast, key=key, version=1, text="typed, and something else")


def test_a_second_tabs_first_save_meets_the_first_tabs_draft_not_a_hidden_second(cast):
    first = draft(cast, key=uuid.uuid4(), version=0, text="tab A")
    with pytest.raises(EntryConflict) as caught:
        draft(cast, key=uuid.uuid4(), version=0, text="tab B")
    assert caught.value.entry.pk == first.pk
    assert Entry.objects.filter(status=Entry.Status.DRAFT).count() == 1
    # "Keep mine" replaces the other draft, under its key.
    kept = draft(cast, key=first.key, version=first.version, text="tab B")
    assert kept.response["what_happened"] == "tab B"


def test_a_second_tabs_last_words_are_kept_beside_the_first_tabs_draft_not_over_it(cast):
    """A page leaving in a hurry (the quick exit, "Sign out") while its
    conflict box waits for a choice cannot ask: its words become a draft of
    their own, and the other tab's, which nobody chose against, stays."""
    first = draft(cast, key=uuid.uuid4(), version=0, text="tab A")
    last = services.entry_save_draft(
        user=cast.alice.portal_user,
        assignment_id=cast.alice_assignment.pk,
        key=uuid.uuid4(),
        base_version=0,
        data={"what_happened": "tab B, typed on"},
        flags=Flags(),
        leaving=True,
    )
    drafts = Entry.objects.filter(assignment=cast.alice_assignment, status=Entry.Status.DRAFT)
    assert sorted(d.response["what_happened"] for d in drafts) == ["tab A", "tab B, typed on"]
    assert Entry.objects.get(pk=first.pk).version == first.version
    assert last.status == Entry.Status.DRAFT
    with pytest.raises(EntryConflict):  # over the other tab's draft, still a conflict
        services.entry_save_draft(
            user=cast.alice.portal_user,
            assignment_id=cast.alice_assignment.pk,
            key=first.key,
            base_version=0,
            data={"what_happened": "over it"},
            flags=Flags(),
            leaving=True,
        )
    assert Entry.objects.get(pk=first.pk).response["what_happened"] == "tab A"


def test_a_draft_keeps_answers_to_questions_removed_while_it_was_open(cast):
    from tests.factories import options_for

    exercise = ExerciseFactory.create(kind="worksheet", options=options_for("worksheet"))
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    asked = [question["key"] for question in exercise.options["questions"]]
    key = uuid.uuid4()
    services.entry_save_draft(
        user=cast.alice.portal_user,
        assignment_id=assignment.pk,
        key=key,
        base_version=0,
        data={asked[0]: "first answer", asked[1]: "second answer"},
        flags=Flags(),
    )
    exercise.options = {
        **exercise.options,
        "questions": [q for q in exercise.options["questions"] if q["key"] != asked[1]],
    }
    exercise.save()
    saved = services.entry_save_draft(
        user=cast.alice.portal_user,
        assignment_id=assignment.pk,
        key=key,
        base_version=1,
        data={asked[0]: "first answer, changed"},
        flags=Flags(),
    )
    assert saved.response == {asked[0]: "first answer, changed", asked[1]: "second answer"}


# -- a page's last words, sent while its previous save is still on the way ----------

PAGE = "a1b2c3d4e5f6"


def test_a_pages_last_words_overtake_its_own_save_still_on_the_way(cast):
    key = uuid.uuid4()
    draft(cast, key=key, version=0, text="typed", page_save=PageSave(PAGE, 1))
    # The quick exit's save left before the first one's reply came: same base version.
    last = draft(cast, key=key, version=0, text="typed, and more", page_save=PageSave(PAGE, 2))
    assert last.version == 2
    assert Entry.objects.get(key=key).response["what_happened"] == "typed, and more"


def test_a_pages_earlier_save_arriving_last_changes_nothing(cast):
    key = uuid.uuid4()
    draft(cast, key=key, version=0, text="so far", page_save=PageSave(PAGE, 1))
    draft(cast, key=key, version=1, text="so far, and the last words", page_save=PageSave(PAGE, 3))
    late = draft(cast, key=key, version=1, text="so far, and", page_save=PageSave(PAGE, 2))
    assert late.version == 2
    assert Entry.objects.get(key=key).response["what_happened"] == "so far, and the last words"


def test_a_pages_first_saves_arriving_out_of_order_make_one_draft_with_the_later_words(cast):
    key = uuid.uuid4()
    draft(cast, key=key, version=0, text="the last words", page_save=PageSave(PAGE, 2))
    draft(cast, key=key, version=0, text="the first", page_save=PageSave(PAGE, 1))
    assert Entry.objects.get(key=key).response["what_happened"] == "the last words"
    drafts = Entry.objects.filter(assignment=cast.alice_assignment, status=Entry.Status.DRAFT)
    assert drafts.count() == 1


def test_another_pages_save_in_between_is_still_a_conflict(cast):
    key = uuid.uuid4()
    draft(cast, key=key, version=0, text="this page", page_save=PageSave(PAGE, 1))
    draft(cast, key=key, version=1, text="another tab", page_save=PageSave("0therpage", 1))
    with pytest.raises(EntryConflict):
        draft(cast, key=key, version=1, text="this page, later", page_save=PageSave(PAGE, 2))
    assert Entry.objects.get(key=key).response["what_happened"] == "another tab"


def test_a_save_from_no_page_in_between_is_still_a_conflict(cast):
    # E.g. a page whose script did not run: it names no page, so the claim ends with it.
    key = uuid.uuid4()
    draft(cast, key=key, version=0, text="this page", page_save=PageSave(PAGE, 1))
    draft(cast, key=key, version=1, text="from a page with no script")
    with pytest.raises(EntryConflict):
        draft(cast, key=key, version=1, text="this page, later", page_save=PageSave(PAGE, 2))
    assert Entry.objects.get(key=key).response["what_happened"] == "from a page with no script"


def test_pages_long_instructions_are_refused_by_the_service_too(cast):
    """The API and any other caller meet the admin form's rule."""
    exercise = ExerciseFactory.create()
    with pytest.raises(ValidationError) as refused:
        services.assignment_create(
            actor=cast.tara,
            client=cast.alice,
            exercise=exercise,
            starts_on=cast.alice_assignment.starts_on,
            instructions="x" * 200_000,
        )
    assert refused.value.message_dict["instructions"] == [
        "This can be up to 5,000 characters; it has 200,000. Please shorten it."
    ]
    assert not AssignmentFactory._meta.model.objects.filter(exercise=exercise).exists()
    with pytest.raises(ValidationError) as refused:
        services.assignment_update(
            actor=cast.tara, assignment=cast.alice_assignment, instructions="x" * 5001
        )
    assert "instructions" in refused.value.message_dict
    stored = AssignmentFactory._meta.model.objects.get(pk=cast.alice_assignment.pk)
    assert len(stored.instructions) < 5001


@pytest.mark.parametrize("field", ["instructions", "therapist_note"])
def test_an_exercises_pages_long_words_are_refused(cast, field):
    exercise = ExerciseFactory.build(**{field: "x" * 5001})
    with pytest.raises(ValidationError) as refused:
        services.exercise_save(actor=cast.tara, exercise=exercise)
    assert refused.value.message_dict[field] == [
        "This can be up to 5,000 characters; it has 5,001. Please shorten it."
    ]
    assert exercise.pk is None


def test_the_librarys_own_words_fit_the_limit():
    from homework.library import LIBRARY
    from homework.models.field_limits import INSTRUCTIONS_MAX_CHARS

    for exercise in LIBRARY:
        assert len(exercise["instructions"]) <= INSTRUCTIONS_MAX_CHARS
        assert len(exercise["therapist_note"]) <= INSTRUCTIONS_MAX_CHARS
