"""The browser tests' teardown waits for the live server's last request (see conftest)."""

import threading
import time

import pytest

from tests.browser.conftest import ServerRequests


def test_waits_for_a_request_still_running():
    requests = ServerRequests()
    requests.started()
    order: list[str] = []

    def finish() -> None:
        order.append("request finished")
        requests.finished()

    ends = threading.Timer(0.2, finish)
    ends.start()
    requests.wait_until_quiet()
    order.append("teardown went on")
    ends.join()
    assert order == ["request finished", "teardown went on"]


def test_a_quiet_server_is_not_waited_for(monkeypatch):
    def no_waiting(seconds: float) -> None:
        pytest.fail("waited on a server with nothing running")

    monkeypatch.setattr(time, "sleep", no_waiting)
    ServerRequests().wait_until_quiet()
