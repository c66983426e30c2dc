"""Every kind through the portal and back to the therapist, as a browser drives it."""

import datetime as dt
import re
import uuid

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from homework.kinds import all_kinds, get_kind
from homework.kinds import registry as kind_registry
from homework.models import Entry
from practice.dates import calendar_day
from tests.conftest import login
from tests.factories import (
    RESPONSES,
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    daily_urge_log,
    options_for,
    posted_form,
)
from tests.helpers import WrittenRecordV2, do_url

SLUGS = [kind.slug for kind in all_kinds()]
# A phrase from each example response that the pages must show back.
SHOWN = {
    "written_record": "They went quiet for the whole evening.",
    "urge_log": "A photo from last summer.",
    "boundary_steps": "No calls after 10 pm.",
    "support_network": "Tuesday group",
    "safety_plan": "Jo&#x27;s flat.",
    "worksheet": "A long week.",
    "reading": "Writing things down when I miss them.",
}


def assign(client, slug, **details):
    exercise = ExerciseFactory.create(kind=slug, title=f"The {slug} one", options=options_for(slug))
    return AssignmentFactory.create(client=client, exercise=exercise, **details)


def save_url(assignment) -> str:
    return reverse("homework:autosave", args=[assignment.pk])


def envelope(key=None, version=0):
    return {"key": str(key or uuid.uuid4()), "version": str(version)}


@pytest.mark.clock
@pytest.mark.parametrize("slug", SLUGS)
def test_each_kind_is_filled_in_the_portal_and_read_by_the_therapist(cast, slug):
    assignment = assign(cast.alice, slug)
    http = login(cast.alice.portal_user)
    page = http.get(do_url(assignment))
    assert page.status_code == 200
    key = uuid.uuid4()
    sent = http.post(do_url(assignment), {**envelope(key), **posted_form(RESPONSES[slug]())})
    assert sent.status_code == 302, sent.content.decode()[:3000]
    entry = Entry.objects.get(key=key)
    assert entry.is_submitted and entry.schema_version == get_kind(slug).schema_version
    shown = http.get(sent["Location"])
    assert SHOWN[slug] in shown.text
    admin = login(cast.tara).get(reverse("admin:homework_entry_change", args=[entry.pk]))
    assert SHOWN[slug] in admin.text


@pytest.mark.parametrize("slug", SLUGS)
def test_what_was_typed_reappears_when_the_form_reopens(cast, slug):
    assignment = assign(cast.alice, slug)
    http = login(cast.alice.portal_user)
    saved = http.post(save_url(assignment), {**envelope(), **posted_form(RESPONSES[slug]())})
    assert saved.status_code == 200, saved.json()
    reopened = http.get(do_url(assignment))
    assert SHOWN[slug] in reopened.text


def test_rows_and_ticked_boxes_round_trip_through_a_draft(cast):
    assignment = assign(cast.alice, "support_network")
    http = login(cast.alice.portal_user)
    form = {
        **envelope(),
        "r-people-0-name": "Jo",
        "r-people-0-circle": "inner",
        "r-people-0-roles": ["warmth", "reality_check"],
        "r-people-0-steadying": "on",
        "r-people-5-name": "Sam",
        "r-people-5-circle": "outer",
    }
    assert http.post(save_url(assignment), form).status_code == 200
    draft = Entry.objects.get(assignment=assignment)
    assert draft.response["people"] == [
        {"name": "Jo", "circle": "inner", "roles": ["warmth", "reality_check"], "steadying": True},
        {"name": "Sam", "circle": "outer"},
    ]
    page = http.get(do_url(assignment)).text
    assert 'name="r-people-0-name" value="Jo"' in page
    assert 'name="r-people-1-name" value="Sam"' in page
    assert 'name="r-people-0-roles" value="warmth"' in page and "checked" in page
    # An empty row is offered after the two, and one to copy for the script.
    assert 'name="r-people-2-name"' in page
    assert 'name="r-people-__prefix__-name"' in page


def test_ticked_boxes_of_one_question_are_all_kept(cast):
    assignment = assign(cast.alice, "worksheet")
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    form = {**envelope(key), **posted_form(RESPONSES["worksheet"]())}
    form["r-helped"] = ["A walk", "A friend", "Sleep"]
    assert http.post(do_url(assignment), form).status_code == 302
    entry = Entry.objects.get(key=key)
    assert entry.response["helped"] == ["A walk", "A friend", "Sleep"]
    assert entry.score == 4.0  # (10 - 8 + 6) / 2: kept on the entry for charting


@pytest.mark.parametrize(
    ("slug", "changes", "message"),
    [
        ("urge_log", {"r-intensity": "11"}, "Choose a number from 0 to 10."),
        ("urge_log", {"r-trigger": "moon"}, "Choose one of the answers here."),
        (
            "boundary_steps",
            {"r-steps-0-feeling": "-1"},
            "Choose a number from 0 to 10.",
        ),
        # Step 0 has more in it than the boundary, so it is a row, not an empty one.
        ("boundary_steps", {"r-steps-0-boundary": ""}, "Write a few words here first."),
        ("support_network", {"r-people-0-name": "x" * 1_000_000}, "up to 40 characters"),
        (
            "safety_plan",
            {f"r-{key}": "" for key in RESPONSES["safety_plan"]()},
            "Fill in at least one part.",
        ),
        ("worksheet", {"r-place": "Mars"}, "Choose one of the answers here."),
        ("worksheet", {"r-horoscope": "Leo"}, "horoscope: This is not a field of this exercise."),
        (
            "boundary_steps",
            {"r-steps-0-shoe": "9"},
            "steps-0-shoe: This is not a field of this exercise.",
        ),
    ],
)
def test_bad_input_is_shown_on_the_page_and_nothing_is_saved(cast, slug, changes, message):
    assignment = assign(cast.alice, slug)
    http = login(cast.alice.portal_user)
    form = {**envelope(), **posted_form(RESPONSES[slug]()), **changes}
    response = http.post(do_url(assignment), form)
    assert response.status_code == 400
    assert message in response.text
    # The summary is there; it says "marked below" only when a field is (test_error_summary).
    assert 'id="error-summary"' in response.text
    assert not Entry.objects.filter(assignment=assignment).exists()
    # What was typed is still on the page.
    typed = [v for v in form.values() if isinstance(v, str) and 6 < len(v) < 1000]
    if typed:
        assert typed[-1].replace("'", "&#x27;") in response.text


def test_a_message_for_the_whole_answer_is_shown_once(cast):
    assignment = assign(cast.alice, "safety_plan")
    response = login(cast.alice.portal_user).post(do_url(assignment), envelope())
    assert response.status_code == 400
    assert response.text.count("Fill in at least one part.") == 1
    assert "__all__" not in response.text


def test_two_hundred_people_posted_from_the_page_are_refused_kindly(cast):
    assignment = assign(cast.alice, "support_network")
    http = login(cast.alice.portal_user)
    form = envelope()
    for index in range(200):
        form[f"r-people-{index}-name"] = f"P{index}"
        form[f"r-people-{index}-circle"] = "outer"
    response = http.post(do_url(assignment), form)
    assert response.status_code == 400
    assert "You can list up to 50 people here." in response.text
    assert not Entry.objects.filter(assignment=assignment).exists()
    autosave = http.post(save_url(assignment), form)
    assert autosave.status_code == 400
    assert "up to 50 people" in autosave.json()["errors"]["people"][0]


def test_the_next_ladder_starts_from_the_last_one_sent(cast):
    assignment = assign(cast.alice, "boundary_steps")
    http = login(cast.alice.portal_user)
    http.post(do_url(assignment), {**envelope(), **posted_form(RESPONSES["boundary_steps"]())})
    again = http.get(do_url(assignment)).text
    assert re.search(r'name="r-steps-0-boundary"[^>]*>\s*No calls after 10 pm.</textarea>', again)
    assert re.search(
        r'name="r-steps-1-boundary"[^>]*>\s*Sunday lunch with my sister.</textarea>', again
    )


def test_a_long_boundary_is_shown_whole_in_a_box_that_wraps(cast):
    """On a phone a one-line box cut "I won't reply to messages after 10 p"
    off at its edge: the boundary is a short box of two lines that wraps
    (and grows where the browser can), held to its length by the server."""
    page = login(cast.alice.portal_user).get(do_url(assign(cast.alice, "boundary_steps"))).text
    box = re.search(r'<textarea[^>]*name="r-steps-0-boundary"[^>]*>', page)
    assert box, "the boundary is not a box that wraps"
    assert 'rows="2"' in box[0] and "maxlength" not in box[0]
    assert not re.search(r'<input[^>]*name="r-steps-0-boundary"', page)


def test_a_new_urge_leaves_its_time_to_the_client_with_a_now_button_on_their_clock(cast):
    cast.alice.timezone = "America/New_York"
    cast.alice.save()
    assignment = assign(cast.alice, "urge_log")
    page = login(cast.alice.portal_user).get(do_url(assignment))
    assert "at" not in page.context["form"].initial
    assert re.search(r'<input[^>]*name="r-at"(?![^>]*value=)', page.text)
    assert 'data-fill-now="id_r-at" data-time-zone="America/New_York"' in page.text


# -- recurring work on the dashboard


def test_todays_slot_of_a_recurring_check_in_is_on_the_dashboard_then_done(cast):
    today = timezone.localdate()
    assignment = assign(
        cast.alice,
        "worksheet",
        schedule="weekly",
        weekdays=[today.weekday()],
        due_on=None,
        starts_on=today - dt.timedelta(days=7),
        ends_on=today + dt.timedelta(days=21),
    )
    http = login(cast.alice.portal_user)
    assert "For today" in http.get(reverse("homework:dashboard")).text
    sent = http.post(do_url(assignment), {**envelope(), **posted_form(RESPONSES["worksheet"]())})
    entry = Entry.objects.get(assignment=assignment)
    assert entry.occurrence_on == today
    dashboard = http.get(reverse("homework:dashboard")).text
    assert "Done for now — thank you." in dashboard
    assert f"Next on {(today + dt.timedelta(days=7)):%A} " in dashboard
    # Opening it again shows what was sent, rather than a second copy.
    again = http.get(do_url(assignment))
    assert again.status_code == 302 and again["Location"] == sent["Location"]
    assert "You have already done this one." in http.get(again["Location"]).text


@pytest.mark.clock
def test_a_recurring_log_takes_any_number_of_entries(cast):
    today = timezone.localdate()
    assignment = assign(
        cast.alice,
        "urge_log",
        schedule="daily",
        due_on=None,
        starts_on=today - dt.timedelta(days=2),
        ends_on=today + dt.timedelta(days=27),
    )
    http = login(cast.alice.portal_user)
    for _ in range(2):
        assert (
            http.post(
                do_url(assignment), {**envelope(), **posted_form(RESPONSES["urge_log"]())}
            ).status_code
            == 302
        )
    assert http.get(do_url(assignment)).status_code == 200
    assert Entry.objects.filter(assignment=assignment, occurrence_on=today).count() == 2
    assert "Whenever it comes" in http.get(reverse("homework:dashboard")).text


def queries_for(http, url) -> int:
    http.get(url)  # warm up: the first request after login also touches the session
    with CaptureQueriesContext(connection) as queries:
        assert http.get(url).status_code == 200
    return len(queries)


def test_dashboard_queries_hold_with_many_recurring_assignments(cast):
    today = timezone.localdate()
    http = login(cast.alice.portal_user)

    def add(count):
        for _ in range(count):
            a = assign(
                cast.alice,
                "urge_log",
                schedule="daily",
                due_on=None,
                starts_on=today,
                ends_on=today + dt.timedelta(days=9),
            )
            EntryFactory.create(assignment=a, occurrence_on=today, response=RESPONSES["urge_log"]())

    add(1)
    one = queries_for(http, reverse("homework:dashboard"))
    add(49)
    assert queries_for(http, reverse("homework:dashboard")) == one


# -- progress


def urge_entry(assignment, day: dt.date, intensity: int, **changes):
    at = timezone.make_aware(dt.datetime.combine(day, dt.time(12)))
    return EntryFactory.create(
        assignment=assignment,
        occurrence_on=day,
        submitted_at=at,
        response={
            **RESPONSES["urge_log"](),
            "at": at.isoformat(),
            "intensity": intensity,
            **changes,
        },
    )


def test_progress_names_the_year_of_urge_days_from_another_year(cast):
    """A no-contact log begun in late December: "since 30 December" and a
    row for "Sun 28 Dec" beside this year's days could be either year. The
    chart's own title named it already (practice.dates.calendar_day)."""
    last_year = timezone.localdate().year - 1
    start = dt.date(last_year, 12, 28)
    assignment = daily_urge_log(cast.alice, start=start, days=0, intensity=int)
    urge_entry(assignment, start, 7)
    urge_entry(
        assignment, dt.date(last_year, 12, 30), 9, contact_happened=True, contact_initiated_by="me"
    )
    page = login(cast.alice.portal_user).get(reverse("homework:progress")).text
    day = f"{start:%a} 28 Dec {last_year}"
    assert f"<td>{day}</td>" in page
    assert f"(since 30 December {last_year})" in page
    assert f"Contact: 30 December {last_year} (" in page


def progress_of(cast) -> str:
    page = login(cast.alice.portal_user).get(reverse("homework:progress"))
    assert page.status_code == 200
    return page.text


def test_progress_of_a_tracker_begun_today_reads_as_day_1(cast):
    """ "0 days without contact" on the first day reads like failing already."""
    daily_urge_log(cast.alice, start=timezone.localdate(), days=0, intensity=int)
    page = progress_of(cast)
    assert "Day 1: starting today" in page
    assert "0 days" not in page
    assert "When you log an urge, your curve will start here." in page


def test_progress_with_a_first_urge_today_draws_day_1_once(cast):
    assignment = daily_urge_log(cast.alice, start=timezone.localdate(), days=0, intensity=int)
    urge_entry(assignment, timezone.localdate(), 6)
    page = progress_of(cast)
    assert "Day 1: starting today" in page and "0 days" not in page
    assert "<svg" in page
    [curve] = re.findall(
        r"<svg(?:(?!</svg>).)*The strongest pull(?:(?!</svg>).)*</svg>", page, re.S
    )
    assert curve.count(f">{calendar_day(timezone.localdate(), 'j M')}</text>") == 1


def test_progress_after_contact_today_counts_from_today_without_0_days(cast):
    today = timezone.localdate()
    assignment = daily_urge_log(
        cast.alice, start=today - dt.timedelta(days=3), days=0, intensity=int
    )
    urge_entry(assignment, today, 8, contact_happened=True, contact_initiated_by="them")
    page = progress_of(cast)
    assert "Day 1: counting from today" in page
    assert "0 days" not in page


@pytest.mark.parametrize(("days_in", "counted"), [(1, "1 day"), (6, "6 days")])
def test_progress_a_day_or_more_in_counts_the_days_without_contact(cast, days_in, counted):
    start = timezone.localdate() - dt.timedelta(days=days_in)
    assignment = daily_urge_log(cast.alice, start=start, days=0, intensity=int)
    urge_entry(assignment, start, 7)
    page = progress_of(cast)
    assert f"{counted} without contact" in page
    assert "Day 1: " not in page
    # The axis says dates: the first day logged and today.
    assert f">{calendar_day(start, 'j M')}</text>" in page
    assert f">{calendar_day(timezone.localdate(), 'j M')}</text>" in page


def test_progress_shows_the_urge_curve_easing_with_contact_marked(cast):
    today = timezone.localdate()
    start = today - dt.timedelta(days=20)
    assignment = daily_urge_log(cast.alice, start=start, days=0, intensity=int)
    for day in range(21):
        urge_entry(assignment, start + dt.timedelta(days=day), max(1, 9 - day // 3))
    urge_entry(
        assignment,
        start + dt.timedelta(days=4),
        9,
        contact_happened=True,
        contact_initiated_by="them",
    )
    page = login(cast.alice.portal_user).get(reverse("homework:progress"))
    assert page.status_code == 200
    assert "<svg" in page.text and 'role="img"' in page.text
    assert "16 days without contact" in page.text
    assert "The pull has been easing" in page.text
    assert "They reached out" in page.text  # the legend names the marker
    assert "(They reached out)" in page.text  # and the text alternative says it too


def test_progress_draws_the_ladder_the_map_and_the_check_ins(cast):
    http = login(cast.alice.portal_user)
    for slug in ("boundary_steps", "support_network", "worksheet"):
        assignment = assign(cast.alice, slug)
        for _ in range(2):
            http.post(do_url(assignment), {**envelope(), **posted_form(RESPONSES[slug]())})
    page = http.get(reverse("homework:progress")).text
    # The ladder, the map, and one picture per 0–10 question of the check-in.
    # Each picture, and the timeline the kinds share (homework.kinds.timeline).
    assert page.count("<svg") == 5
    assert "1 held · 1 planned" in page
    assert "you can ask Jo for a reality check" in page
    assert "How clear do you feel?" in page and "not a test" in page


@pytest.mark.parametrize(
    ("names", "sentence"),
    [
        (["Jo"], "you can ask Jo for a reality check."),
        (["Jo", "Priya"], "you can ask Jo and Priya for a reality check."),
        (["Jo", "Priya", "Sam"], "you can ask Jo, Priya and Sam for a reality check."),
    ],
)
def test_the_people_to_ask_for_a_reality_check_are_named_as_a_sentence_would(cast, names, sentence):
    people = [
        {"name": name, "circle": "inner", "roles": ["reality_check"], "steadying": True}
        for name in names
    ]
    EntryFactory.create(
        assignment=assign(cast.alice, "support_network"),
        response=RESPONSES["support_network"](people=people),
    )
    page = login(cast.alice.portal_user).get(reverse("homework:progress")).text
    assert sentence in page


def test_the_network_map_says_in_words_who_is_steadying_and_what_is_a_place(cast):
    """Steadying and person-or-place are drawn as fill and shape: the text
    alternative and the list beside the map say them too."""
    http = login(cast.alice.portal_user)
    assignment = assign(cast.alice, "support_network")
    http.post(do_url(assignment), {**envelope(), **posted_form(RESPONSES["support_network"]())})
    page = http.get(reverse("homework:progress")).text
    described = re.search(r"<desc[^>]*>(.*?)</desc>", page, re.S)
    assert described is not None
    for text in (described.group(1), page.split("</svg>", 1)[1]):
        assert "Jo (steadying)" in text
        # Mum's box was left unticked: she is named, with nothing said for the client.
        assert "Mum" in text and "Mum (not always steadying)" not in text
        assert "Tuesday group (a group, place or service)" in text


def test_a_crowded_closest_ring_on_the_map_says_how_many_it_does_not_draw(cast):
    """The map names five in the closest ring; the rest are a "+ n more" in
    the picture, and (role="img": only its title and description are read
    out) in its text alternative too."""
    http = login(cast.alice.portal_user)
    assignment = assign(cast.alice, "support_network")
    crowd = [{"name": f"Friend {n}", "circle": "inner"} for n in range(9)]
    network = RESPONSES["support_network"](people=crowd, places_and_services=[])
    http.post(do_url(assignment), {**envelope(), **posted_form(network)})
    page = http.get(reverse("homework:progress")).text
    assert "Closest: 9 people · Close: no one yet" in page
    described = re.search(r"<desc[^>]*>(.*?)</desc>", page, re.S)
    assert described is not None
    assert "Closest: 5 of 9 drawn, and “+ 4 more”." in described.group(1)
    assert ">+ 4 more</text>" in page


def test_the_network_headline_counts_the_places_the_map_draws_too(cast):
    """The map draws people as circles and places as squares: the words
    above it count both, and say which is which."""
    http = login(cast.alice.portal_user)
    assignment = assign(cast.alice, "support_network")
    network = RESPONSES["support_network"](
        people=[{"name": "Jo", "circle": "inner"}, {"name": "Sam", "circle": "inner"}],
        places_and_services=[
            {"name": "Tuesday group", "circle": "inner"},
            {"name": "Helpline", "circle": "outer"},
        ],
    )
    http.post(do_url(assignment), {**envelope(), **posted_form(network)})
    page = http.get(reverse("homework:progress")).text
    headline = re.search(r'<p class="progress__headline">(.*?)</p>', page, re.S)
    assert headline is not None
    assert headline.group(1) == (
        "Closest: 2 people and 1 place · Close: no one yet · Around me: 1 place"
    )


# What grades the client: a total, its name, or which way is better.
GRADING = ("Steadiness", "steadier", "out of 10", "total")


def test_the_client_sees_their_check_in_answers_but_no_score(cast):
    """CLINICAL.md: never a score that grades the client. The therapist keeps the total."""
    http = login(cast.alice.portal_user)
    assignment = assign(cast.alice, "worksheet")
    for pull in (8, 5):
        http.post(
            do_url(assignment), {**envelope(), **posted_form(RESPONSES["worksheet"](pull=pull))}
        )
    entry = Entry.objects.filter(assignment=assignment).latest("submitted_at")
    assert entry.score is not None  # kept, for the therapist

    shown = http.get(reverse("homework:entry", args=[entry.key])).text
    progress = http.get(reverse("homework:progress")).text
    for page in (shown, progress):
        assert not [word for word in GRADING if word.lower() in page.lower()]
    # The progress page shows the answers themselves, over time, as given.
    assert "How strong was the pull?" in progress and "How clear do you feel?" in progress
    assert "8" in progress and "5" in progress

    admin = login(cast.tara).get(reverse("admin:homework_entry_change", args=[entry.pk])).text
    assert "Steadiness" in admin and "higher means steadier" in admin


@pytest.mark.parametrize(
    ("days", "labels"),
    [
        # Kept across New Year: "3 Jan" could be either year.
        (
            [dt.date(2025, 12, 30), dt.date(2026, 1, 3)],
            ["30 Dec 2025: 6", "3 Jan 2026: 6"],
        ),
        # Within one year, the year goes without saying.
        ([dt.date(2026, 1, 3), dt.date(2026, 1, 10)], ["3 Jan: 6", "10 Jan: 6"]),
    ],
    ids=["across-new-year", "within-a-year"],
)
def test_check_in_charts_name_the_year_when_they_run_over_new_year(cast, days, labels):
    assignment = assign(cast.alice, "worksheet")
    for day in days:
        sent = timezone.make_aware(dt.datetime.combine(day, dt.time(12)))
        EntryFactory.create(
            assignment=assignment, response=RESPONSES["worksheet"](pull=6), submitted_at=sent
        )
    page = login(cast.alice.portal_user).get(reverse("homework:progress")).text
    described = re.findall(r"<desc[^>]*>(.*?)</desc>", page, re.S)
    assert described and described[0] == ", ".join(labels)
    assert f"<li>{labels[0]}</li>" in page  # and the answers in words


def test_the_clients_download_has_their_answers_but_no_score(cast):
    from homework import export

    http = login(cast.alice.portal_user)
    assignment = assign(cast.alice, "worksheet")
    http.post(do_url(assignment), {**envelope(), **posted_form(RESPONSES["worksheet"]())})
    printed = export.export_document(user=cast.alice.portal_user)
    assert "A long week." in printed
    assert not [word for word in GRADING if word.lower() in printed.lower()]


def test_progress_shows_only_my_own_work_and_escapes_names(cast):
    mine = assign(cast.alice, "support_network")
    theirs = assign(cast.bob, "support_network")
    http = login(cast.alice.portal_user)
    network = RESPONSES["support_network"](people=[{"name": "<b>Jo</b>", "circle": "inner"}])
    http.post(do_url(mine), {**envelope(), **posted_form(network)})
    EntryFactory.create(
        assignment=theirs,
        response=RESPONSES["support_network"](people=[{"name": "Bobsfriend", "circle": "inner"}]),
    )
    page = http.get(reverse("homework:progress")).text
    assert "<b>Jo</b>" not in page and "&lt;b&gt;Jo&lt;/b&gt;" in page
    assert "Bobsfriend" not in page


def test_progress_queries_hold_at_one_and_fifty(cast):
    http = login(cast.alice.portal_user)
    today = timezone.localdate()

    def add(count):
        for _ in range(count):
            a = assign(cast.alice, "urge_log", no_contact_since=today - dt.timedelta(days=3))
            urge_entry(a, today, 5)
            b = assign(cast.alice, "worksheet")
            EntryFactory.create(assignment=b, response=RESPONSES["worksheet"](), score=4.0)

    add(1)
    one = queries_for(http, reverse("homework:progress"))
    add(49)
    assert queries_for(http, reverse("homework:progress")) == one


def test_staff_and_strangers_do_not_reach_progress(cast):
    assert login(cast.tara).get(reverse("homework:progress")).status_code == 302
    assert login(None).get(reverse("homework:progress")).status_code == 302


# -- an entry from an older schema still shows everywhere


def test_an_entry_under_an_old_schema_still_displays_in_portal_admin_and_summary(cast, monkeypatch):
    kinds = dict(kind_registry._kinds())
    kinds["written_record"] = WrittenRecordV2()
    monkeypatch.setattr(kind_registry, "_kinds", lambda: kinds)
    old = EntryFactory.create(
        assignment=cast.alice_assignment,
        schema_version=1,
        response={
            "occurred_at": timezone.now().isoformat(),
            "what_happened": "Written long ago.",
            "distress": 6,
        },
    )
    portal = login(cast.alice.portal_user).get(reverse("homework:entry", args=[old.key]))
    assert "Written long ago." in portal.text and "6 / 10" in portal.text
    admin = login(cast.tara).get(reverse("admin:homework_entry_change", args=[old.pk]))
    assert "6 / 10" in admin.text
    kind = get_kind("written_record")
    summary = render_to_string(kind.summary_template, kind.summary_context([old]))
    assert "distress 6/10" in summary


# The answer decides contact at any hour; an urge log sent at each --clock moment
# is test_each_kind_is_filled_in_the_portal_and_read_by_the_therapist[urge_log].
@pytest.mark.parametrize(("answer", "contact"), [("none", False), ("me", True), ("them", True)])
def test_the_urge_log_asks_about_contact_once(cast, answer, contact):
    """No tick box and a question: "There was no contact / I / they reached
    out" is the whole answer, and contact follows from it."""
    assignment = assign(cast.alice, "urge_log")
    http = login(cast.alice.portal_user)
    page = http.get(do_url(assignment))
    assert 'name="r-contact_happened"' not in page.text
    assert 'name="r-contact_initiated_by"' in page.text
    key = uuid.uuid4()
    form = posted_form(RESPONSES["urge_log"](contact_initiated_by=answer))
    form.pop("r-contact_happened", None)  # the page has no such box to tick
    sent = http.post(do_url(assignment), {**envelope(key), **form})
    assert sent.status_code == 302, sent.content.decode()[:2000]
    response = Entry.objects.get(key=key).response
    assert (response["contact_happened"], response["contact_initiated_by"]) == (contact, answer)


def test_a_record_from_the_hour_the_clocks_went_back_is_sent_and_shown_as_typed(cast):
    assignment = assign(cast.alice, "written_record")
    http = login(cast.alice.portal_user)
    form = {
        **envelope(),
        **posted_form(RESPONSES["written_record"]()),
        "r-occurred_at": "2025-10-26T01:30",
    }
    response = http.post(do_url(assignment), form)
    assert response.status_code == 302
    entry = Entry.objects.get(assignment=assignment)
    assert entry.response["occurred_at"] == "2025-10-26T01:30:00+01:00"
    assert "Sunday 26 October 2025, 01:30" in http.get(response["Location"]).text


def test_a_record_at_a_time_the_clocks_skipped_is_refused_with_a_plain_message(cast):
    assignment = assign(cast.alice, "written_record")
    form = {
        **envelope(),
        **posted_form(RESPONSES["written_record"]()),
        "r-occurred_at": "2025-03-30T01:30",
    }
    response = login(cast.alice.portal_user).post(do_url(assignment), form)
    assert response.status_code == 400
    assert "The clocks went forward that night, so 01:30 did not happen." in response.text
    assert "interpreted" not in response.text
    assert not Entry.objects.filter(assignment=assignment).exists()


def test_the_largest_form_a_kind_allows_is_sent_in_any_script(cast):
    """A worksheet of the most questions, every one a long answer at its
    limit, written in a script a browser's form post sends as twelve bytes a
    character (emoji: four bytes, each percent-encoded). Every answer is
    within its limit, so the send must not fail on the size of the request."""
    from urllib.parse import urlencode

    from django.conf import settings

    from homework.kinds.worksheet.options import MAX_QUESTIONS

    questions = [
        {"key": f"q{n}", "type": "long_text", "text": f"Question {n}"} for n in range(MAX_QUESTIONS)
    ]
    exercise = ExerciseFactory.create(kind="worksheet", options={"questions": questions})
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    answer = "🌧️🌱" * (settings.LONG_TEXT_MAX_CHARS // 3)
    answer = answer[: settings.LONG_TEXT_MAX_CHARS]
    key = uuid.uuid4()
    body = urlencode(
        {**envelope(key), **posted_form({f"q{n}": answer for n in range(MAX_QUESTIONS)})}
    )
    http = login(cast.alice.portal_user)
    sent = http.post(do_url(assignment), body, content_type="application/x-www-form-urlencoded")
    assert sent.status_code == 302, sent.status_code
    assert Entry.objects.get(key=key).response["q0"] == answer
