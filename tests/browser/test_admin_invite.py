"""Inviting a client in a real browser: a double click makes one link."""

import time

from django.core import mail
from playwright.sync_api import expect

from clients import services
from clients.models import Invitation
from tests.browser.helpers import sign_in
from tests.factories import PASSWORD


def test_a_double_click_on_make_the_link_makes_one_link_and_one_email(
    casey, new_context, live_server, server_requests, monkeypatch
):
    """Each click made a link and revoked the one before: the client got two
    emails, and the first one's link no longer worked. The page is the
    second request's, so the link it shows is the one that works."""
    client = casey
    invite = services.client_invite

    def slow_invite(**kwargs):
        time.sleep(0.5)  # a busy server: long enough for the second click to land
        return invite(**kwargs)

    monkeypatch.setattr(services, "client_invite", slow_invite)
    page = new_context(1280, 900).new_page()
    sign_in(page, "tara@example.test", PASSWORD, admin=True)
    page.goto(f"/admin/clients/client/{client.pk}/invite/")
    page.check("input[name=send_email]")
    box = page.locator("input[type=submit][value='Make the link']").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    posts_before = server_requests.posts
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.method))
    page.mouse.click(x, y)
    page.mouse.click(x, y, delay=150)  # the same button, a moment later
    link = page.locator("#invite-link")
    expect(link).to_be_visible()
    server_requests.wait_until_posts_handled(posts_before + sent.count("POST"))
    assert Invitation.objects.filter(client=client).count() == 1
    assert len(mail.outbox) == 1
    assert link.input_value() in mail.outbox[0].body
