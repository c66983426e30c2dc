"""Session times stay within a few years of today.

"Since last session" and the summary start from the previous session: a
session typed as 1900 would have them cover a century, round the summary's
own limit on chosen dates.
"""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from clients import services
from clients.models import SESSION_AHEAD_DAYS, SESSION_BEHIND_DAYS, Session
from tests.conftest import login, save_change_form
from tests.factories import SessionFactory
from tests.helpers import session_data


def _post_session(cast, when: dt.datetime, **row):
    local = timezone.localtime(when)
    return save_change_form(
        login(cast.tara),
        reverse("admin:clients_client_change", args=[cast.alice.pk]),
        session_data(
            [
                {
                    "client": str(cast.alice.pk),
                    "starts_at_0": local.strftime("%d/%m/%Y"),
                    "starts_at_1": "10:30:00",
                    **row,
                }
            ],
            initial=1 if "id" in row else 0,
        ),
    )


def _session_errors(response):
    return response.context["inline_admin_formsets"][0].formset.errors


def test_a_session_in_1900_is_refused_on_its_field(cast):
    response = _post_session(cast, timezone.make_aware(dt.datetime(1900, 1, 1, 10, 30)))
    assert response.status_code == 200
    assert "starts_at" in _session_errors(response)[0]
    assert not Session.objects.filter(client=cast.alice).exists()


def test_a_session_decades_ahead_is_refused_on_its_field(cast):
    response = _post_session(cast, timezone.now() + dt.timedelta(days=SESSION_AHEAD_DAYS + 2))
    assert response.status_code == 200
    assert "starts_at" in _session_errors(response)[0]
    assert not Session.objects.filter(client=cast.alice).exists()


def test_last_months_session_can_still_be_recorded(cast):
    response = _post_session(cast, timezone.now() - dt.timedelta(days=30))
    assert response.status_code == 302
    assert Session.objects.filter(client=cast.alice).count() == 1


def test_the_service_refuses_a_session_long_ago(cast):
    with pytest.raises(ValidationError) as refused:
        services.session_schedule(
            actor=cast.tara,
            client=cast.alice,
            starts_at=timezone.now() - dt.timedelta(days=SESSION_BEHIND_DAYS + 2),
        )
    assert "starts_at" in refused.value.message_dict
    assert not Session.objects.filter(client=cast.alice).exists()


def test_the_service_refuses_to_move_a_session_to_1900(cast):
    session = SessionFactory.create(client=cast.alice)
    with pytest.raises(ValidationError):
        services.session_reschedule(
            actor=cast.tara,
            session=session,
            starts_at=timezone.make_aware(dt.datetime(1900, 1, 1, 10, 30)),
        )


def test_an_old_session_does_not_stop_the_client_page_saving(cast):
    """Years of real sessions stay on the page; saving it again must still work."""
    old = SessionFactory.create(
        client=cast.alice,
        starts_at=(timezone.now() - dt.timedelta(days=SESSION_BEHIND_DAYS + 100)).replace(
            second=0, microsecond=0
        ),
    )
    local = timezone.localtime(old.starts_at)
    response = _post_session(
        cast, old.starts_at, id=str(old.pk), starts_at_1=local.strftime("%H:%M:%S")
    )
    assert response.status_code == 302, _session_errors(response)


# -- the nights the clocks change (Europe/London, 2026: forward 29 March, back 25 October)


def test_a_session_at_a_time_the_clocks_skip_gets_a_plain_message(cast, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 3, 20, 12, tzinfo=dt.UTC))
    response = _post_session(
        cast, dt.datetime(2026, 3, 29, 12, tzinfo=dt.UTC), starts_at_1="01:30:00"
    )
    assert response.status_code == 200
    [message] = _session_errors(response)[0]["starts_at"]
    assert message == (
        "The clocks go forward that night, so 01:30 does not happen. "
        "Please choose a time before or after it."
    )
    assert not Session.objects.filter(client=cast.alice).exists()


def test_a_session_at_a_time_the_clock_shows_twice_is_the_first_of_the_two(cast, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 10, 20, 12, tzinfo=dt.UTC))
    response = _post_session(
        cast, dt.datetime(2026, 10, 25, 12, tzinfo=dt.UTC), starts_at_1="01:30:00"
    )
    assert response.status_code == 302
    session = Session.objects.get(client=cast.alice)
    # 01:30 in summer time, which reads back as 01:30.
    assert session.starts_at == dt.datetime(2026, 10, 25, 0, 30, tzinfo=dt.UTC)


# -- half a date and time


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"starts_at_1": ""}, "Enter a time as well as a date."),
        ({"starts_at_0": ""}, "Enter a date as well as a time."),
    ],
)
def test_a_session_with_half_its_date_and_time_says_which_half_is_missing(cast, row, message):
    """A date with no time said only "This field is required.", under a date that was there."""
    response = _post_session(cast, timezone.now() + dt.timedelta(days=7), **row)
    assert response.status_code == 200
    assert _session_errors(response)[0]["starts_at"] == [message]
    assert not Session.objects.filter(client=cast.alice).exists()
