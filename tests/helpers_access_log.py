"""Looks in the access log, for the tests of its admin list, its CSV and the client's page."""

from collections.abc import Callable

from django.urls import reverse

from clients.models import AccessEvent, Client
from tests.conftest import Cast, login
from tests.factories import ClientFactory

LIST = "admin:clients_accessevent_changelist"


def a_look(client: Client, actor, action: str = AccessEvent.Action.VIEWED, *, at=None, what=""):
    event = AccessEvent.objects.create(client=client, actor=actor, action=action, what=what)
    if at is not None:
        AccessEvent.objects.filter(pk=event.pk).update(at=at)
    return event


def listed(response) -> list[AccessEvent]:
    return list(response.context["cl"].result_list)


def assert_same_queries_for_one_look_and_for_fifty(cast: Cast, count: Callable[..., int]) -> None:
    """``count(http)``: the queries of one request of the manager's, at 1 look and at 50."""
    http = login(cast.morgan)
    a_look(cast.alice, cast.tara)
    http.get(reverse(LIST))  # warm: the session, content types
    with_one = count(http)
    for number in range(49):
        client = ClientFactory.create(therapist=cast.theo, display_name=f"Client {number}")
        a_look(client, cast.theo if number % 2 else cast.morgan)
    assert AccessEvent.objects.count() == 50
    assert count(http) == with_one
