"""The portal slice, as a client's browser would drive it (no JavaScript)."""

import html
import re
import uuid

import pytest
from django.test import override_settings
from django.urls import reverse

from homework.models import Entry
from tests.conftest import login
from tests.factories import written_record
from tests.helpers import do_url, posted


def test_dashboard_lists_only_my_work(cast):
    page = login(cast.alice.portal_user).get(reverse("homework:dashboard"))
    assert page.status_code == 200
    assert cast.alice_assignment.exercise.title in page.text
    assert cast.bob_assignment.exercise.title not in page.text


def test_every_portal_page_is_private_and_neutral(cast):
    http = login(cast.alice.portal_user)
    for url in (
        reverse("homework:dashboard"),
        do_url(cast.alice_assignment),
        reverse("homework:history"),
    ):
        page = http.get(url)
        assert "no-store" in page["Cache-Control"]
        title = page.text.split("<title>")[1].split("</title>")[0]
        assert "Notebook" in title
        assert cast.alice_assignment.exercise.title not in title
        assert 'id="quick-exit"' in page.text
        assert reverse("crisis") in page.text


def title_of(page) -> str:
    return html.unescape(str(page.text).split("<title>")[1].split("</title>")[0])


def test_page_titles_say_what_the_page_is_in_neutral_words(cast):
    """The tab says what the nav and the heading say, with no clinical words."""
    http = login(cast.alice.portal_user)
    assert title_of(http.get(reverse("homework:history"))) == "What I've written · Notebook"
    signed_out = login(None)
    titles = {
        reverse("clients:password_reset"): "Forgotten password · Notebook",
        reverse("clients:password_reset_sent"): "Check your email · Notebook",
        "/password/reset/MQ/not-a-token/": "New password · Notebook",
        reverse("clients:password_reset_complete"): "New password saved · Notebook",
    }
    for url, title in titles.items():
        assert title_of(signed_out.get(url)) == title, url


def test_client_writes_and_sends_a_record(cast):
    http = login(cast.alice.portal_user)
    form = http.get(do_url(cast.alice_assignment))
    assert form.status_code == 200
    key = form.context["envelope"].initial["key"]
    response = http.post(do_url(cast.alice_assignment), {**posted(key), "discuss_in_session": "on"})
    entry = Entry.objects.get(key=key)
    assert response.status_code == 302
    assert response["Location"] == reverse("homework:entry", args=[key])
    assert entry.is_submitted and entry.assignment == cast.alice_assignment
    assert entry.discuss_in_session and not entry.felt_unsafe
    shown = http.get(response["Location"])
    assert "They went quiet for the whole evening." in shown.text


def test_autosave_then_reopen_continues_the_draft(cast):
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    saved = http.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]),
        {"key": str(key), "version": "0", "r-what_happened": "half a thought"},
    )
    assert saved.status_code == 200 and saved.json()["version"] == 1
    reopened = http.get(do_url(cast.alice_assignment))
    assert "half a thought" in reopened.text
    assert reopened.context["envelope"].initial["key"] == key


def test_autosave_and_the_reopened_page_give_the_saved_time_alike(cast):
    """The script shows the server's time, not the browser's "08:09 AM"."""
    http = login(cast.alice.portal_user)
    saved = http.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]),
        {"key": str(uuid.uuid4()), "version": "0", "r-what_happened": "half a thought"},
    )
    time = saved.json()["saved_time"]
    assert re.fullmatch(r"\d\d:\d\d", time)
    assert f"Saved at {time}</p>" in http.get(do_url(cast.alice_assignment)).text


def test_stale_autosave_gets_both_texts_and_is_told_another_tab_changed_it(cast):
    http = login(cast.alice.portal_user)
    url = reverse("homework:autosave", args=[cast.alice_assignment.pk])
    key = str(uuid.uuid4())
    http.post(url, {"key": key, "version": "0", "r-what_happened": "from the phone"})
    http.post(url, {"key": key, "version": "1", "r-what_happened": "from the laptop"})
    stale = http.post(url, {"key": key, "version": "1", "r-what_happened": "phone again"})
    assert stale.status_code == 409
    [row] = stale.json()["conflict"]["rows"]
    assert (row["mine"], row["theirs"]) == ("phone again", "from the laptop")
    # Told another tab or device changed it, not that it was begun since.
    assert stale.json()["conflict"]["begun_since_opened"] is False


def test_a_first_save_meeting_a_draft_begun_since_the_page_opened_does_not_blame_another_tab(
    cast,
):
    """Reloaded just after typing, a page sends its last words as it goes,
    and they may arrive after the reloaded page was built, blank, with a new
    key: its first save meets them as another draft. They may be this page's
    own, so the choice does not say "another tab or device" made them."""
    http = login(cast.alice.portal_user)
    url = reverse("homework:autosave", args=[cast.alice_assignment.pk])
    http.post(url, {"key": str(uuid.uuid4()), "version": "0", "r-what_happened": "before"})
    first = http.post(url, {"key": str(uuid.uuid4()), "version": "0", "r-what_happened": "after"})
    assert first.status_code == 409
    conflict = first.json()["conflict"]
    assert conflict["begun_since_opened"] is True
    [row] = conflict["rows"]
    assert (row["mine"], row["theirs"]) == ("after", "before")


def test_replayed_submit_creates_one_entry(cast):
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    before = Entry.objects.count()
    body = posted(key)  # once: two calls a minute apart would carry two different times
    first = http.post(do_url(cast.alice_assignment), body)
    replay = http.post(do_url(cast.alice_assignment), body)
    assert first.status_code == replay.status_code == 302
    assert Entry.objects.count() == before + 1


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"what_happened": ""}, "Write a few words here first."),
        (
            {"what_happened": "x" * 1_000_000},
            "This can be up to 20,000 characters; it has 1,000,000.",
        ),
        ({"what_happened": "a\x00b"}, "a hidden character came with what was pasted"),
        ({"occurred_at": "9999-01-01T10:00"}, "That is in the future."),
        ({"body_distress": "eleven"}, "Choose a number from 0 to 10."),
    ],
)
def test_bad_input_is_shown_beside_the_field_and_saves_nothing(cast, overrides, message):
    http = login(cast.alice.portal_user)
    before = Entry.objects.count()
    response = http.post(do_url(cast.alice_assignment), posted(uuid.uuid4(), **overrides))
    assert response.status_code == 400
    assert message in response.text
    assert 'aria-invalid="true"' in response.text
    assert Entry.objects.count() == before


def test_a_field_the_exercise_does_not_have_is_named(cast):
    http = login(cast.alice.portal_user)
    response = http.post(do_url(cast.alice_assignment), posted(uuid.uuid4(), horoscope="Leo"))
    assert response.status_code == 400
    assert "horoscope: This is not a field of this exercise." in response.text


@pytest.mark.parametrize(
    "envelope",
    [{"key": "not-a-uuid", "version": "0"}, {"key": str(uuid.uuid4()), "version": "-1"}, {}],
)
def test_malformed_envelope_is_refused(cast, envelope):
    http = login(cast.alice.portal_user)
    before = Entry.objects.count()
    form = {f"r-{k}": v for k, v in written_record().items()} | envelope
    assert http.post(do_url(cast.alice_assignment), form).status_code == 400
    autosave = http.post(reverse("homework:autosave", args=[cast.alice_assignment.pk]), envelope)
    assert autosave.status_code == 400
    assert Entry.objects.count() == before


def test_client_cannot_open_or_write_another_clients_work(cast):
    http = login(cast.alice.portal_user)
    assert http.get(do_url(cast.bob_assignment)).status_code == 404
    assert http.post(do_url(cast.bob_assignment), posted(uuid.uuid4())).status_code == 404
    assert http.get(reverse("homework:entry", args=[cast.bob_entry.key])).status_code == 404
    autosave = http.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]),
        {"key": str(cast.bob_entry.key), "version": "1", "r-what_happened": "overwrite"},
    )
    assert autosave.status_code == 404
    assert Entry.objects.get(pk=cast.bob_entry.pk).response == cast.bob_entry.response


def test_post_without_csrf_is_refused(cast):
    from django.test import Client as HttpClient

    http = HttpClient(enforce_csrf_checks=True)
    http.force_login(cast.alice.portal_user)
    before = Entry.objects.count()
    assert http.post(do_url(cast.alice_assignment), posted(uuid.uuid4())).status_code == 403
    assert Entry.objects.count() == before


def test_client_text_is_shown_as_text_never_as_html(cast):
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    script = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    http.post(do_url(cast.alice_assignment), posted(key, what_happened=script))
    page = http.get(reverse("homework:entry", args=[key]))
    assert script not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    admin = login(cast.tara).get(
        reverse("admin:homework_entry_change", args=[Entry.objects.get(key=key).pk])
    )
    assert script not in admin.text
    assert "&lt;script&gt;" in admin.text


def test_quick_exit_ends_the_session(cast):
    http = login(cast.alice.portal_user)
    beacon = http.post(reverse("homework:quick_exit"), {"beacon": "1"})
    assert beacon.status_code == 204
    assert "cache" in beacon["Clear-Site-Data"]
    assert http.get(reverse("homework:dashboard")).status_code == 302


def test_quick_exit_without_script_redirects_to_the_neutral_site(cast):
    http = login(cast.alice.portal_user)
    response = http.post(reverse("homework:quick_exit"))
    assert response.status_code == 302
    assert response["Location"].startswith("https://")


def test_staff_are_sent_to_the_admin(cast):
    response = login(cast.tara).get(reverse("homework:dashboard"))
    assert response.status_code == 302 and response["Location"] == reverse("admin:index")


@pytest.mark.parametrize("closed", ["completed", "cancelled"])
def test_words_typed_while_the_therapist_closes_the_work_are_kept(cast, closed):
    """A page opened before the work was closed still holds words being typed:
    they are saved and sent, not refused (and lost)."""
    from homework.models import Assignment

    http = login(cast.alice.portal_user)
    form = http.get(do_url(cast.alice_assignment))
    key = form.context["envelope"].initial["key"]
    Assignment.objects.filter(pk=cast.alice_assignment.pk).update(status=closed)
    autosave = reverse("homework:autosave", args=[cast.alice_assignment.pk])
    saved = http.post(autosave, {"key": str(key), "version": "0", "r-what_happened": "mid-way"})
    assert saved.status_code == 200
    sent = http.post(do_url(cast.alice_assignment), posted(key, version=1))
    assert sent.status_code == 302
    assert Entry.objects.get(key=key).is_submitted
    # The form itself is no longer offered for closed work.
    assert http.get(do_url(cast.alice_assignment)).status_code == 404


def test_a_draft_of_work_closed_since_stays_within_reach(cast):
    from homework.models import Assignment

    http = login(cast.alice.portal_user)
    key = http.get(do_url(cast.alice_assignment)).context["envelope"].initial["key"]
    autosave = reverse("homework:autosave", args=[cast.alice_assignment.pk])
    http.post(autosave, {"key": str(key), "version": "0", "r-what_happened": "Half of it."})
    Assignment.objects.filter(pk=cast.alice_assignment.pk).update(status="cancelled")
    home = http.get(reverse("homework:dashboard"))
    assert "Started before it was closed" in home.text
    assert do_url(cast.alice_assignment) in home.text
    page = http.get(do_url(cast.alice_assignment))
    assert page.status_code == 200
    assert "Half of it." in page.text and "has closed this one" in page.text
    assert http.post(do_url(cast.alice_assignment), posted(key, version=1)).status_code == 302
    assert Entry.objects.get(key=key).is_submitted
    assert "Started before it was closed" not in http.get(reverse("homework:dashboard")).text


def test_a_second_tab_sending_other_words_sees_both_and_loses_neither(cast):
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    http.post(do_url(cast.alice_assignment), posted(key, what_happened="Sent from the phone."))
    stale = http.post(
        do_url(cast.alice_assignment), posted(key, what_happened="Typed on the laptop meanwhile.")
    )
    assert stale.status_code == 409
    assert "Sent from the phone." in stale.text
    assert "Typed on the laptop meanwhile." in stale.text
    assert "already sent" in stale.text


def test_a_redis_outage_never_fails_a_save_or_a_send(cast):
    """The cache is a convenience: with Redis unreachable, pages open and
    the client's words land (port 1 refuses every connection)."""
    http = login(cast.alice.portal_user)
    unreachable = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }
    with override_settings(CACHES=unreachable):
        form = http.get(do_url(cast.alice_assignment))
        assert form.status_code == 200 and reverse("crisis") in form.text
        key = form.context["envelope"].initial["key"]
        saved = http.post(
            reverse("homework:autosave", args=[cast.alice_assignment.pk]),
            {"key": str(key), "version": "0", "r-what_happened": "Typed while Redis was down."},
        )
        assert saved.status_code == 200
        sent = http.post(do_url(cast.alice_assignment), posted(key, version=1))
    assert sent.status_code == 302
    assert Entry.objects.get(key=key).is_submitted


@pytest.mark.parametrize(
    "name",
    ["homework:dashboard", "homework:history", "homework:progress", "clients:account", "crisis"],
)
def test_a_page_answers_head_as_it_answers_get(cast, name):
    # `curl -I` on the portal, or a load balancer's health check, met
    # "405 Method Not Allowed" and a warning in the server's log: HTTP asks
    # every page that answers GET to answer HEAD the same way, without a body.
    http = login(cast.alice.portal_user)
    got, head = http.get(reverse(name)), http.head(reverse(name))
    assert head.status_code == got.status_code == 200
    assert head.content == b""
