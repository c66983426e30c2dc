"""Getting in and getting out: sign-in, reset, two-step, idle and absolute limits."""

import re
import time

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client as HttpClient
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients.middleware import LAST_SEEN, STARTED_AT
from tests.conftest import login
from tests.factories import PASSWORD
from tests.helpers import current_code, form_token, request_reset, sign_in, turn_on_two_step
from tests.helpers_entries import quick_exit_with_draft

CLINICAL_WORDS = ("therap", "homework", "abuse", "exercise", "session", "clinic", "counsel")


def visible_text(html: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


def test_unknown_email_and_wrong_password_get_the_same_answer(cast):
    unknown = sign_in(HttpClient(), "nobody@example.test", "wrong password")
    wrong = sign_in(HttpClient(), "alice@example.test", "wrong password")
    assert unknown.status_code == wrong.status_code == 200
    assert visible_text(unknown.text).replace("nobody@", "X@") == visible_text(wrong.text).replace(
        "alice@", "X@"
    )


def test_client_signs_in_to_the_dashboard(cast):
    http = HttpClient()
    response = sign_in(http, "alice@example.test")
    assert response.status_code == 302 and response["Location"] == reverse("homework:dashboard")
    assert http.session[STARTED_AT] and http.session[LAST_SEEN]


def test_an_address_typed_with_capitals_still_signs_in(cast):
    # A phone's keyboard capitalises the first letter; a stray space is easy too.
    response = sign_in(HttpClient(), " Alice@Example.TEST ")
    assert response.status_code == 302 and response["Location"] == reverse("homework:dashboard")


def test_addresses_are_kept_in_lower_case(cast):
    from django.db import IntegrityError, transaction

    from practice.models import User

    user = User(email=" Tara.New@Example.TEST", role=User.Role.THERAPIST)
    user.clean()  # what every model form does
    assert user.email == "tara.new@example.test"
    assert User.objects.create_user("Sam@Example.TEST").email == "sam@example.test"
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.filter(pk=cast.tara.pk).update(email="Tara@example.test")


def test_password_reset_answers_the_same_and_emails_only_real_accounts(
    cast, django_capture_on_commit_callbacks
):
    http = HttpClient()
    with django_capture_on_commit_callbacks(execute=True):
        known = http.post(reverse("clients:password_reset"), {"email": "alice@example.test"})
        unknown = http.post(reverse("clients:password_reset"), {"email": "nobody@example.test"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == reverse("clients:password_reset_sent")
    [message] = mail.outbox
    assert message.to == ["alice@example.test"]
    everything = f"{message.subject} {message.body}".lower()
    assert not [word for word in CLINICAL_WORDS if word in everything]


def test_a_reset_the_mail_server_refused_in_the_request_is_tried_once_and_the_page_says_ask_again(
    cast, django_capture_on_commit_callbacks, monkeypatch
):
    """No worker (no REDIS_URL): the reset is sent from the request, once; a
    retry there would keep the person waiting. The page that follows is the
    one anyone gets, and it says what to do if nothing comes."""
    from smtplib import SMTPServerDisconnected

    attempts: list[int] = []

    def refused(self, *args, **kwargs):
        attempts.append(1)
        raise SMTPServerDisconnected("the mail server went away")

    monkeypatch.setattr(EmailMultiAlternatives, "send", refused)
    with django_capture_on_commit_callbacks(execute=True):
        asked = HttpClient().post(
            reverse("clients:password_reset"), {"email": "alice@example.test"}
        )
    assert len(attempts) == 1
    page = HttpClient().get(asked["Location"])
    assert "ask for a new link" in page.text
    assert reverse("clients:password_reset") in page.text


def test_a_reset_email_goes_even_when_the_task_queue_is_down(
    cast, django_capture_on_commit_callbacks, queue_down, caplog
):
    """No sweep looks for a reset asked for once: when the queue cannot take
    it, it is sent from the request itself."""
    with django_capture_on_commit_callbacks(execute=True):
        sent = HttpClient().post(reverse("clients:password_reset"), {"email": "alice@example.test"})
    assert sent.status_code == 302
    assert "running it here, once" in caplog.text
    [message] = mail.outbox
    assert message.to == ["alice@example.test"]


def test_reset_link_sets_a_new_password_and_ends_other_sessions(
    cast, django_capture_on_commit_callbacks
):
    other_device = login(cast.alice.portal_user)
    request_reset("alice@example.test", django_capture_on_commit_callbacks)
    link = re.search(r"http://\S+/password/reset/\S+/", str(mail.outbox[0].body))
    assert link is not None
    http = HttpClient()
    form_page = http.get(link.group(0).split("127.0.0.1:8000", 1)[-1], follow=True)
    assert "Choose a new password" in form_page.text
    # The token has left the address: Django moves it into the session.
    assert "set-password" in form_page.redirect_chain[-1][0]
    done = http.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "a calm new morning", "new_password2": "a calm new morning"},
    )
    assert done.status_code == 302
    assert sign_in(HttpClient(), "alice@example.test", "a calm new morning").status_code == 302
    assert other_device.get(reverse("homework:dashboard")).status_code == 302


def test_the_reset_email_and_pages_say_how_long_the_practice_lets_a_link_work(
    cast, django_capture_on_commit_callbacks, settings
):
    """PASSWORD_RESET_TIMEOUT is the practice's choice; the words said "two
    hours" whatever it was, so a client trusting them met a dead link."""
    settings.PASSWORD_RESET_TIMEOUT = 60 * 60
    request_reset("alice@example.test", django_capture_on_commit_callbacks)
    [message] = mail.outbox
    assert isinstance(message, EmailMultiAlternatives)
    pages = [
        HttpClient().get(reverse("clients:password_reset_sent")).text,
        HttpClient().get(reverse("clients:password_reset_confirm", args=["Mw", "x-y"])).text,
    ]
    for text in (message.body, str(message.alternatives[0][0]), *pages):
        words = text.replace("\N{NO-BREAK SPACE}", " ").replace("&nbsp;", " ")
        assert "1 hour" in words, text
        assert "two hours" not in words and "2 hours" not in words
    settings.PASSWORD_RESET_TIMEOUT = 90 * 60
    page = HttpClient().get(reverse("clients:password_reset_sent")).text
    assert "1&nbsp;hour, 30&nbsp;minutes" in page or "1\N{NO-BREAK SPACE}hour, 30" in page


def test_reset_with_mismatched_passwords_names_the_field(cast, django_capture_on_commit_callbacks):
    request_reset("alice@example.test", django_capture_on_commit_callbacks)
    found = re.search(r"(/password/reset/\S+/)", str(mail.outbox[0].body))
    assert found is not None
    path = found.group(1)
    http = HttpClient()
    page = http.get(path, follow=True)
    response = http.post(
        page.redirect_chain[-1][0],
        {"new_password1": "a calm new morning", "new_password2": "a different one"},
    )
    assert response.status_code == 200
    assert 'id="id_new_password2_error"' in response.text
    cast.alice.portal_user.refresh_from_db()
    assert cast.alice.portal_user.check_password(PASSWORD)


# -- two-step sign-in ----------------------------------------------------------------


def test_client_turns_on_two_step_with_a_qr_code(cast):
    http = login(cast.alice.portal_user)
    started = http.post(reverse("clients:two_step_setup"), {"start": "1"})
    assert started.status_code == 200
    assert "<svg" in started.text and 'role="img"' in started.text
    assert "alice@example.test" not in started.text.split("<svg", 1)[1].split("</svg>", 1)[0]
    device = TOTPDevice.objects.get(user=cast.alice.portal_user)
    wrong = http.post(reverse("clients:two_step_setup"), {"token": "000000"})
    assert wrong.status_code == 400 and "did not match" in wrong.text
    assert not TOTPDevice.objects.get(pk=device.pk).confirmed
    right = http.post(reverse("clients:two_step_setup"), {"token": current_code(device)})
    assert right.status_code == 200 and 'id="recovery-codes"' in right.text
    assert TOTPDevice.objects.get(pk=device.pk).confirmed


def picture_on(page: str) -> str:
    found = re.search(r'name="device" value="([^"]+)"', page)
    assert found, "the set-up form names no picture"
    return found[1]


def test_a_picture_replaced_in_another_tab_says_so(cast):
    """Set-up started in two tabs: the second made a new picture, and the
    first one's is no longer the one. A code from the app that scanned the
    first picture is not "a code that did not match, try the newest" (it
    would never match): the page says the picture was replaced and shows
    the one that counts."""
    http = login(cast.alice.portal_user)
    first_tab = http.post(reverse("clients:two_step_setup"), {"start": "1"})
    scanned = TOTPDevice.objects.get(user=cast.alice.portal_user)
    http.post(reverse("clients:two_step_setup"), {"start": "1"})  # the second tab
    shown = TOTPDevice.objects.get(user=cast.alice.portal_user)
    code = {"token": current_code(scanned), "device": picture_on(first_tab.text)}
    stale = http.post(reverse("clients:two_step_setup"), code)
    assert stale.status_code == 400
    assert "did not match" not in stale.text and "replaced" in stale.text
    assert not TOTPDevice.objects.get(pk=shown.pk).confirmed
    # The page now carries the picture that counts, and its code turns it on.
    code = {"token": current_code(shown), "device": picture_on(stale.text)}
    assert http.post(reverse("clients:two_step_setup"), code).status_code == 200
    assert TOTPDevice.objects.get(pk=shown.pk).confirmed


def test_sign_in_with_two_step_asks_for_the_code(cast):
    device = turn_on_two_step(cast.alice.portal_user)
    http = HttpClient()
    first = sign_in(http, "alice@example.test")
    assert first["Location"] == reverse("clients:login_code")
    # Not signed in yet: the password alone is not enough.
    assert http.get(reverse("homework:dashboard")).status_code == 302
    wrong = http.post(reverse("clients:login_code"), {"token": "123456"})
    assert wrong.status_code == 400 and "did not match" in wrong.text
    # A code works once (replay protection) and wrong guesses slow the next try:
    # here, where no time passes, start the device afresh.
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_count=0, last_t=-1)
    device.refresh_from_db()
    right = http.post(reverse("clients:login_code"), {"token": current_code(device)})
    assert right.status_code == 302 and right["Location"] == reverse("homework:dashboard")
    assert http.get(reverse("homework:dashboard")).status_code == 200


def test_turning_two_step_off_needs_the_password(cast):
    turn_on_two_step(cast.alice.portal_user)
    http = login(cast.alice.portal_user)
    refused = http.post(reverse("clients:two_step_remove"), {"password": "not it"})
    assert refused.status_code == 400 and "not right" in refused.text
    assert TOTPDevice.objects.filter(user=cast.alice.portal_user).exists()
    http.post(reverse("clients:two_step_remove"), {"password": PASSWORD})
    assert not TOTPDevice.objects.filter(user=cast.alice.portal_user).exists()


def test_two_step_cannot_be_moved_to_another_app_without_the_password(cast):
    """A borrowed, unlocked screen must not swap the client's app for its own."""
    mine = turn_on_two_step(cast.alice.portal_user)
    http = login(cast.alice.portal_user)
    started = http.post(reverse("clients:two_step_setup"), {"start": "1"}, follow=True)
    assert "Two-step sign-in is already on" in started.text
    assert list(TOTPDevice.objects.filter(user=cast.alice.portal_user)) == [mine]
    # Even a device begun some other way is not confirmed over the client's own.
    other = TOTPDevice.objects.create(user=cast.alice.portal_user, name="x", confirmed=False)
    confirmed = http.post(reverse("clients:two_step_setup"), {"token": current_code(other)})
    assert confirmed.status_code == 400
    assert TOTPDevice.objects.get(pk=mine.pk).confirmed
    assert not TOTPDevice.objects.get(pk=other.pk).confirmed


# -- ending sessions -----------------------------------------------------------------


def age_session(http: HttpClient, *, idle: float = 0, started: float = 0) -> None:
    session = http.session
    now = time.time()
    session[LAST_SEEN] = now - idle
    session[STARTED_AT] = now - started
    session.save()


def test_idle_session_ends_on_the_server(cast):
    http = login(cast.alice.portal_user)
    age_session(http, idle=16 * 60)
    response = http.get(reverse("homework:dashboard"))
    assert response.status_code == 302
    assert response["Location"] == reverse("clients:login") + "?ended=idle"
    assert "quiet while" in http.get(response["Location"]).text
    assert http.get(reverse("homework:dashboard")).status_code == 302


def test_idle_autosave_gets_json_not_a_login_page(cast):
    http = login(cast.alice.portal_user)
    age_session(http, idle=16 * 60)
    response = http.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]),
        {"key": "x"},
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 401 and response.json() == {"signed_out": True}


def test_activity_keeps_the_session_alive(cast):
    http = login(cast.alice.portal_user)
    age_session(http, idle=10 * 60)
    assert http.get(reverse("homework:dashboard")).status_code == 200
    assert time.time() - http.session[LAST_SEEN] < 5


def test_practice_sets_the_idle_timeout(cast):
    from practice.models import PracticeSettings

    PracticeSettings.objects.filter(pk=1).update(idle_timeout_minutes=30)
    http = login(cast.alice.portal_user)
    age_session(http, idle=20 * 60)
    page = http.get(reverse("homework:dashboard"))
    assert page.status_code == 200
    assert f'data-idle-seconds="{30 * 60 + 10}"' in page.text


def test_a_tab_left_open_is_signed_out_when_its_screen_clears(cast):
    """When the page's idle timer runs out it moves to the sign-in page. That
    request must find the session over: were it still running, the request
    would count as activity and renew it, and a tab left open on a shared
    device would never sign out."""
    http = login(cast.alice.portal_user)
    page = http.get(reverse("homework:dashboard"))  # the page's last word with the server
    clears_after = int(re.search(r'data-idle-seconds="(\d+)"', page.text)[1])  # type: ignore[index]
    age_session(http, idle=clears_after)
    cleared = http.get(reverse("clients:login") + "?ended=idle", follow=True)
    assert "signed out after a quiet while" in cleared.text
    assert http.get(reverse("homework:history")).status_code == 302


def test_even_a_busy_session_ends_after_the_absolute_limit(cast, settings):
    http = login(cast.alice.portal_user)
    age_session(http, started=settings.PORTAL_SESSION_MAX_AGE + 1)
    response = http.get(reverse("homework:dashboard"))
    assert response["Location"].endswith("?ended=limit")


def test_staff_are_not_timed_out_by_the_portal(cast):
    http = login(cast.tara)
    age_session(http, idle=16 * 60)
    assert http.get(reverse("admin:index")).status_code == 200


def test_stay_signed_in_resets_the_idle_clock(cast):
    http = login(cast.alice.portal_user)
    age_session(http, idle=14 * 60)
    assert http.post(reverse("clients:stay_signed_in")).status_code == 204
    assert time.time() - http.session[LAST_SEEN] < 5


def test_log_out_everywhere_ends_every_session(cast):
    phone, laptop = HttpClient(), HttpClient()
    sign_in(phone, "alice@example.test")
    sign_in(laptop, "alice@example.test")
    response = laptop.post(reverse("clients:log_out_everywhere"))
    assert response["Location"].endswith("?ended=everywhere")
    assert "cookies" in response["Clear-Site-Data"]
    assert phone.get(reverse("homework:dashboard")).status_code == 302
    assert laptop.get(reverse("homework:dashboard")).status_code == 302
    assert (
        sign_in(HttpClient(), "alice@example.test").status_code == 302
    )  # the password still works


def test_logout_clears_site_data(cast):
    response = login(cast.alice.portal_user).post(reverse("clients:logout"))
    assert '"storage"' in response["Clear-Site-Data"]


def test_the_sign_out_address_followed_or_typed_signs_out_too(cast):
    """A GET used to answer an empty 405 and leave the client signed in."""
    http = login(cast.alice.portal_user)
    response = http.get(reverse("clients:logout"))
    assert response.status_code == 302
    assert response["Location"] == reverse("clients:login")
    assert '"storage"' in response["Clear-Site-Data"]
    assert http.get(reverse("homework:dashboard")).status_code == 302


@pytest.mark.parametrize(
    "name", ["clients:account", "homework:dashboard", "homework:history", "homework:export_json"]
)
def test_signed_in_pages_are_never_cached(cast, name):
    assert "no-store" in login(cast.alice.portal_user).get(reverse(name))["Cache-Control"]


def test_exit_note_promises_no_more_than_the_practice_set(cast):
    """The practice chooses where the quick exit goes: the note cannot say "a weather page"."""
    from practice.models import PracticeSettings
    from practice.selectors import forget_practice_settings

    PracticeSettings.objects.filter(pk=1).update(quick_exit_url="https://news.example.test/")
    forget_practice_settings()
    page = login(cast.alice.portal_user).get(reverse("homework:dashboard")).text
    note = page.split('id="exit-note"')[1].split("</aside>")[0]
    assert "weather" not in note.lower()
    assert "neutral website" in note
    forget_practice_settings()


def test_exit_note_shows_until_dismissed_and_is_remembered_on_the_server(cast):
    http = login(cast.alice.portal_user)
    assert 'id="exit-note"' in http.get(reverse("homework:dashboard")).text
    dismissed = http.post(reverse("clients:dismiss_exit_note"), HTTP_ACCEPT="application/json")
    assert dismissed.status_code == 204
    assert not dismissed.cookies or "exit" not in str(dismissed.cookies)
    cast.alice.portal_user.refresh_from_db()
    assert cast.alice.portal_user.exit_note_dismissed_at is not None
    # Another device: still dismissed, because the server remembers it.
    assert (
        'id="exit-note"'
        not in login(cast.alice.portal_user).get(reverse("homework:dashboard")).text
    )


@pytest.fixture
def stale_page(cast):
    """A portal tab left open while the client signed out and in again in another
    tab: signing in gives a new security token, so the open tab's is stale."""
    http = HttpClient(enforce_csrf_checks=True)

    def sign_in_with_token() -> None:
        token = form_token(http.get(reverse("clients:login")).text)
        response = http.post(
            reverse("clients:login"),
            {"username": "alice@example.test", "password": PASSWORD, "csrfmiddlewaretoken": token},
        )
        assert response.status_code == 302

    sign_in_with_token()
    stale = form_token(http.get(reverse("homework:dashboard")).text)
    http.post(reverse("clients:logout"), {"csrfmiddlewaretoken": stale})
    sign_in_with_token()
    return http, stale


@pytest.mark.parametrize("sent", [{"beacon": "1"}, {}])
def test_the_quick_exit_ends_the_session_even_from_a_page_with_a_stale_token(stale_page, sent):
    """Leaving is never refused: a 403 here left the client signed in on a
    shared device while the screen had already gone to the neutral site."""
    http, stale = stale_page
    response = http.post(reverse("homework:quick_exit"), {"csrfmiddlewaretoken": stale, **sent})
    assert response.status_code in {204, 302}
    assert '"cookies"' in response["Clear-Site-Data"]
    assert http.get(reverse("homework:dashboard")).status_code == 302


def test_a_quick_exit_with_a_stale_token_is_not_logged_as_refused(stale_page, caplog):
    """The token is only asked about (may the last words be kept?): nothing
    is refused, so no "Forbidden" lands in the security log, and no refusal
    page is drawn, whose form would set a fresh token cookie on the way out."""
    import logging

    http, stale = stale_page
    caplog.set_level(logging.WARNING, logger="django.security.csrf")
    response = http.post(reverse("homework:quick_exit"), {"csrfmiddlewaretoken": stale})
    assert response.status_code == 302
    assert [record.getMessage() for record in caplog.records] == []
    assert "csrftoken" not in response.cookies


def test_sign_out_works_even_from_a_page_with_a_stale_token(stale_page):
    http, stale = stale_page
    response = http.post(reverse("clients:logout"), {"csrfmiddlewaretoken": stale})
    assert response.status_code == 302
    assert http.get(reverse("homework:dashboard")).status_code == 302


def test_a_quick_exit_without_the_pages_token_keeps_no_draft(cast):
    """Another site can send the client away (as a link to the exit can), but
    it cannot write into their notebook on the way."""
    import uuid

    from homework.models import Entry

    http = HttpClient(enforce_csrf_checks=True)
    http.force_login(cast.alice.portal_user)
    key = str(uuid.uuid4())
    response = quick_exit_with_draft(http, cast.alice_assignment, key, "written by someone else")
    assert response.status_code == 204
    assert not Entry.objects.filter(key=key).exists()
    assert http.get(reverse("homework:dashboard")).status_code == 302


def test_a_quick_exit_with_the_pages_token_keeps_the_last_words(cast):
    """The check above, the other way: the page's own token lets its last
    words through (the other quick-exit tests skip the token check)."""
    import uuid

    from homework.models import Entry

    http = HttpClient(enforce_csrf_checks=True)
    http.force_login(cast.alice.portal_user)
    token = form_token(http.get(reverse("homework:dashboard")).text)
    key = str(uuid.uuid4())
    response = http.post(
        reverse("homework:quick_exit"),
        {
            "csrfmiddlewaretoken": token,
            "beacon": "1",
            "draft-assignment": str(cast.alice_assignment.pk),
            "draft-key": key,
            "draft-version": "0",
            "draft-r-what_happened": "my last words",
        },
    )
    assert response.status_code == 204
    assert Entry.objects.get(key=key).response == {"what_happened": "my last words"}


@pytest.mark.parametrize("own_token", [True, False])
def test_a_sign_out_carrying_a_pages_words_keeps_them_before_it_ends_the_session(cast, own_token):
    """When the page's own save is late (quick-exit.js, after 5 s), the sign-out
    carries its words: kept first, with the page's token only, and signed out
    either way."""
    import uuid

    from homework.models import Entry

    http = HttpClient(enforce_csrf_checks=True)
    http.force_login(cast.alice.portal_user)
    token = form_token(http.get(reverse("homework:dashboard")).text) if own_token else "x" * 64
    key = str(uuid.uuid4())
    response = http.post(
        reverse("clients:logout"),
        {
            "csrfmiddlewaretoken": token,
            "draft-assignment": str(cast.alice_assignment.pk),
            "draft-key": key,
            "draft-version": "0",
            "draft-r-what_happened": "my last words",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("clients:login")
    assert http.get(reverse("homework:dashboard")).status_code == 302
    kept = Entry.objects.filter(key=key).first()
    assert (kept.response if kept else None) == (
        {"what_happened": "my last words"} if own_token else None
    )


@pytest.mark.parametrize(
    ("referer", "back_to"),
    [
        ("http://testserver/account/", "/account/"),
        ("https://elsewhere.example/account/", "/"),
        (None, "/"),
    ],
)
def test_a_form_sent_after_the_session_ended_returns_to_its_page_after_sign_in(
    cast, referer, back_to
):
    """Signing in again after a form was sent with an ended session led to the
    form's post-only address, which answered the returning visit with "not
    allowed": it now leads back to the page the form was on (or home)."""
    http = HttpClient()
    headers = {"HTTP_REFERER": referer} if referer else {}
    sent = http.post(reverse("clients:change_password"), {}, **headers)
    assert sent.status_code == 302 and sent["Location"] == reverse("clients:login")
    assert sign_in(http, "alice@example.test")["Location"] == back_to


def test_a_page_asked_for_after_the_session_ended_returns_to_itself(cast):
    http = HttpClient()
    asked = http.get(reverse("clients:account"))
    assert asked["Location"] == reverse("clients:login")
    # A mistyped password first loses nothing.
    assert sign_in(http, "alice@example.test", "wrong password").status_code == 200
    assert sign_in(http, "alice@example.test")["Location"] == reverse("clients:account")


def test_the_sign_in_address_never_names_the_page_asked_for(cast):
    """After the quick exit or signing out, Back opens the page the client was
    on; signed out, it leads to the sign-in page, whose address said
    "?next=/history/": what they had just been reading, for whoever holds the
    device. The page to return to waits on the server, with the session."""
    http = HttpClient()
    asked = http.get(reverse("homework:history"), {"page": "2"})
    assert asked["Location"] == reverse("clients:login")
    page = http.get(asked["Location"])
    assert "/history/" not in page.text
    assert (
        sign_in(http, "alice@example.test")["Location"] == f"{reverse('homework:history')}?page=2"
    )


def test_a_scripts_request_while_signed_out_is_not_where_signing_in_leads(cast):
    """send-guard.js checks the session before a change is sent; signed out,
    that check is not a page the client was going to, and signing in again
    in another tab must land at home, not on the page that asked."""
    http = HttpClient()
    checked = http.get(reverse("clients:account"), HTTP_SEC_FETCH_MODE="cors")
    assert checked["Location"] == reverse("clients:login")
    assert sign_in(http, "alice@example.test")["Location"] == reverse("homework:dashboard")


def test_the_page_asked_for_waits_through_the_two_step_code(cast):
    device = turn_on_two_step(cast.alice.portal_user)
    http = HttpClient()
    http.get(reverse("homework:history"))
    assert sign_in(http, "alice@example.test")["Location"] == reverse("clients:login_code")
    # The code that turned two-step on is spent: start the device afresh.
    TOTPDevice.objects.filter(pk=device.pk).update(last_t=-1)
    device.refresh_from_db()
    right = http.post(reverse("clients:login_code"), {"token": current_code(device)})
    assert right["Location"] == reverse("homework:history")


def test_a_next_given_in_the_address_is_still_followed(cast):
    http = HttpClient()
    signed_in = http.post(
        f"{reverse('clients:login')}?next={reverse('clients:account')}",
        {"username": "alice@example.test", "password": PASSWORD},
    )
    assert signed_in["Location"] == reverse("clients:account")


@pytest.mark.parametrize("too_much", ["too_big", "too_many_fields"])
def test_a_quick_exit_the_server_cannot_read_still_ends_the_session(cast, settings, too_much):
    """A last draft too big for the server to read (or with too many fields)
    answered "could not read what it was sent" and left the client signed
    in, while the screen had already gone to the neutral site. Leaving is
    never refused: the draft is dropped, the session still ends."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 20
    http = login(cast.alice.portal_user)
    draft = {
        "too_big": {"draft-r-what_happened": "x" * 2_000},
        "too_many_fields": {f"draft-r-field{i}": "x" for i in range(30)},
    }[too_much]
    response = http.post(
        reverse("homework:quick_exit"),
        {"beacon": "1", "draft-assignment": str(cast.alice_assignment.pk), **draft},
    )
    # Unread, the post cannot say it came from the script: the answer is the
    # plain button's redirect, which the script's request meets as a failure
    # and follows with a sign-out without the draft (static/js/quick-exit.js).
    assert response.status_code in {204, 302}
    assert '"cookies"' in response["Clear-Site-Data"]
    assert http.get(reverse("homework:dashboard")).status_code == 302


def test_the_portals_notes_to_the_client_are_not_kept_in_a_cookie(cast):
    """A note shown after a redirect ("Now shared: …") rode
    to the next page in a cookie, where anyone holding the device could read
    it in the browser's settings: it waits on the server, with the session."""
    from homework.models import Entry

    Entry.objects.filter(pk=cast.alice_entry.pk).update(status="submitted")
    http = login(cast.alice.portal_user)
    response = http.post(
        reverse("homework:entry_privacy", args=[cast.alice_entry.key]), {"private": "0"}
    )
    assert response.status_code == 302
    assert "messages" not in response.cookies
    assert (
        "Now shared: your therapist and the practice manager" in http.get(response["Location"]).text
    )
