"""one_entry_middleware: a form sent by one-entry.js learns where its redirect leads."""

import pytest
from django.http import HttpResponse, HttpResponseRedirect
from django.test import RequestFactory

from practice.middleware import one_entry_middleware


def redirect_with_cookie(request):
    response = HttpResponseRedirect("/home/")
    response.set_cookie("sessionid", "abc")
    return response


def test_a_redirect_asked_for_becomes_its_address_with_the_cookies_kept():
    request = RequestFactory().post("/login/", headers={"X-One-Entry": "1"})
    response = one_entry_middleware(redirect_with_cookie)(request)
    assert response.status_code == 204
    assert response["X-Location"] == "/home/"
    assert not response.has_header("Location")
    assert response.content == b""
    assert response.cookies["sessionid"].value == "abc"


@pytest.mark.parametrize(
    ("method", "headers"),
    [("post", {}), ("post", {"X-One-Entry": "yes"}), ("get", {"X-One-Entry": "1"})],
)
def test_anything_else_is_left_as_it_was(method, headers):
    request = getattr(RequestFactory(), method)("/login/", headers=headers)
    response = one_entry_middleware(redirect_with_cookie)(request)
    assert response.status_code == 302
    assert response["Location"] == "/home/"


def test_a_page_answered_is_left_as_it_was():
    request = RequestFactory().post("/login/", headers={"X-One-Entry": "1"})
    response = one_entry_middleware(lambda request: HttpResponse("errors"))(request)
    assert (response.status_code, response.content) == (200, b"errors")
