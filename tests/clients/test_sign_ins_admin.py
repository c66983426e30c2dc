"""Sign-ins in the admin: failed and locked tries, the manager's alone,
read-only but for lifting a lock early."""

import datetime as dt
from typing import Any

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test import Client as HttpClient
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clients import lockout, services
from clients.models import SignInFailure, SignInLock
from tests.conftest import login
from tests.factories import PASSWORD
from tests.helpers import assert_read_only_in_the_admin, sign_in

FAILURES = "admin:clients_signinfailure_changelist"
LOCKS = "admin:clients_signinlock_changelist"
ELSEWHERE = "203.0.113.9"


def a_failure(username: str, *, locked: bool = False, at=None, path="/login/", ip="127.0.0.1"):
    row = AccessFailureLog.objects.create(
        username=username, ip_address=ip, user_agent="test", path_info=path, locked_out=locked
    )
    if at is not None:
        AccessFailureLog.objects.filter(pk=row.pk).update(attempt_time=at)
    return SignInFailure.objects.get(pk=row.pk)


def a_count(username: str, failures: int, *, ip="127.0.0.1", agent="test", at=None):
    row = AccessAttempt.objects.create(
        username=username,
        ip_address=ip,
        user_agent=agent,
        path_info="/login/",
        failures_since_start=failures,
    )
    if at is not None:
        AccessAttempt.objects.filter(pk=row.pk).update(attempt_time=at)
    return row


def listed(response) -> list[Any]:
    return list(response.context["cl"].result_list)


def test_a_wrong_password_and_a_locked_try_are_listed_with_their_page(cast):
    guesser = HttpClient(REMOTE_ADDR=ELSEWHERE)
    for attempt in range(lockout.ACCOUNT_FAILURES + 1):
        sign_in(guesser, "alice@example.test", f"guess {attempt}")
    guesser.post(reverse("admin:login"), {"username": "tara@example.test", "password": "no"})

    page = login(cast.morgan).get(reverse(FAILURES))
    assert page.status_code == 200
    rows = listed(page)
    assert len(rows) == lockout.ACCOUNT_FAILURES + 2
    assert rows[0].username == "tara@example.test" and not rows[0].locked_out
    assert rows[1].username == "alice@example.test" and rows[1].locked_out
    assert {row.ip_address for row in rows} == {ELSEWHERE}
    text = page.content.decode()
    assert "Admin sign-in" in text and "Portal sign-in" in text


@pytest.mark.parametrize("therapist", ["tara", "theo"])
def test_a_therapist_sees_neither_screen(cast, therapist):
    failure = a_failure("alice@example.test")
    lock = a_count("alice@example.test", lockout.ACCOUNT_FAILURES)
    http = login(getattr(cast, therapist))
    assert http.get(reverse(FAILURES)).status_code == 403
    assert http.get(reverse(LOCKS)).status_code == 403
    change = reverse("admin:clients_signinfailure_change", args=[failure.pk])
    assert http.get(change).status_code == 403
    refused = http.post(reverse(LOCKS), {"action": "lift", "_selected_action": [lock.pk]})
    assert refused.status_code == 403
    assert AccessAttempt.objects.filter(pk=lock.pk).exists()
    assert "signinfailure" not in http.get(reverse("admin:index")).content.decode()


def test_only_the_practices_own_screens_are_registered_not_axes_own():
    registered = set(admin.site._registry)
    assert {AccessAttempt, AccessFailureLog, AccessLog}.isdisjoint(registered)
    assert {SignInFailure, SignInLock} <= registered


def test_the_manager_filters_by_date_and_lock_and_searches_by_name(cast):
    then = timezone.now() - dt.timedelta(days=40)
    old = a_failure("bob@example.test", at=then)
    locked = a_failure("alice@example.test", locked=True)
    wrong = a_failure("alice@example.test")
    http = login(cast.morgan)
    assert listed(http.get(reverse(FAILURES), {"locked": "yes"})) == [locked]
    assert listed(http.get(reverse(FAILURES), {"locked": "no"})) == [wrong, old]
    assert listed(http.get(reverse(FAILURES), {"q": "bob@"})) == [old]
    day = timezone.localdate(then)
    by_day = http.get(
        reverse(FAILURES),
        {
            "attempt_time__year": day.year,
            "attempt_time__month": day.month,
            "attempt_time__day": day.day,
        },
    )
    assert listed(by_day) == [old]


def test_a_hand_made_filter_on_another_field_is_refused(cast):
    a_failure("alice@example.test")
    response = login(cast.morgan).get(reverse(FAILURES), {"user_agent__startswith": "t"})
    assert response.status_code in (302, 400)  # Django's answer to a disallowed lookup


def test_nobody_adds_changes_deletes_or_acts_on_a_failure(cast):
    failure = a_failure("alice@example.test")
    http = login(cast.morgan)
    assert_read_only_in_the_admin(http, "clients_signinfailure", failure.pk, username="x")
    failure.refresh_from_db()
    assert failure.username == "alice@example.test" and SignInFailure.objects.count() == 1


def test_the_locked_list_holds_pairs_over_the_limit_within_the_cool_off(cast):
    limit = lockout.ACCOUNT_FAILURES
    # Alice from one address, over two browsers: one pair, locked, shown once.
    a_count("alice@example.test", limit - 3, agent="phone")
    newest = a_count("alice@example.test", 3, agent="laptop")
    a_count("bob@example.test", limit - 1)  # under the limit
    a_count("tara@example.test", limit, at=timezone.now() - lockout.COOL_OFF * 2)  # ended
    a_count("alice@example.test", limit - 1, ip=ELSEWHERE)  # another address: its own count
    response = login(cast.morgan).get(reverse(LOCKS))
    assert response.status_code == 200
    assert [row.pk for row in listed(response)] == [newest.pk]
    assert listed(response)[0].pair_failures == limit


def test_the_manager_lifts_a_lock_and_the_right_password_then_signs_in(cast, caplog):
    guesser = HttpClient()
    for attempt in range(lockout.ACCOUNT_FAILURES):
        sign_in(guesser, "alice@example.test", f"guess {attempt}")
    assert sign_in(HttpClient(), "alice@example.test").status_code == 200  # locked
    lock = SignInLock.objects.get(username="alice@example.test")
    a_count("bob@example.test", lockout.ACCOUNT_FAILURES, ip=ELSEWHERE)

    http = login(cast.morgan)
    lifted = http.post(reverse(LOCKS), {"action": "lift", "_selected_action": [lock.pk]})
    assert lifted.status_code == 302
    assert not AccessAttempt.objects.filter(username="alice@example.test").exists()
    assert AccessAttempt.objects.filter(username="bob@example.test").exists()  # not chosen
    said = [r.getMessage() for r in caplog.records if r.name == "clients.services.sign_ins"]
    assert said == [
        f"Sign-in lock {lock.pk} lifted early by user {cast.morgan.pk} (1 rows cleared)."
    ]
    assert "alice" not in said[0] and lock.ip_address not in said[0]
    assert sign_in(HttpClient(), "alice@example.test", PASSWORD).status_code == 302
    # Sent again (a double click, a stale tab): the lock has gone, nothing else is touched.
    again = http.post(
        reverse(LOCKS), {"action": "lift", "_selected_action": [lock.pk]}, follow=True
    )
    assert "already ended" in again.content.decode()
    assert AccessAttempt.objects.filter(username="bob@example.test").exists()


def test_a_lift_with_an_id_that_is_no_number_changes_nothing(cast):
    lock = a_count("alice@example.test", lockout.ACCOUNT_FAILURES)
    http = login(cast.morgan)
    http.post(reverse(LOCKS), {"action": "lift", "_selected_action": [lock.pk, "1 OR 1=1"]})
    assert AccessAttempt.objects.filter(pk=lock.pk).exists()


def test_only_the_manager_may_lift_through_the_service(cast):
    lock = SignInLock.objects.get(pk=a_count("alice@example.test", lockout.ACCOUNT_FAILURES).pk)
    with pytest.raises(PermissionDenied):
        services.sign_in_lock_lift(actor=cast.tara, lock=lock)
    assert AccessAttempt.objects.filter(pk=lock.pk).exists()


def count_queries(http, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = http.get(url)
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_both_lists_cost_the_same_queries_for_one_row_and_for_fifty(cast):
    http = login(cast.morgan)
    a_failure("someone-0@example.test")
    a_count("someone-0@example.test", lockout.ACCOUNT_FAILURES)
    http.get(reverse(FAILURES))  # warm: the session, content types
    one = (count_queries(http, reverse(FAILURES)), count_queries(http, reverse(LOCKS)))
    for number in range(1, 50):
        a_failure(f"someone-{number}@example.test", locked=bool(number % 2))
        a_count(f"someone-{number}@example.test", lockout.ACCOUNT_FAILURES)
    assert SignInFailure.objects.count() == 50
    assert len(listed(http.get(reverse(LOCKS)))) == 50
    assert (count_queries(http, reverse(FAILURES)), count_queries(http, reverse(LOCKS))) == one
