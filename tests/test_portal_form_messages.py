"""No form in the portal answers a client in Django's words.

Every portal form is driven over HTTP with empty, too-long, malformed and
out-of-range values, and each page (or autosave reply) is searched for any
of Django's default error texts. The list of defaults is read from Django
itself, so a new field or validator it ships is caught too.
"""

from __future__ import annotations

import html
import json
import re
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django import forms
from django.contrib.auth import forms as auth_forms
from django.core import mail, validators
from django.forms import fields as form_fields
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils.functional import Promise

from clients import services as client_services
from homework.kinds import all_kinds
from homework.kinds.fields import MAX_CHOICES
from tests.conftest import login
from tests.factories import (
    RESPONSES,
    AssignmentFactory,
    ClientFactory,
    ExerciseFactory,
    options_for,
    posted_form,
)
from tests.helpers import request_reset, sign_in, turn_on_two_step

# -- Django's own words, read from Django ----------------------------------------------


def _texts_of(message: Any) -> Iterator[str]:
    """A message's text; both forms of a counted (ngettext) one."""
    kw = getattr(message, "_kw", None)
    if isinstance(kw, dict) and "singular" in kw:
        yield kw["singular"]
        yield kw["plural"]
    elif isinstance(message, str | Promise):
        yield str(message)


def django_defaults() -> set[str]:
    found: set[str] = set()
    for module in (form_fields, validators, auth_forms):
        for thing in vars(module).values():
            classes = thing.__mro__ if isinstance(thing, type) else type(thing).__mro__
            for klass in classes:
                for name in ("default_error_messages", "error_messages"):
                    table = vars(klass).get(name)
                    if isinstance(table, dict):
                        for message in table.values():
                            found.update(_texts_of(message))
                if "message" in vars(klass):
                    found.update(_texts_of(vars(klass)["message"]))
            if not isinstance(thing, type) and "message" in getattr(thing, "__dict__", {}):
                found.update(_texts_of(thing.message))  # validate_email and kin
    return {text for text in found if re.search(r"[A-Za-z]{3}", text)}


def _as_pattern(text: str) -> re.Pattern[str]:
    parts = re.split(r"%\(\w+\)[sd]", text)
    return re.compile(".+?".join(re.escape(part) for part in parts))


DEFAULTS = sorted(django_defaults())
DEFAULT_PATTERNS = [_as_pattern(text) for text in DEFAULTS]


def default_texts_in(text: str) -> list[str]:
    words = html.unescape(text)
    return [DEFAULTS[i] for i, pattern in enumerate(DEFAULT_PATTERNS) if pattern.search(words)]


def test_the_list_of_defaults_holds_the_ones_a_review_found():
    for text in (
        "This field is required.",
        "Enter a valid date/time.",
        "Enter a valid email address.",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "Ensure this value is less than or equal to %(limit_value)s.",
        "Select a valid choice. %(value)s is not one of the available choices.",
        "Null characters are not allowed.",
        "The two password fields didn’t match.",
    ):
        assert text in DEFAULTS


# -- the portal's forms, driven as a browser (or a tampered one) would -------------------

TOO_LONG = 30_000  # beyond every box's limit


def _malformed(field: forms.Field, how: str) -> Any:
    """A value of the sort ``how`` names, for this field."""
    if isinstance(field, forms.BooleanField):
        return "on"
    if how == "empty":
        return ""
    if isinstance(field, forms.DateTimeField):
        return {"malformed": "2026-02-30T10:00", "out_of_range": "1066-10-14T10:00"}.get(
            how, "x" * 40
        )
    if isinstance(field, forms.DateField):
        return {"malformed": "2026-02-30", "out_of_range": "1066-10-14"}.get(how, "x" * 40)
    if isinstance(field, forms.IntegerField):
        return {"malformed": "eleven", "out_of_range": "11", "too_long": "9" * 40}[how]
    if isinstance(field, forms.MultipleChoiceField):
        return {"too_long": [f"c{n}" for n in range(MAX_CHOICES + 1)]}.get(how, ["nope"])
    if isinstance(field, forms.ChoiceField):
        return {"too_long": "x" * TOO_LONG}.get(how, "nope")
    return {"too_long": "x" * TOO_LONG, "malformed": "a\x00b", "out_of_range": "-1"}[how]


def _kind_post(kind_slug: str, exercise: Any, how: str) -> dict[str, Any]:
    from homework.kinds import get_kind

    kind = get_kind(kind_slug)
    post = dict(posted_form(RESPONSES[kind_slug]()))
    form = kind.form(exercise=exercise, data=post)
    named = {form.add_prefix(name): field for name, field in form.fields.items()}
    for rows in form.row_sets.values():
        for row in rows:
            named.update({row.add_prefix(name): field for name, field in row.fields.items()})
    for name, field in named.items():
        post[name] = _malformed(field, how)
    return post


HOWS = ["empty", "too_long", "malformed", "out_of_range"]


def _do(cast, kind_slug: str, how: str) -> list[str]:
    exercise = ExerciseFactory.create(kind=kind_slug, options=options_for(kind_slug))
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    http = login(cast.alice.portal_user)
    post = _kind_post(kind_slug, exercise, how)
    envelope = {"key": str(uuid.uuid4()), "version": "0"}
    sent = http.post(reverse("homework:do", args=[assignment.pk]), {**post, **envelope})
    saved = http.post(reverse("homework:autosave", args=[assignment.pk]), {**post, **envelope})
    return [sent.content.decode(), json.dumps(saved.json(), ensure_ascii=False)]


def _edit(cast, kind_slug: str, how: str) -> list[str]:
    exercise = ExerciseFactory.create(kind=kind_slug, options=options_for(kind_slug))
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    http = login(cast.alice.portal_user)
    key = str(uuid.uuid4())
    good = posted_form(RESPONSES[kind_slug]())
    sent = http.post(
        reverse("homework:do", args=[assignment.pk]), {**good, "key": key, "version": "0"}
    )
    assert sent.status_code == 302
    page = http.post(
        reverse("homework:entry_edit", args=[key]),
        {**_kind_post(kind_slug, exercise, how), "key": key, "version": "1"},
    )
    return [page.content.decode()]


def _notes(cast, how: str) -> list[str]:
    text = {
        "empty": "",
        "too_long": "x" * 2301,
        "malformed": "a\x00b",
        "out_of_range": "x" * 30_000,
    }
    http = login(cast.alice.portal_user)
    url = reverse("homework:entry_add_note", args=[cast.alice_entry.key])
    return [http.post(url, {"text": text[how]}).content.decode()]


def _privacy(cast, how: str) -> list[str]:
    http = login(cast.alice.portal_user)
    url = reverse("homework:entry_privacy", args=[cast.alice_entry.key])
    value = {"empty": "", "too_long": "1" * TOO_LONG, "malformed": "maybe", "out_of_range": "2"}
    return [http.post(url, {"private": value[how]}).content.decode()]


def _long_email() -> str:
    return "x" * 300 + "@example.test"


EMAILS = {
    "empty": "",
    "too_long": _long_email(),
    "malformed": "not an email",
    "out_of_range": "a@b",
}
PASSWORDS = {"empty": "", "too_long": "x" * 5000, "malformed": "a\x00b", "out_of_range": "x"}


def _sign_in(cast, how: str) -> list[str]:
    http = HttpClient()
    pages = [sign_in(http, EMAILS[how], PASSWORDS[how]).content.decode()]
    pages.append(sign_in(http, "alice@example.test", "not the password").content.decode())
    return pages


def _code(cast, how: str) -> list[str]:
    turn_on_two_step(cast.alice.portal_user)
    http = HttpClient()
    assert sign_in(http, "alice@example.test").status_code == 302
    code = {"empty": "", "too_long": "1" * 40, "malformed": "a\x00b", "out_of_range": "-1"}
    return [http.post(reverse("clients:login_code"), {"token": code[how]}).content.decode()]


def _two_step_setup(cast, how: str) -> list[str]:
    http = login(cast.alice.portal_user)
    http.post(reverse("clients:two_step_setup"), {"start": "1"})
    code = {"empty": "", "too_long": "1" * 40, "malformed": "a\x00b", "out_of_range": "-1"}
    set_up = http.post(reverse("clients:two_step_setup"), {"token": code[how]})
    return [set_up.content.decode()]


def _two_step_off(cast, how: str) -> list[str]:
    turn_on_two_step(cast.alice.portal_user)
    http = login(cast.alice.portal_user)
    off = http.post(reverse("clients:two_step_remove"), {"password": PASSWORDS[how]})
    return [off.content.decode()]


def _reset_request(cast, how: str) -> list[str]:
    page = HttpClient().post(reverse("clients:password_reset"), {"email": EMAILS[how]})
    return [page.content.decode()]


def _reset_confirm(cast, how: str, capture: Any) -> list[str]:
    request_reset("alice@example.test", capture)
    found = re.search(r"(/password/reset/\S+/)", str(mail.outbox[-1].body))
    assert found is not None
    http = HttpClient()
    form_url = http.get(found.group(1), follow=True).redirect_chain[-1][0]
    page = http.post(
        form_url, {"new_password1": PASSWORDS[how], "new_password2": PASSWORDS[how] + "2"}
    )
    return [page.content.decode()]


def _welcome(cast, how: str) -> list[str]:
    newcomer = ClientFactory.create(
        therapist=cast.tara, portal_user=None, contact_email="casey@example.test"
    )
    issued = client_services.client_invite(actor=cast.tara, client=newcomer)
    http = HttpClient()
    http.get(reverse("clients:welcome", args=[issued.url.rstrip("/").rsplit("/", 1)[1]]))
    form = {"email": EMAILS[how], "password1": PASSWORDS[how], "password2": PASSWORDS[how] + "2"}
    return [http.post(reverse("clients:welcome_password"), form).content.decode()]


def _change_password(cast, how: str) -> list[str]:
    http = login(cast.alice.portal_user)
    form = {
        "old_password": PASSWORDS[how],
        "new_password1": PASSWORDS[how],
        "new_password2": PASSWORDS[how] + "2",
    }
    return [http.post(reverse("clients:change_password"), form).content.decode()]


def _export_choice(cast, how: str) -> list[str]:
    http = login(cast.alice.portal_user)
    include = {"empty": "", "too_long": "9" * TOO_LONG, "malformed": "abc", "out_of_range": "-1"}
    page = http.get(reverse("homework:export_pdf"), {"chosen": "1", "include": include[how]})
    return [page.content.decode(errors="replace")]


PORTAL_FORMS: dict[str, Callable[..., list[str]]] = {
    "sign-in": _sign_in,
    "sign-in code": _code,
    "two-step set-up": _two_step_setup,
    "two-step off": _two_step_off,
    "reset request": _reset_request,
    "welcome": _welcome,
    "change password": _change_password,
    "export choice": _export_choice,
    "notes": _notes,
    "privacy": _privacy,
}


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("form", PORTAL_FORMS, ids=str)
def test_no_account_form_answers_in_djangos_words(cast, form, how):
    pages = PORTAL_FORMS[form](cast, how)
    assert [default_texts_in(page) for page in pages] == [[] for _ in pages]


@pytest.mark.parametrize("how", HOWS)
def test_setting_a_new_password_from_a_reset_link_answers_in_the_portals_words(
    cast, how, django_capture_on_commit_callbacks
):
    pages = _reset_confirm(cast, how, django_capture_on_commit_callbacks)
    assert [default_texts_in(page) for page in pages] == [[] for _ in pages]


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("kind", [kind.slug for kind in all_kinds()])
def test_no_exercise_form_answers_in_djangos_words(cast, kind, how):
    pages = _do(cast, kind, how)
    assert [default_texts_in(page) for page in pages] == [[] for _ in pages]


@pytest.mark.parametrize("kind", [kind.slug for kind in all_kinds()])
def test_changing_a_sent_entry_answers_in_the_portals_words(cast, kind):
    pages = _edit(cast, kind, "malformed") + _edit(cast, kind, "too_long")
    assert [default_texts_in(page) for page in pages] == [[] for _ in pages]


# -- the new words -----------------------------------------------------------------------


def test_a_date_that_does_not_exist_asks_for_one_that_does(cast):
    pages = _do(cast, "written_record", "malformed")
    assert "Type a date and time that exist, like 3 March at 14:30." in html.unescape(pages[0])


def test_a_long_note_gives_the_limit_and_its_length_and_what_to_do(cast):
    [page] = _notes(cast, "too_long")
    assert (
        "This can be up to 2,000 characters; it has 2,301. Please shorten it."
    ) in html.unescape(page)


def test_a_long_answer_says_how_long_and_never_repeats_it(cast):
    pages = _do(cast, "written_record", "too_long")
    assert "This can be up to 20,000 characters; it has 30,000. Please shorten it." in pages[0]
    assert "This can be up to 20,000 characters; it has 30,000." in pages[1]  # the autosave
    # The page counts as it is typed in the same words, filling in only the length (limits.js).
    said = re.search(r'name="r-what_happened"[^>]*data-limit-over="([^"]*)"', pages[0])
    assert said is not None
    assert html.unescape(said[1]).replace("{length}", "30,000") == (
        "This can be up to 20,000 characters; it has 30,000. Please shorten it."
    )


def test_a_line_break_counts_once_toward_the_limit_as_the_page_counts_it(cast):
    """A browser posts a line break as two characters; the page counted one."""
    exercise = ExerciseFactory.create(kind="written_record", options=options_for("written_record"))
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    http = login(cast.alice.portal_user)
    at_the_limit = "a" * 9_995 + "\r\n" * 10 + "a" * 9_995  # 20,000 as typed, 20,010 posted
    post = {**posted_form(RESPONSES["written_record"]()), "r-what_happened": at_the_limit}
    envelope = {"key": str(uuid.uuid4()), "version": "0"}
    saved = http.post(reverse("homework:autosave", args=[assignment.pk]), {**post, **envelope})
    assert saved.status_code == 200, saved.content
    sent = http.post(
        reverse("homework:do", args=[assignment.pk]), {**post, **envelope, "version": "1"}
    )
    assert sent.status_code == 302
    assert assignment.entries.get().response["what_happened"] == at_the_limit.replace("\r\n", "\n")


def test_a_choice_that_is_not_offered_is_not_repeated_back(cast):
    pages = _do(cast, "urge_log", "too_long")
    said = re.search(r'id="id_r-trigger_error"[^>]*>(.*?)</', pages[0], re.S)
    assert said is not None
    assert html.unescape(said.group(1)).strip() == "Choose one of the answers here."
    assert "x" * 100 not in pages[1]  # the autosave's reply


def test_the_reset_and_welcome_forms_ask_for_what_is_missing(
    cast, django_capture_on_commit_callbacks
):
    [reset] = _reset_request(cast, "empty")
    assert "Type your email address." in reset
    [new] = _reset_confirm(cast, "empty", django_capture_on_commit_callbacks)
    assert "Choose a password." in new
    from clients.forms import NewPasswordForm

    empty = NewPasswordForm(cast.alice.portal_user, data={})
    assert not empty.is_valid()
    assert empty.errors["new_password2"] == ["Type the same password a second time."]
    [welcome] = _welcome(cast, "malformed")
    assert "Type your whole email address, like name@example.com." in welcome


def test_a_wrong_password_at_sign_in_says_what_to_check(cast):
    [_, wrong] = _sign_in(cast, "empty")
    assert "That email and password do not match." in html.unescape(wrong)


def test_forms_outside_the_portal_keep_djangos_words():
    """The admin's forms are Django's own: staff know its words."""
    field = forms.CharField(max_length=3)
    with pytest.raises(forms.ValidationError) as refused:
        field.clean("four")
    assert refused.value.messages == ["Ensure this value has at most 3 characters (it has 4)."]
