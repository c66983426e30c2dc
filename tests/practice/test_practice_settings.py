"""Practice settings: a manager's, checked for discretion, and live on the portal at once."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from practice import services
from practice.discreet import clinical_words
from practice.models import PracticeSettings
from practice.selectors import practice_settings
from tests.conftest import login, save_change_form
from tests.helpers import CHANGE, settings_form


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Your homework is waiting", ["homework"]),
        ("Dr Lee, Therapist", ["Therapist"]),
        ("Counselling reminder", ["Counselling"]),
        ("Abuse recovery group", ["Abuse"]),
        ("Weekly exercises", ["exercises"]),
        ("Psychotherapy", ["Psychotherapy"]),
        ("You have a new update", []),
        ("Notifications", []),
        # Phrases however they are joined: hyphens, extra spaces, a word split in two.
        ("Your mental-health update", ["mental-health"]),
        ("Domestic-violence service", ["Domestic-violence"]),
        ("Mental  health", ["Mental  health"]),
        ("Home work for this week", ["Home work"]),
        ("home-work", ["home-work"]),
        ("the rap song", []),
        ("Before your session, safety first", ["session", "safety"]),
        ("Urges, or urgent", ["Urges", "urgent"]),
    ],
)
def test_clinical_words_are_found_in_any_form(text, found):
    assert clinical_words(text) == found


def test_manager_changes_settings_and_the_portal_shows_them_at_once(
    cast, django_capture_on_commit_callbacks
):
    practice_settings()  # cached now, as on any portal page
    with django_capture_on_commit_callbacks(execute=True):
        response = save_change_form(
            login(cast.morgan),
            reverse(CHANGE, args=[1]),
            settings_form(crisis_resources="Call our line: 0800 000 000"),
        )
    assert response.status_code == 302
    page = login(cast.alice.portal_user).get(reverse("homework:dashboard"))
    assert 'Call our line: <a href="tel:0800000000">0800 000 000</a>' in page.text


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("reminder_sender_name", "Your therapist", "“therapist” could tell someone"),
        ("reminder_subject", "Homework reminder", "“Homework” could tell someone"),
        ("crisis_resources", "  \n ", "Add at least one number"),
        ("quick_exit_url", "http://example.com/", "starts with https://"),
        ("idle_timeout_minutes", "1", "between 2 and 240 minutes"),
        ("idle_timeout_minutes", "100000", "between 2 and 240 minutes"),
        ("idle_timeout_minutes", "-5", "between 2 and 240 minutes"),
        ("contact_recheck_weeks", "0", "between 1 and 52 weeks"),
        ("contact_recheck_weeks", "53", "between 1 and 52 weeks"),
        ("contact_recheck_weeks", "-1", "between 1 and 52 weeks"),
    ],
)
def test_settings_that_could_harm_are_refused_on_their_field(cast, field, value, message):
    before = PracticeSettings.objects.get(pk=1)
    response = save_change_form(
        login(cast.morgan), reverse(CHANGE, args=[1]), settings_form(**{field: value})
    )
    assert response.status_code == 200
    errors = " ".join(response.context["adminform"].form.errors.get(field, []))
    assert message in errors, response.context["adminform"].form.errors
    after = PracticeSettings.objects.get(pk=1)
    assert getattr(after, field) == getattr(before, field)


def test_service_refuses_clinical_words_and_non_managers(cast):
    with pytest.raises(ValidationError) as refused:
        services.practice_settings_update(actor=cast.morgan, reminder_subject="Therapy update")
    assert "reminder_subject" in refused.value.message_dict
    with pytest.raises(PermissionDenied):
        services.practice_settings_update(actor=cast.tara, name="Taken over")
    assert PracticeSettings.objects.get(pk=1).name != "Taken over"


def test_the_cache_is_cleared_once_the_change_commits(cast, django_capture_on_commit_callbacks):
    assert practice_settings().name != "Harbour Practice"
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.practice_settings_update(actor=cast.morgan, name="Harbour Practice")
    assert practice_settings().name != "Harbour Practice"  # not yet: still in the transaction
    for callback in callbacks:
        callback()
    assert practice_settings().name == "Harbour Practice"


def test_the_settings_list_opens_the_one_row(cast):
    response = login(cast.morgan).get(reverse("admin:practice_practicesettings_changelist"))
    assert response["Location"] == reverse(CHANGE, args=[1])
    assert login(cast.tara).get(reverse(CHANGE, args=[1])).status_code == 403


def test_a_cache_fault_reads_the_row_and_rests_the_cache_a_while(db, monkeypatch):
    from practice import selectors

    calls = []

    class Broken:
        def get(self, *args, **kwargs):
            calls.append("get")
            raise ConnectionError("Redis is down")

        def set(self, *args, **kwargs):
            calls.append("set")
            raise ConnectionError("Redis is down")

    monkeypatch.setattr(selectors, "cache", Broken())
    assert practice_settings().pk == 1
    assert practice_settings().pk == 1  # straight to the database: no second wait
    assert calls == ["get"]


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("message_keep_days", "5", "Choose between 30 and 730 days."),
        ("summary_keep_days", "0", "Choose between 1 and 365 days."),
        ("summary_keep_days", "", "This field is required."),
    ],
)
def test_keep_periods_out_of_range_are_refused_with_a_clear_message(cast, field, value, says):
    response = save_change_form(
        login(cast.morgan), reverse(CHANGE, args=[1]), settings_form(**{field: value})
    )
    assert response.status_code == 200 and says in response.text
    row = PracticeSettings.objects.get(pk=1)
    assert (row.summary_keep_days, row.message_keep_days) == (14, 90)


def test_the_manager_turns_the_digest_off(cast):
    form = settings_form()
    del form["weekly_digest"]
    response = save_change_form(login(cast.morgan), reverse(CHANGE, args=[1]), form)
    assert response.status_code == 302
    assert not PracticeSettings.objects.get(pk=1).weekly_digest
