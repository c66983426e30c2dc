"""Error pages keep the portal's safety: the quick exit first, the crisis lines,
a neutral title, and no words of alarm."""

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client as HttpClient
from django.test import RequestFactory
from django.urls import reverse
from django.views.defaults import permission_denied

from clients.models import Client
from practice import views
from practice.selectors import forget_practice_settings, practice_settings
from tests.conftest import login
from tests.helpers import assert_safe_shell

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("signed_in", [False, True])
def test_a_missing_page_keeps_the_quick_exit_and_crisis_lines(cast, signed_in):
    http = login(cast.alice.portal_user if signed_in else None)
    page = http.get("/no-such-page/")
    assert page.status_code == 404
    assert_safe_shell(page.text)
    assert "<title>Not found · Notebook</title>" in page.text


def test_an_archived_client_gets_a_calm_page_with_the_exit_and_sign_out(cast):
    Client.objects.filter(pk=cast.alice.pk).update(status=Client.Status.ARCHIVED)
    page = login(cast.alice.portal_user).get(reverse("homework:dashboard"), follow=True)
    # Not a refusal: their archived client's page (tests/clients/test_archived_client.py).
    assert page.status_code == 200
    assert page.redirect_chain == [(reverse("clients:closed"), 302)]
    assert_safe_shell(page.text)
    assert "Sign out" in page.text


def test_an_expired_form_gets_a_calm_page_not_a_warning_of_hijacking(cast):
    """E.g. a form sent from a tab open since before a sign-in in another tab.
    (Sign out and the quick exit are never refused: tests/clients/test_sign_in.py.)"""
    http = HttpClient(enforce_csrf_checks=True)
    http.force_login(cast.alice.portal_user)
    page = http.post(reverse("clients:dismiss_exit_note"))
    assert page.status_code == 403
    assert_safe_shell(page.text)
    assert "This page had expired" in page.text


def test_a_server_fault_still_offers_the_exit_and_crisis_lines(cast, monkeypatch):
    request = RequestFactory().get("/")
    page = views.server_error(request)
    assert page.status_code == 500
    assert_safe_shell(page.content.decode())

    def broken():
        raise RuntimeError("the database is down")

    forget_practice_settings()
    monkeypatch.setattr(views, "practice_settings", broken)
    fallback = views.server_error(request).content.decode()
    assert 'data-exit-url="https://www.bbc.co.uk/weather"' in fallback
    assert "call your local emergency number" in fallback


def test_the_exit_address_followed_or_typed_leaves_too(cast):
    http = login(cast.alice.portal_user)
    response = http.get(reverse("homework:quick_exit"))
    assert response.status_code == 302
    assert response["Location"] == practice_settings().quick_exit_url
    assert http.get(reverse("homework:dashboard")).status_code == 302  # signed out


def test_a_therapist_refused_in_the_admin_is_told_whom_to_ask_not_their_therapist(cast):
    """The refusal page is the portal's, and told staff to "ask your
    therapist at your next session"."""
    page = login(cast.tara).get(reverse("admin:practice_user_changelist"))
    assert page.status_code == 403
    assert "ask your therapist" not in page.text
    assert "practice manager" in page.text
    assert reverse("admin:index") in page.text
    assert_safe_shell(page.text)


def test_a_client_refused_is_still_told_to_ask_their_therapist(cast):
    request = RequestFactory().get("/")
    request.user = cast.alice.portal_user
    request.session = SessionStore()
    refused = permission_denied(request, PermissionError())
    assert refused.status_code == 403
    assert "ask your therapist" in refused.content.decode()


def test_the_manager_refused_in_the_admin_is_not_told_to_ask_the_manager(cast):
    page = login(cast.morgan).get(reverse("admin:homework_entry_add"))
    assert page.status_code == 403
    assert "ask your therapist" not in page.text and "ask the practice manager" not in page.text
    assert reverse("admin:index") in page.text
