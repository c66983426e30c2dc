"""Background work that runs in the request (no REDIS_URL: tasks are eager; or
the queue is down and the work is done here) tries once. Retries belong to a
worker, which waits between them without holding anyone; in the request
Celery would run all of them at once, each waiting EMAIL_TIMEOUT on a mail
server that takes the connection and never answers, while the person who
clicked waits (a client's send: nine tries; a reset: eight)."""

import logging
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from celery.exceptions import Retry
from django.test import Client as HttpClient
from django.urls import reverse

from homework import selectors
from homework import services as homework_services
from homework import tasks as homework_tasks
from homework.models import Entry
from practice.celery import app as celery_app
from tests.conftest import login
from tests.factories import written_record
from tests.listener import SilentMailServer
from tests.notices import mark_every_notice_sent, therapist_told


@pytest.fixture
def silent_mail_server(settings) -> Iterator[SilentMailServer]:
    server = SilentMailServer()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = server.host, server.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 1  # each try waits this long; the count is what is pinned
    yield server
    server.close()


def reset_task():
    from clients.tasks import send_password_reset

    return send_password_reset


def send_a_record(cast, django_capture_on_commit_callbacks):
    http = login(cast.alice.portal_user)
    url = reverse("homework:do", args=[cast.alice_assignment.pk])
    key = http.get(url).context["envelope"].initial["key"]
    words = {f"r-{name}": value for name, value in written_record().items()}
    with django_capture_on_commit_callbacks(execute=True):
        sent = http.post(url, {"key": str(key), "version": "0", **words})
    return sent, Entry.objects.get(key=key)


def ask_for_a_reset(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        return HttpClient().post(reverse("clients:password_reset"), {"email": "alice@example.test"})


def test_a_send_waits_for_one_try_at_the_mail_server_when_tasks_run_in_the_request(
    cast, silent_mail_server, django_capture_on_commit_callbacks, caplog
):
    with caplog.at_level(logging.WARNING):
        sent, entry = send_a_record(cast, django_capture_on_commit_callbacks)
    assert sent.status_code == 302  # sent, and told so
    assert silent_mail_server.connections == 1
    assert entry.is_submitted and not therapist_told(entry)
    # Not lost: still waiting for the sweep, which tells the therapist once.
    assert entry.pk in selectors.pending_notification_ids()
    [failure] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "notify_therapist_of_submission" in failure.getMessage()
    assert "not retried" in failure.getMessage()


def test_a_reset_waits_for_one_try_at_the_mail_server_when_tasks_run_in_the_request(
    cast, silent_mail_server, django_capture_on_commit_callbacks, caplog
):
    with caplog.at_level(logging.WARNING):
        asked = ask_for_a_reset(django_capture_on_commit_callbacks)
    assert asked.status_code == 302
    assert silent_mail_server.connections == 1
    [failure] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "send_password_reset" in failure.getMessage()


def test_a_reset_asked_for_while_the_queue_is_down_tries_the_mail_server_once(
    cast, silent_mail_server, queue_down, django_capture_on_commit_callbacks, caplog
):
    with caplog.at_level(logging.WARNING):
        asked = ask_for_a_reset(django_capture_on_commit_callbacks)
    assert asked.status_code == 302
    assert silent_mail_server.connections == 1
    assert any(r.levelno >= logging.ERROR for r in caplog.records)


def test_a_send_while_the_queue_is_down_leaves_the_email_to_the_sweep(
    cast, silent_mail_server, queue_down, django_capture_on_commit_callbacks, caplog
):
    with caplog.at_level(logging.WARNING):
        sent, entry = send_a_record(cast, django_capture_on_commit_callbacks)
    assert sent.status_code == 302
    assert silent_mail_server.connections == 0  # not sent from the request at all
    assert entry.pk in selectors.pending_notification_ids()
    [failure] = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "sweep" in failure.getMessage()


def notify_with_the_mail_server_down(monkeypatch, cast):
    def down(**kwargs):
        raise OSError("the mail server went away")

    monkeypatch.setattr(homework_services, "entry_notify_therapist", down)
    return homework_tasks.notify_therapist_of_submission, cast.alice_entry.pk


def reset_with_the_mail_server_down(monkeypatch, cast):
    from clients import services as client_services

    def down(*, user_id):
        raise client_services.EmailNotSent(user_id)

    monkeypatch.setattr(client_services, "user_send_password_reset", down)
    return reset_task(), cast.alice.portal_user.pk


@pytest.mark.parametrize(
    "failing", [notify_with_the_mail_server_down, reset_with_the_mail_server_down]
)
def test_a_worker_still_retries_a_mail_server_failure(cast, monkeypatch, failing):
    """The rule is for the request only: on a worker the retry is queued, with its delay."""
    proxy, arg = failing(monkeypatch, cast)
    task = proxy._get_current_object()
    queued: list[object] = []
    monkeypatch.setattr(type(task), "apply_async", lambda self, *a, **kw: queued.append(kw))
    task.push_request(id=str(uuid.uuid4()), retries=0, is_eager=False, called_directly=False)
    try:
        with pytest.raises(Retry):
            task.run(arg)
    finally:
        task.pop_request()
    assert len(queued) == 1


@pytest.fixture
def eager_failures_not_propagated() -> Iterator[None]:
    previous = celery_app.conf.task_eager_propagates
    celery_app.conf.update(CELERY_TASK_EAGER_PROPAGATES=False)
    yield
    celery_app.conf.update(CELERY_TASK_EAGER_PROPAGATES=previous)


def test_a_task_run_in_the_request_tries_once_whatever_celery_is_set_to_propagate(
    cast, silent_mail_server, eager_failures_not_propagated
):
    """Left to itself, Celery runs an eager task's retries one after another
    when it does not propagate failures: nine tries, nine EMAIL_TIMEOUTs."""
    entry = cast.alice_entry
    ran = homework_tasks.notify_therapist_of_submission.apply(args=(entry.pk,))
    assert ran.failed()
    assert silent_mail_server.connections == 1
    assert entry.pk in selectors.pending_notification_ids()


# -- a message run twice (a worker restarted mid-task: acks_late redelivers it) --------


def test_a_reset_message_run_twice_emails_once(cast, mailoutbox):
    """The token is made when the email is sent, so a replay an hour later
    (Redis's visibility timeout) would mail a fresh, working link the person
    never asked for, perhaps after they had already reset their password."""
    task, message_id = reset_task(), str(uuid.uuid4())
    assert task.apply(args=(cast.alice.portal_user.pk,), task_id=message_id).get()
    assert task.apply(args=(cast.alice.portal_user.pk,), task_id=message_id).get() is False
    assert len(mailoutbox) == 1
    # A new request is a new message: it is sent.
    assert task.apply(args=(cast.alice.portal_user.pk,)).get()
    assert len(mailoutbox) == 2


def test_a_reset_that_failed_is_still_sent_by_its_retry(cast, mailoutbox, monkeypatch):
    """A retry keeps the message's id: only a send that went counts as done."""
    from smtplib import SMTPServerDisconnected

    from django.core.mail import EmailMultiAlternatives

    from clients.services import EmailNotSent

    task, message_id = reset_task(), str(uuid.uuid4())
    real_send = EmailMultiAlternatives.send

    def refused(self, *args, **kwargs):
        raise SMTPServerDisconnected("the mail server went away")

    monkeypatch.setattr(EmailMultiAlternatives, "send", refused)
    with pytest.raises(EmailNotSent):
        task.apply(args=(cast.alice.portal_user.pk,), task_id=message_id, throw=True)
    monkeypatch.setattr(EmailMultiAlternatives, "send", real_send)
    assert task.apply(args=(cast.alice.portal_user.pk,), task_id=message_id).get()
    assert len(mailoutbox) == 1


def test_a_notification_message_run_twice_emails_the_therapist_once(cast, mailoutbox):
    task, message_id = homework_tasks.notify_therapist_of_submission, str(uuid.uuid4())
    assert task.apply(args=(cast.alice_entry.pk,), task_id=message_id).get()
    assert task.apply(args=(cast.alice_entry.pk,), task_id=message_id).get() is False
    assert len(mailoutbox) == 1


# -- the sweep is the retry --------------------------------------------------------


def test_the_sweeps_messages_try_once_each_on_a_worker(cast, monkeypatch):
    """Every five minutes the sweep asks again for each entry whose therapist
    has not been told. Had each of its messages retried eight times more,
    a mail server that takes connections and never answers would have kept
    the worker busy with ten-second waits faster than it could get through
    them (seven entries waiting were enough on two processes), and the
    evening's summaries behind them."""
    proxy: Any = homework_tasks.notify_therapist_of_submission
    task = proxy._get_current_object()
    sent: list[tuple[tuple[int, ...], dict[str, object]]] = []
    monkeypatch.setattr(
        type(task), "apply_async", lambda self, args=None, kwargs=None, **o: sent.append((args, o))
    )
    assert homework_tasks.notify_pending_submissions() >= 1
    [(args, options)] = [(a, o) for a, o in sent if a == (cast.alice_entry.pk,)]

    def mail_server_down(**kwargs):
        raise OSError("the mail server went away")

    monkeypatch.setattr(homework_services, "entry_notify_therapist", mail_server_down)
    # As a worker runs the message: its retries count comes with it.
    before = len(sent)
    task.push_request(
        id=str(uuid.uuid4()),
        retries=options.get("retries", 0),
        is_eager=False,
        called_directly=False,
    )
    try:
        with pytest.raises(OSError, match="went away"):
            task.run(*args)
    finally:
        task.pop_request()
    assert len(sent) == before  # no retry queued behind it: the next sweep is the retry


# -- no worker at all (no REDIS_URL): no beat runs the sweeps ---------------------------


def waiting_notifications(cast, count: int) -> list[int]:
    """Entries whose email failed once earlier, in a request, and wait."""
    from tests.factories import EntryFactory

    mark_every_notice_sent()
    return [
        EntryFactory.create(assignment=cast.alice_assignment, therapist_notice__attempts=1).pk
        for _ in range(count)
    ]


def test_without_a_worker_a_send_that_goes_also_sends_a_few_waiting_ones(
    cast, django_capture_on_commit_callbacks, mailoutbox
):
    from practice import delivery
    from tests.factories import EntryFactory

    waiting = waiting_notifications(cast, delivery.CATCH_UP_IN_REQUEST + 1)
    # Never tried: another request's, on its way; left to it.
    in_flight = EntryFactory.create(assignment=cast.alice_assignment)
    sent, entry = send_a_record(cast, django_capture_on_commit_callbacks)
    assert sent.status_code == 302
    assert therapist_told(entry)
    # Its own, and a few of those waiting: bounded, so the person is not held long.
    assert len(mailoutbox) == 1 + delivery.CATCH_UP_IN_REQUEST
    assert selectors.pending_notification_ids() == [in_flight.pk, *waiting[-1:]]
    # Once in a while, not on every request: the next send is just its own.
    send_a_record(cast, django_capture_on_commit_callbacks)
    assert len(mailoutbox) == 2 + delivery.CATCH_UP_IN_REQUEST
    assert selectors.pending_notification_ids() == [in_flight.pk, *waiting[-1:]]


def test_without_a_worker_an_invitation_waiting_is_sent_by_a_later_send(
    cast, django_capture_on_commit_callbacks, mailoutbox, monkeypatch
):
    from clients import selectors as client_selectors
    from clients import services as client_services
    from clients.services import discreet_email, invitations
    from tests.factories import ClientFactory

    waiting_notifications(cast, 0)
    newcomer = ClientFactory.create(
        therapist=cast.tara, portal_user=None, contact_email="casey@example.test"
    )
    real_send = discreet_email.send_discreet_email_or_raise

    def down(**kwargs):
        raise OSError("the mail server went away")

    monkeypatch.setattr(invitations, "send_discreet_email_or_raise", down)
    with django_capture_on_commit_callbacks(execute=True):
        client_services.client_invite(actor=cast.tara, client=newcomer, send_email=True)
    assert len(client_selectors.invitations_awaiting_email()) == 1
    monkeypatch.setattr(invitations, "send_discreet_email_or_raise", real_send)
    send_a_record(cast, django_capture_on_commit_callbacks)
    assert client_selectors.invitations_awaiting_email() == []
    assert ["casey@example.test"] in [message.to for message in mailoutbox]


def test_without_a_worker_a_send_that_failed_catches_up_on_nothing(
    cast, silent_mail_server, django_capture_on_commit_callbacks
):
    waiting_notifications(cast, 3)
    sent, _entry = send_a_record(cast, django_capture_on_commit_callbacks)
    assert sent.status_code == 302
    assert silent_mail_server.connections == 1  # its own try only: the server is not answering


def test_without_a_worker_the_catch_up_finds_a_sweep_not_imported_yet(
    cast, django_capture_on_commit_callbacks, mailoutbox, monkeypatch, caplog
):
    """A command (seed_demo, under `make run`) sends before Celery has imported
    every app's tasks: the sweep is found by its module, not the registry."""
    import sys

    from django.conf import settings

    from practice.celery import app

    waiting = waiting_notifications(cast, 1)
    for name in settings.DELIVERY_SWEEPS:
        monkeypatch.delitem(app.tasks, name, raising=False)
        monkeypatch.delitem(sys.modules, name.rpartition(".")[0], raising=False)
    send_a_record(cast, django_capture_on_commit_callbacks)
    assert "failed" not in caplog.text
    assert selectors.pending_notification_ids() == []
    assert len(mailoutbox) == 2
    assert waiting
