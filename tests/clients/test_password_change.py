"""Changing the password from inside, signed in, with no email.

Someone who hurt the client may know or guess the password, and may read
their email: the change has to work at once, from Settings, and end every
other session.
"""

import re
from functools import partial

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client as HttpClient
from django.test import RequestFactory
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients import services
from tests.factories import PASSWORD
from tests.helpers import request_reset, sign_in, turn_on_two_step

NEW = "a quiet river morning"
SIGNED_OUT = "Anyone signed in with your old password, on any device, has been signed out."


def change(http: HttpClient, old: str = PASSWORD, new: str = NEW, again: str | None = None):
    return http.post(
        reverse("clients:change_password"),
        {
            "old_password": old,
            "new_password1": new,
            "new_password2": new if again is None else again,
        },
    )


def still_the_old_password(cast) -> bool:
    user = cast.alice.portal_user
    user.refresh_from_db()
    return user.check_password(PASSWORD) and not user.check_password(NEW)


def field_error(page: str, field: str) -> str:
    found = re.search(rf'id="id_{field}_error">([^<]*)<', page)
    assert found is not None, f"no error on {field}"
    return found.group(1)


def test_settings_offers_the_change_with_the_browser_told_what_each_box_is(cast):
    page = HttpClient()
    sign_in(page, "alice@example.test")
    text = page.get(reverse("clients:account")).text
    assert "Change your password" in text
    assert re.search(r'name="old_password"[^>]*autocomplete="current-password"', text) or re.search(
        r'autocomplete="current-password"[^>]*name="old_password"', text
    )
    assert text.count('autocomplete="new-password"') == 2
    assert "autofocus" not in text  # the form is halfway down the page


def test_the_change_names_whose_password_it_is_for_the_browser(cast):
    # Without an account name in the form, Chrome logged "Password forms
    # should have (optionally hidden) username fields" on Settings, and a
    # password manager could not tell which saved login the new one replaces.
    page = HttpClient()
    sign_in(page, "alice@example.test")
    text = page.get(reverse("clients:account")).text
    start = text.index(reverse("clients:change_password"))
    form_html = text[start : text.index("</form>", start)]
    account = re.search(r'<input[^>]*autocomplete="username"[^>]*>', form_html)
    assert account is not None, form_html
    assert 'value="alice@example.test"' in account.group(0)
    assert "name=" not in account.group(0)  # shown to the browser, never posted


def test_a_change_signs_out_every_other_device_and_keeps_this_one(cast):
    phone, laptop = HttpClient(), HttpClient()
    sign_in(phone, "alice@example.test")
    sign_in(laptop, "alice@example.test")
    response = change(laptop)
    assert response.status_code == 302 and response["Location"] == reverse("clients:account")
    page = laptop.get(response["Location"])
    assert page.status_code == 200 and SIGNED_OUT in page.text
    assert laptop.get(reverse("homework:dashboard")).status_code == 200
    assert phone.get(reverse("homework:dashboard")).status_code == 302
    assert sign_in(HttpClient(), "alice@example.test", PASSWORD).status_code == 200  # refused
    assert sign_in(HttpClient(), "alice@example.test", NEW).status_code == 302


def test_a_reset_link_emailed_before_the_change_stops_working(
    cast, django_capture_on_commit_callbacks
):
    """The mailbox may be watched: a link waiting there must not undo the change."""
    request_reset("alice@example.test", django_capture_on_commit_callbacks)
    link = re.search(r"(/password/reset/\S+/)", str(mail.outbox[0].body))
    assert link is not None
    change(login_alice(cast))
    page = HttpClient().get(link.group(1), follow=True)
    assert "This link no longer works" in page.text


def login_alice(cast) -> HttpClient:
    http = HttpClient()
    sign_in(http, "alice@example.test")
    return http


def test_a_wrong_current_password_changes_nothing_and_says_so_on_the_field(cast):
    http = login_alice(cast)
    response = change(http, old="not my password")
    assert response.status_code == 400
    assert field_error(response.text, "old_password").startswith("That password is not right.")
    assert 'id="error-summary"' in response.text
    assert 'href="#id_old_password"' in response.text
    assert still_the_old_password(cast)
    assert http.get(reverse("homework:dashboard")).status_code == 200


def test_two_different_new_passwords_change_nothing(cast):
    response = change(login_alice(cast), again="a quiet river evening")
    assert response.status_code == 400
    assert "not the same" in field_error(response.text, "new_password2")
    assert still_the_old_password(cast)


@pytest.mark.parametrize(
    ("weak", "said"),
    [
        ("short1", "shorter than 8 characters"),
        ("password123", "Many people use this password"),
        ("alice@example.test", "too close to your email"),
    ],
)
def test_a_weak_new_password_is_refused_by_the_practices_rules(cast, weak, said):
    response = change(login_alice(cast), new=weak)
    assert response.status_code == 400
    assert said in field_error(response.text, "new_password2")
    cast.alice.portal_user.refresh_from_db()
    assert cast.alice.portal_user.check_password(PASSWORD)


def test_an_empty_form_asks_for_each_box_in_plain_words(cast):
    response = change(login_alice(cast), old="", new="")
    assert response.status_code == 400
    assert field_error(response.text, "old_password") == "Type the password you use now."
    assert field_error(response.text, "new_password1") == "Choose a new password."
    assert field_error(response.text, "new_password2") == "Type the new password a second time."
    assert "This field is required" not in response.text
    assert still_the_old_password(cast)


def test_a_huge_paste_is_refused_before_it_is_hashed(cast):
    huge = "x" * 1_000_000
    response = change(login_alice(cast), old=huge, new=huge)
    assert response.status_code == 400
    assert "up to 4,096 characters" in field_error(response.text, "old_password")
    assert huge not in response.text
    assert still_the_old_password(cast)


def test_no_password_typed_is_sent_back_to_the_page(cast):
    response = change(login_alice(cast), again="a quiet river evening")
    assert PASSWORD not in response.text and NEW not in response.text


def test_a_get_changes_nothing(cast):
    response = login_alice(cast).get(reverse("clients:change_password"))
    assert response.status_code == 405
    assert still_the_old_password(cast)


def test_the_same_post_sent_again_after_the_change_is_refused(cast):
    """Replayed (a back button and resend, or someone at the screen) with the
    old password: refused, and the new password stays."""
    http = login_alice(cast)
    assert change(http).status_code == 302
    again = change(http, new="someone elses choice")
    assert again.status_code == 400
    assert field_error(again.text, "old_password").startswith("That password is not right.")
    user = cast.alice.portal_user
    user.refresh_from_db()
    assert user.check_password(NEW)
    assert http.get(reverse("homework:dashboard")).status_code == 200


def test_with_two_step_on_only_the_current_password_is_asked(cast):
    """As for turning two-step off: the person is already past it."""
    turn_on_two_step(cast.alice.portal_user)
    http = HttpClient()
    http.force_login(cast.alice.portal_user)
    assert change(http).status_code == 302
    assert TOTPDevice.objects.filter(user=cast.alice.portal_user, confirmed=True).exists()


def test_staff_and_the_signed_out_cannot_use_it(cast):
    for who in (cast.tara, cast.morgan):
        http = HttpClient()
        http.force_login(who)
        response = change(http)
        assert response.status_code == 302
        who.refresh_from_db()
        assert not who.check_password(NEW)
    assert change(HttpClient()).status_code == 302
    assert still_the_old_password(cast)


def test_a_change_sent_twice_at_once_says_the_first_one_worked(cast):
    """A double click: both posts pass the form while the password is still
    the old one; the second waits for the first and finds it changed. The
    browser shows the second answer, which must not say "not right"."""
    user = cast.alice.portal_user
    request = RequestFactory().post("/")
    change_now = partial(services.user_change_password, request=request, user=user)
    change_now(old_password=PASSWORD, new_password=NEW)
    with pytest.raises(ValidationError) as second:
        change_now(old_password=PASSWORD, new_password=NEW)
    assert "the change is done" in str(second.value.message_dict["old_password"])
    with pytest.raises(ValidationError) as other:
        change_now(old_password=PASSWORD, new_password="x y z w v")
    assert second.value.message_dict != other.value.message_dict
    user.refresh_from_db()
    assert user.check_password(NEW)


def test_a_change_sent_again_after_the_first_finished_says_it_is_done(cast):
    """The double click's second post can arrive once the first has finished
    (one worker, a slow network): the form's own check of the current
    password must not answer "not right" for a password the person just
    changed from."""
    page = HttpClient()
    sign_in(page, "alice@example.test")
    assert change(page).status_code == 302
    again = change(page)
    assert again.status_code == 400
    assert "the change is done" in field_error(again.text, "old_password")
    assert "not right" not in again.text
    assert change(page, new="x y z w v").status_code == 400
    assert "not right" in field_error(change(page, new="x y z w v").text, "old_password")
