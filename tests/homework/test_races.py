"""Real races on PostgreSQL: two requests at once never lose a client's words.

Each request runs in its own thread on its own connection, as two web
processes would. The interleaving is set, not hoped for: a thread is held at
a named point in the service (an Event), or every request is made to queue
on a row lock that the test holds and lets go once PostgreSQL says they all
wait for it. Skipped on SQLite (a file lock, not row locks: nothing to race).
"""

import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from clients import services as client_services
from clients.models import Client, Invitation
from homework import selectors, services
from homework.models import Assignment, Entry, OutboxMessage
from homework.services import EntryConflict, EntryLocked, Flags, PageSave, refused_words, sending
from homework.services import drafts as draft_services
from tests.factories import written_record
from tests.helpers_workers import (
    WAIT,
    lock_assignment,
    row_locked,
    run_in_a_process_of_its_own,
    start,
    until_waiting,
)
from tests.notices import notice_of, therapist_told

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PAGE = "a1b2c3d4e5f6"


@contextmanager
def held_at(
    monkeypatch: pytest.MonkeyPatch,
    module: ModuleType,
    name: str,
    *,
    thread: str,
    after: bool = False,
) -> Iterator[threading.Event]:
    """Stop the request running in ``thread`` just before (or ``after``) it
    calls ``<name>`` as ``module`` (a module of homework.services) looks it
    up; yields the event that says it is there. Leaving the block lets it go on."""
    real = getattr(module, name)
    there, go = threading.Event(), threading.Event()

    def hold(*args: Any, **kwargs: Any) -> Any:
        held = threading.current_thread().name == thread
        result = real(*args, **kwargs) if after else None
        if held:
            there.set()
            assert go.wait(WAIT)
        return result if after else real(*args, **kwargs)

    monkeypatch.setattr(module, name, hold)
    try:
        yield there
    finally:
        go.set()


def lock_entry(entry: Entry) -> Callable[[], Any]:
    return lambda: list(Entry.objects.select_for_update().filter(pk=entry.pk))


def autosave(cast, *, key, version, text, page_save=None) -> Callable[[], Entry]:
    return lambda: services.entry_save_draft(
        user=cast.alice.portal_user,
        assignment_id=cast.alice_assignment.pk,
        key=key,
        base_version=version,
        data={"what_happened": text},
        flags=Flags(),
        page_save=page_save,
    )


def send(cast, *, key, version, **words: str) -> Callable[[], Entry]:
    return lambda: services.entry_submit(
        user=cast.alice.portal_user,
        assignment_id=cast.alice_assignment.pk,
        key=key,
        base_version=version,
        data=written_record(**words),
        flags=Flags(),
    )


def drafts(cast) -> list[Entry]:
    return list(Entry.objects.filter(assignment=cast.alice_assignment, status=Entry.Status.DRAFT))


# -- the first draft, saved twice at once ----------------------------------------------


@pytest.mark.parametrize("overtaken", ["save 1", "save 2"])
def test_a_pages_two_first_saves_overtaking_each_other_keep_the_later_words(
    cast, monkeypatch, overtaken
):
    """Both found no entry; one waits while the other makes it (the quick exit's
    last words sent while the first save was still on the way)."""
    key = uuid.uuid4()
    saves = {
        "save 1": autosave(cast, key=key, version=0, text="typed", page_save=PageSave(PAGE, 1)),
        "save 2": autosave(
            cast, key=key, version=0, text="typed, and the rest", page_save=PageSave(PAGE, 2)
        ),
    }
    other = "save 2" if overtaken == "save 1" else "save 1"
    with held_at(monkeypatch, draft_services, "_open_draft_locked", thread=overtaken) as there:
        waiting = start(overtaken, saves[overtaken])
        assert there.wait(WAIT)
        first = start(other, saves[other]).finish()
    waiting.finish()
    assert first.error is None and waiting.error is None, (first.error, waiting.error)
    [entry] = drafts(cast)
    assert entry.key == key
    assert entry.response == {"what_happened": "typed, and the rest"}


def test_a_pages_first_saves_queued_on_the_assignment_keep_the_later_words(cast):
    """Both wait on the assignment's lock, and go in whichever order PostgreSQL picks."""
    key = uuid.uuid4()
    with row_locked(lock_assignment(cast.alice_assignment)):
        saves = [
            start(
                f"save {number}",
                autosave(cast, key=key, version=0, text=words, page_save=PageSave(PAGE, number)),
            )
            for number, words in ((1, "typed"), (2, "typed, and the rest"))
        ]
        until_waiting(len(saves))
    for save in saves:
        assert save.finish().error is None, save.error
    [entry] = drafts(cast)
    assert entry.response == {"what_happened": "typed, and the rest"}


def test_two_tabs_first_saves_at_once_make_one_draft_and_show_the_other_both(cast):
    with row_locked(lock_assignment(cast.alice_assignment)):
        tabs = [
            start(
                tab,
                autosave(
                    cast,
                    key=uuid.uuid4(),
                    version=0,
                    text=f"typed in the {tab}",
                    page_save=PageSave(f"{tab}-page-id", 1),
                ),
            )
            for tab in ("phone", "laptop")
        ]
        until_waiting(len(tabs))
    for tab in tabs:
        tab.finish()
    saved = [tab for tab in tabs if tab.error is None]
    refused = [tab for tab in tabs if tab.error is not None]
    assert len(saved) == 1 and len(refused) == 1
    # The refused tab is told of the other draft (its page keeps its own words).
    assert isinstance(refused[0].error, EntryConflict)
    assert refused[0].error.entry.key == saved[0].result.key
    [entry] = drafts(cast)
    assert entry.response == {"what_happened": f"typed in the {saved[0].name}"}


# -- sending while a save is on the way -------------------------------------------------


def test_a_send_and_an_autosave_of_a_draft_at_once_lose_no_words(cast):
    key = uuid.uuid4()
    autosave(cast, key=key, version=0, text="typed", page_save=PageSave(PAGE, 1))()
    entry = Entry.objects.get(key=key)
    with row_locked(lock_entry(entry)):
        saving = start(
            "autosave",
            autosave(cast, key=key, version=1, text="typed, more", page_save=PageSave(PAGE, 2)),
        )
        sending = start("send", send(cast, key=key, version=1, what_happened="typed, more"))
        until_waiting(2)
    saving.finish(), sending.finish()
    entry.refresh_from_db()
    assert entry.response["what_happened"] == "typed, more"
    if entry.is_submitted:  # the send went first: the late autosave is told it was sent
        assert sending.error is None
        assert isinstance(saving.error, EntryConflict) and saving.error.entry.is_submitted
    else:  # the autosave went first: the send shows both versions, its words with it
        assert saving.error is None
        assert isinstance(sending.error, EntryConflict)
        assert sending.error.entry.response["what_happened"] == "typed, more"


def test_a_send_and_the_first_autosave_at_once_lose_no_words(cast):
    key = uuid.uuid4()
    with row_locked(lock_assignment(cast.alice_assignment)):
        saving = start(
            "autosave",
            autosave(cast, key=key, version=0, text="typed", page_save=PageSave(PAGE, 1)),
        )
        until_waiting(1)
        # The send waits on the key the autosave is about to insert, or inserts it first.
        sending = start("send", send(cast, key=key, version=0, what_happened="typed"))
    saving.finish(), sending.finish()
    [entry] = Entry.objects.filter(key=key)
    assert entry.response["what_happened"] == "typed"
    assert sending.error is None or isinstance(sending.error, EntryConflict)
    assert saving.error is None or isinstance(saving.error, EntryConflict)
    assert entry.is_submitted == (sending.error is None)


# -- sending twice at once -----------------------------------------------------------


@pytest.fixture
def enqueued(monkeypatch) -> list[int]:
    """The notifications asked for (the real broker is not what is tested here)."""
    from homework import tasks

    asked: list[int] = []
    monkeypatch.setattr(tasks.notify_therapist_of_submission, "delay", asked.append)
    return asked


def test_a_new_entry_sent_twice_at_once_is_sent_once_and_both_say_sent(cast, monkeypatch, enqueued):
    """A double click with the page's script absent, or a replay: the second
    request found no entry, then met the first one's as it made it."""
    key = uuid.uuid4()
    with held_at(
        monkeypatch, sending, "load_for_write", after=True, thread="second click"
    ) as there:
        second = start("second click", send(cast, key=key, version=0))
        assert there.wait(WAIT)
        first = start("first click", send(cast, key=key, version=0)).finish()
    second.finish()
    assert first.error is None, first.error
    assert second.error is None, second.error  # not "this changed elsewhere"
    assert second.result.pk == first.result.pk
    assert Entry.objects.filter(key=key).count() == 1
    assert enqueued == [first.result.pk]


def test_a_draft_sent_twice_at_once_is_sent_once_and_notified_once(cast, enqueued):
    key = uuid.uuid4()
    autosave(cast, key=key, version=0, text="typed", page_save=PageSave(PAGE, 1))()
    entry = Entry.objects.get(key=key)
    with row_locked(lock_entry(entry)):
        clicks = [start(f"click {n}", send(cast, key=key, version=1)) for n in (1, 2)]
        until_waiting(len(clicks))
    for click in clicks:
        assert click.finish().error is None, click.error
    entry.refresh_from_db()
    assert entry.is_submitted and entry.version == 2
    assert enqueued == [entry.pk]


def test_the_therapist_is_emailed_once_when_two_workers_take_the_same_task(cast, mailoutbox):
    entry = cast.alice_entry
    with row_locked(lock_entry(entry)):
        workers = [
            start(f"worker {n}", lambda: services.entry_notify_therapist(entry_id=entry.pk))
            for n in (1, 2)
        ]
        until_waiting(len(workers))
    assert sorted(worker.finish().result for worker in workers) == [False, True]
    assert len(mailoutbox) == 1


def test_a_mail_server_that_never_answers_holds_the_therapists_comment_for_seconds_only(
    cast, settings
):
    """The email to the therapist is sent under the entry's row lock (so it
    goes once). A mail server that takes the connection and never answers
    held that lock, and with it the therapist's comment and the client's
    edits, for as long as the worker lived. Now the send gives up after
    EMAIL_TIMEOUT; the entry stays unnotified for the retry and the sweep."""
    entry = cast.alice_entry
    with socket.socket() as stalled:
        stalled.bind(("127.0.0.1", 0))
        stalled.listen(4)
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = stalled.getsockname()
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        notifying = start("worker", lambda: services.entry_notify_therapist(entry_id=entry.pk))
        stalled.settimeout(WAIT)
        server_side, _ = stalled.accept()  # the worker is connected: it holds the lock
        with server_side:
            commenting = start(
                "comment",
                lambda: services.entry_comment_add(actor=cast.tara, entry=entry, text="Thank you."),
            )
            until_waiting(1)
            began = time.monotonic()
            notifying.finish(), commenting.finish()
    # Counted, then retried, then swept.
    assert isinstance(notifying.error, services.NotificationNotSent), notifying.error
    assert commenting.error is None, commenting.error
    assert time.monotonic() - began <= settings.EMAIL_TIMEOUT + 5
    notice = notice_of(entry)
    assert notice.state == OutboxMessage.State.PENDING and notice.attempts == 1
    assert entry.pk in selectors.pending_notification_ids()
    assert entry.comments.get().text == "Thank you."


# -- the therapist reading while the client changes a sent entry ----------------------------


def mark_read_as_shown(cast: Any, entry: Entry) -> Callable[[], set[uuid.UUID]]:
    """The therapist's "Mark as read", from a page that showed ``entry`` as it is now."""
    shown = {entry.key: entry.version}
    return lambda: services.entries_mark_read(
        user=cast.tara, client=cast.alice, shown=shown, now=timezone.now()
    )


def test_an_edit_and_the_therapists_mark_as_read_at_once_are_one_or_the_other(cast):
    entry = cast.alice_entry
    edit = lambda: services.entry_edit(  # noqa: E731
        user=cast.alice.portal_user,
        key=entry.key,
        base_version=entry.version,
        data=written_record(what_happened="Changed: it was louder than I said."),
        flags=Flags(),
    )
    with row_locked(lock_entry(entry)):
        editing = start("edit", edit)
        reading = start("read", mark_read_as_shown(cast, entry))
        until_waiting(2)
    editing.finish(), reading.finish()
    entry.refresh_from_db()
    if editing.error is None:  # saved first: changed since the page, so nothing is read unseen
        assert isinstance(reading.error, ValidationError), reading.error
        assert entry.seen_at is None
        assert entry.response["what_happened"] == "Changed: it was louder than I said."
    else:  # read first: refused, and the portal keeps the words in the note form
        assert isinstance(editing.error, EntryLocked)
        assert reading.error is None, reading.error
        assert entry.seen_at is not None
        assert entry.response["what_happened"] != "Changed: it was louder than I said."


def test_an_edit_arriving_as_the_therapist_marks_it_read_waits_in_the_note_form(cast, monkeypatch):
    """The portal's page found the entry unread; the mark lands before the edit's write."""
    from django.test import Client as HttpClient
    from django.urls import reverse

    entry = cast.alice_entry
    real_edit = services.entry_edit

    def read_first(**kwargs: Any) -> Entry:
        reading = start("read", mark_read_as_shown(cast, entry))
        assert reading.finish().error is None, reading.error
        return real_edit(**kwargs)

    monkeypatch.setattr(refused_words, "entry_edit", read_first)
    http = HttpClient()
    http.force_login(cast.alice.portal_user)
    words = "Changed: it was louder than I said."
    response = http.post(
        reverse("homework:entry_edit", args=[entry.key]),
        {
            "key": str(entry.key),
            "version": str(entry.version),
            **{f"r-{name}": value for name, value in written_record(what_happened=words).items()},
        },
    )
    assert response.status_code == 409
    assert words in response.context["note_form"].initial["text"]
    entry.refresh_from_db()
    assert entry.seen_at is not None and entry.response["what_happened"] != words


def test_taking_an_entry_back_as_the_therapist_marks_it_read_is_one_or_the_other(cast):
    entry = cast.alice_entry
    with row_locked(lock_entry(entry)):
        hiding = start(
            "make private",
            lambda: services.entry_set_private(
                user=cast.alice.portal_user, key=entry.key, private=True
            ),
        )
        reading = start("read", mark_read_as_shown(cast, entry))
        until_waiting(2)
    hiding.finish(), reading.finish()
    entry.refresh_from_db()
    # Never both: read words can no longer be taken back, private words are never read.
    assert not (entry.private and entry.seen_at is not None)
    if hiding.error is None:
        assert isinstance(reading.error, ValidationError), reading.error
        assert entry.private and entry.seen_at is None
    else:
        assert isinstance(hiding.error, EntryLocked)
        assert reading.error is None, reading.error
        assert not entry.private and entry.seen_at is not None


# -- Redis gone while the client saves and sends, and the therapist answers -------------


# Run in a process of its own whose REDIS_URL names a closed port (port 1
# refuses every connection): its cache and its Celery broker are both gone,
# as in production when Redis is down.
SAVE_AND_SEND = """
import json, time, uuid
import django
django.setup()
from django.test import Client
from django.urls import reverse
from practice.models import User

http = Client()
http.force_login(User.objects.get(pk={user}))
key = str(uuid.uuid4())
fields = {{"key": key, "r-what_happened": "Typed while Redis was down."}}
began = time.monotonic()
form = http.get(reverse("homework:do", args=[{assignment}]))
saved = http.post(
    reverse("homework:autosave", args=[{assignment}]), {{**fields, "version": "0"}}
)
sent = http.post(
    reverse("homework:do", args=[{assignment}]), {{**fields, **{words}, "version": "1"}}
)
# The therapist answers it, with Redis still down.
from homework.models import Entry
from tests.helpers import force_verified_login
staff = Client()
force_verified_login(staff, User.objects.get(pk={therapist}))
commented = staff.post(
    reverse("admin:homework_entry_comment", args=[Entry.objects.get(key=key).pk]),
    {{"text": "Thank you for sending this."}},
)
print(json.dumps({{
    "key": key,
    "statuses": [form.status_code, saved.status_code, sent.status_code, commented.status_code],
    "seconds": time.monotonic() - began,
}}))
"""


def save_and_send_in_a_process_of_its_own(cast, redis_url: str) -> tuple[dict[str, Any], str]:
    """Save a draft, then send it, in a new process whose REDIS_URL is ``redis_url``."""
    words = {f"r-{name}": value for name, value in written_record().items()}
    words["r-what_happened"] = "Typed while Redis was down."
    script = SAVE_AND_SEND.format(
        user=cast.alice.portal_user.pk,
        therapist=cast.tara.pk,
        assignment=cast.alice_assignment.pk,
        words=words,
    )
    outcome, stderr = run_in_a_process_of_its_own(
        script,
        env={"REDIS_URL": redis_url, "EMAIL_URL": "locmem://"},
        hung="the client's requests hung on Redis",
    )
    assert outcome["statuses"] == [200, 200, 302, 302], stderr
    return outcome, stderr


def the_words_stand_and_the_therapist_is_told_later(outcome: dict[str, Any], mailoutbox) -> None:
    entry = Entry.objects.get(key=outcome["key"])
    assert entry.is_submitted and entry.response["what_happened"] == "Typed while Redis was down."
    assert entry.comments.get().text == "Thank you for sending this."
    assert not therapist_told(entry)
    # Redis back: the sweep finds it, and the therapist is told once.
    assert entry.pk in selectors.pending_notification_ids()
    assert services.entry_notify_therapist(entry_id=entry.pk)
    assert not services.entry_notify_therapist(entry_id=entry.pk)
    assert len(mailoutbox) == 1


def test_a_save_and_a_send_with_redis_down_stand_and_the_therapist_is_told_later(cast, mailoutbox):
    outcome, log = save_and_send_in_a_process_of_its_own(cast, "redis://127.0.0.1:1/0")
    assert "the sweep will retry" in log
    the_words_stand_and_the_therapist_is_told_later(outcome, mailoutbox)


def test_a_send_with_redis_stalled_is_answered_and_the_therapist_is_told_later(cast, mailoutbox):
    """Redis takes the connection and never answers (overloaded, or a network
    path gone half dead): the send must not wait for it forever."""
    with socket.socket() as stalled:
        stalled.bind(("127.0.0.1", 0))
        stalled.listen(16)  # connections complete, and nothing ever reads them
        port = stalled.getsockname()[1]
        outcome, log = save_and_send_in_a_process_of_its_own(cast, f"redis://127.0.0.1:{port}/0")
    assert "the sweep will retry" in log
    the_words_stand_and_the_therapist_is_told_later(outcome, mailoutbox)


def test_the_same_assignment_sent_twice_at_once_is_made_once(cast):
    """A double click on the admin's Save: both requests answer with one assignment."""
    exercise = selectors.exercises_for_user(user=cast.tara).first()
    assert exercise is not None

    def assign() -> Callable[[], Assignment]:
        return lambda: services.assignment_create(
            actor=cast.tara,
            client=cast.alice,
            exercise=exercise,
            starts_on=cast.alice_assignment.starts_on,
            due_on=cast.alice_assignment.due_on,
        )

    with row_locked(lambda: list(Client.objects.select_for_update().filter(pk=cast.alice.pk))):
        clicks = [start(f"click {number}", assign()) for number in (1, 2)]
        until_waiting(len(clicks))
    for click in clicks:
        assert click.finish().error is None, click.error
    assert clicks[0].result.pk == clicks[1].result.pk
    assert Assignment.objects.filter(client=cast.alice, exercise=exercise).count() == 1


def test_two_invitations_made_at_once_leave_one_link_working(cast):
    """The therapist's two tabs (or two people) inviting one client at the
    same moment: each revoked the links it saw, neither saw the other's, and
    two links worked where only the newest may."""
    cast.bob.portal_user = None
    cast.bob.save()

    def invite() -> Callable[[], object]:
        return lambda: client_services.client_invite(actor=cast.morgan, client=cast.bob)

    with row_locked(lambda: list(Client.objects.select_for_update().filter(pk=cast.bob.pk))):
        tabs = [start(f"tab {number}", invite()) for number in (1, 2)]
        until_waiting(len(tabs))
    for tab in tabs:
        assert tab.finish().error is None, tab.error
    working = Invitation.objects.filter(client=cast.bob, used_at=None, revoked_at=None)
    assert working.count() == 1
