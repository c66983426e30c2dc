"""What each kind gives the session summary: its section, its one-line facts, its excerpt."""

import base64
import datetime as dt
import re

import pytest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format

from homework.kinds import all_kinds, get_kind
from homework.kinds.limits import OLDER_LIST_LIMIT
from homework.kinds.values import SummaryScope
from practice.dates import calendar_day
from tests.factories import RESPONSES, AssignmentFactory, EntryFactory, ExerciseFactory, options_for


def charts_in(html: str) -> list[str]:
    """The SVG pictures a summary section embeds as data: images."""
    return [
        base64.b64decode(data).decode()
        for data in re.findall(
            r'<img class="chart" alt="[^"]*" src="data:image/svg\+xml;base64,([^"]+)">', html
        )
    ]


def entries_of(cast, slug, responses, **assignment_details):
    exercise = ExerciseFactory.create(kind=slug, title=f"The {slug} one", options=options_for(slug))
    assignment = AssignmentFactory.create(
        client=cast.alice, exercise=exercise, **assignment_details
    )
    kind = get_kind(slug)
    made = []
    for index, response in enumerate(responses):
        clean = kind.validate(response, exercise=exercise, tz="Europe/London")
        made.append(
            EntryFactory.create(
                assignment=assignment,
                response=clean,
                score=kind.score(clean, exercise=exercise),
                submitted_at=timezone.now() - dt.timedelta(days=len(responses) - index),
            )
        )
    return made


@pytest.mark.parametrize("kind", all_kinds(), ids=lambda kind: kind.slug)
@pytest.mark.parametrize("full_detail", [False, True])
def test_every_kind_renders_its_summary_section(cast, kind, full_detail):
    entries = entries_of(cast, kind.slug, [RESPONSES[kind.slug](), RESPONSES[kind.slug]()])
    html = render_to_string(
        kind.summary_template, kind.summary_context(entries, SummaryScope(full_detail=full_detail))
    )
    assert html.strip()
    assert kind.excerpt(entries[0]) or kind.slug == "written_record"
    assert isinstance(kind.at_a_glance(entries), list)


def test_safety_plan_summary_says_only_that_it_exists_unless_full_detail(cast):
    kind = get_kind("safety_plan")
    entries = entries_of(cast, "safety_plan", [RESPONSES["safety_plan"]()])
    brief_scope = SummaryScope(current=entries[0])
    brief = render_to_string(kind.summary_template, kind.summary_context(entries, brief_scope))
    assert "in place, last changed" in brief
    assert "its contents print only with full detail" in brief
    assert "pineapple" not in brief and "Jo" not in brief
    full_scope = SummaryScope(full_detail=True, current=entries[0])
    full = render_to_string(kind.summary_template, kind.summary_context(entries, full_scope))
    assert "pineapple" in full
    assert kind.at_a_glance(entries, brief_scope)[0].startswith(
        "The safety_plan one: in place, last changed"
    )
    assert "pineapple" not in kind.excerpt(entries[0])


def test_a_summary_without_a_current_safety_plan_says_none_was_shared(cast):
    kind = get_kind("safety_plan")
    html = render_to_string(kind.summary_template, kind.summary_context([], BRIEF_SCOPE))
    assert "No safety plan has been shared" in html
    assert kind.at_a_glance([], BRIEF_SCOPE) == ["No safety plan has been shared."]


BRIEF_SCOPE = SummaryScope()


def urges(start: dt.date, days: int, intensity_for, contact_on=None):
    made = []
    for day in range(days):
        # The first minute of the day: never in the future, whenever the suite runs.
        at = timezone.make_aware(dt.datetime.combine(start + dt.timedelta(days=day), dt.time(0)))
        contact = day == contact_on
        made.append(
            RESPONSES["urge_log"](
                at=at.strftime("%Y-%m-%dT%H:%M"),
                intensity=intensity_for(day),
                contact_happened=contact,
                contact_initiated_by="me" if contact else "none",
            )
        )
    return made


def test_urge_log_at_a_glance_counts_days_without_contact_and_sees_urges_easing(cast):
    today = timezone.localdate()
    start = today - dt.timedelta(days=20)
    entries = entries_of(
        cast, "urge_log", urges(start, 21, lambda d: 9 - d // 3), no_contact_since=start
    )
    assert get_kind("urge_log").at_a_glance(entries) == [
        f"The urge_log one: no contact for 20 days (since {start:%-d %b}).",
        "Urges easing: mean 8.3 in the first week logged, 3.7 in the last.",
    ]


def test_urge_log_after_contact_counts_from_the_contact_and_says_who_reached_out(cast):
    today = timezone.localdate()
    start = today - dt.timedelta(days=20)
    entries = entries_of(
        cast, "urge_log", urges(start, 21, lambda d: 5, contact_on=15), no_contact_since=start
    )
    lines = get_kind("urge_log").at_a_glance(entries)
    contact_day = start + dt.timedelta(days=15)
    expected = (
        f"The urge_log one: no contact for 5 days; last contact {contact_day:%-d %b} "
        "(the client reached out)."
    )
    assert lines[0] == expected
    assert lines[1].startswith("Urges about the same")


def test_urge_log_too_early_for_a_trend_says_nothing_about_one(cast):
    today = timezone.localdate()
    entries = entries_of(cast, "urge_log", urges(today - dt.timedelta(days=4), 5, lambda d: 8 - d))
    lines = get_kind("urge_log").at_a_glance(entries)
    # No date given for when no contact began: only what the log holds is said.
    assert len(lines) == 1 and lines[0].startswith("The urge_log one: no contact logged since")


def test_urge_log_at_a_glance_names_each_tracker_so_two_are_told_apart(cast):
    """Two trackers at once (one just begun, one a month old) printed their
    counts side by side with nothing to say which was which; the other
    kinds' lines start with their exercise's title, and so do these."""
    today = timezone.localdate()
    month = today - dt.timedelta(days=29)
    older = entries_of(cast, "urge_log", urges(month, 5, lambda d: 6), no_contact_since=month)
    newer_exercise = ExerciseFactory.create(
        kind="urge_log", title="Notice the pull", options=options_for("urge_log")
    )
    newer = AssignmentFactory.create(
        client=cast.alice, exercise=newer_exercise, no_contact_since=today
    )
    kind = get_kind("urge_log")
    clean = kind.validate(
        urges(today, 1, lambda d: 9)[0], exercise=newer_exercise, tz="Europe/London"
    )
    just_begun = EntryFactory.create(assignment=newer, response=clean, submitted_at=timezone.now())
    lines = kind.at_a_glance([*older, just_begun])
    assert f"The urge_log one: no contact for 29 days (since {month:%-d %b})." in lines
    assert f"Notice the pull: just begun, no contact since {today:%-d %b} (day 1)." in lines


def first_days(cast, days_in: int, *, contact_today: bool = False):
    """An urge log begun ``days_in`` days ago, an urge logged on each day to today."""
    start = timezone.localdate() - dt.timedelta(days=days_in)
    return entries_of(
        cast,
        "urge_log",
        urges(start, days_in + 1, lambda d: 7, contact_on=days_in if contact_today else None),
        no_contact_since=start,
    )


def test_urge_log_begun_today_reads_as_day_1_not_as_0_days(cast):
    """ "No contact for 0 days" reads like failing on the day someone begins."""
    today = timezone.localdate()
    kind = get_kind("urge_log")
    entries = first_days(cast, 0)
    assert kind.at_a_glance(entries) == [
        f"The urge_log one: just begun, no contact since {today:%-d %b} (day 1)."
    ]
    html = render_to_string(kind.summary_template, kind.summary_context(entries))
    assert "0 days" not in html
    assert f"Just begun: no contact since {date_format(today, 'j M Y')} (day 1)." in html


def test_urge_log_with_contact_on_its_last_day_says_when_not_0_days(cast):
    today = timezone.localdate()
    kind = get_kind("urge_log")
    entries = first_days(cast, 3, contact_today=True)
    assert kind.at_a_glance(entries) == [
        f"The urge_log one: last contact {today:%-d %b} (the client reached out), "
        "the last day this summary covers."
    ]
    html = render_to_string(kind.summary_template, kind.summary_context(entries))
    assert "0 days" not in html
    assert (
        f"Last contact on {date_format(today, 'j M Y')}, the last day this summary covers." in html
    )


@pytest.mark.parametrize(("days_in", "counted"), [(1, "1 day"), (6, "6 days")])
def test_urge_log_a_day_or_more_in_counts_the_days_without_contact(cast, days_in, counted):
    start = timezone.localdate() - dt.timedelta(days=days_in)
    kind = get_kind("urge_log")
    entries = first_days(cast, days_in)
    assert kind.at_a_glance(entries) == [
        f"The urge_log one: no contact for {counted} (since {start:%-d %b})."
    ]
    html = render_to_string(kind.summary_template, kind.summary_context(entries))
    assert f"{counted} without contact, since {date_format(start, 'j M Y')}." in html
    assert "Just begun" not in html


def test_urge_summary_draws_the_curve_with_a_table_beside_it(cast):
    today = timezone.localdate()
    start = today - dt.timedelta(days=9)
    kind = get_kind("urge_log")
    entries = entries_of(
        cast,
        "urge_log",
        urges(start, 10, lambda d: 9 - d // 2, contact_on=3),
        no_contact_since=start,
    )
    html = render_to_string(kind.summary_template, kind.summary_context(entries))
    [chart] = charts_in(html)
    assert chart.startswith("<svg") and "<polyline" in chart
    drawn = re.findall(r"<text [^>]*>([^<]*)</text>", chart)
    # The scale and the dates on the axes; the contacts' key in words beside it, in the
    # therapist's words.
    assert drawn[:3] == ["0", "5", "10"]
    assert calendar_day(start, "j M") in drawn and calendar_day(today, "j M") in drawn
    assert "reached out" not in chart
    assert "Contact:" in html and "(the client reached out)" in html
    assert "● the client reached out" in html
    assert "Strongest pull by day" not in html  # the day-by-day figures are full detail
    full = render_to_string(
        kind.summary_template,
        {**kind.summary_context(entries, SummaryScope(full_detail=True)), "full_detail": True},
    )
    assert "Strongest pull by day" in full


def test_urge_summary_key_names_the_marks_drawn_as_they_are_drawn(cast):
    """Only the other person reached out: the key names the hollow triangle
    the chart draws for that, and no mark the chart does not have."""
    today = timezone.localdate()
    start = today - dt.timedelta(days=9)
    kind = get_kind("urge_log")
    responses = urges(start, 10, lambda d: 5, contact_on=3)
    responses[3]["contact_initiated_by"] = "them"
    entries = entries_of(cast, "urge_log", responses, no_contact_since=start)
    html = render_to_string(kind.summary_template, kind.summary_context(entries))
    [chart] = charts_in(html)
    assert 'fill="#fff"' in chart and "<polygon" in chart  # drawn hollow
    assert "△ the other person reached out" in html
    assert "▲" not in html and "the client did" not in html


def test_urge_summary_names_the_latest_contacts_and_counts_the_rest(cast):
    """Contact most days for a month: the newest few are named by day, the
    rest counted, so the line stays a line (the chart marks them all)."""
    today = timezone.localdate()
    start = today - dt.timedelta(days=29)
    kind = get_kind("urge_log")
    responses = urges(start, 30, lambda d: 5)
    for response in responses:
        response.update(contact_happened=True, contact_initiated_by="them")
    entries = entries_of(cast, "urge_log", responses, no_contact_since=start)
    html = render_to_string(kind.summary_template, kind.summary_context(entries))
    contact_line = html[html.index("Contacts, newest first:") :]
    contact_line = contact_line[: contact_line.index("</p>")]
    assert contact_line.count("(the other person reached out)") == OLDER_LIST_LIMIT
    assert date_format(today, "j M") in contact_line  # the newest is named
    assert f"and {30 - OLDER_LIST_LIMIT} earlier, in the portal" in contact_line
    full = render_to_string(
        kind.summary_template, kind.summary_context(entries, SummaryScope(full_detail=True))
    )
    assert full.count("(the other person reached out)") >= 30


def test_support_network_summary_tells_what_changed_since_the_last_map(cast):
    kind = get_kind("support_network")
    before = RESPONSES["support_network"]()
    after = RESPONSES["support_network"](
        people=[
            {"name": "Jo", "circle": "middle", "roles": ["reality_check"]},
            {"name": "Priya", "circle": "inner", "roles": ["reality_check"], "steadying": True},
        ]
    )
    entries = entries_of(cast, "support_network", [before, after])
    context = kind.summary_context(entries)
    assert context["maps"][0]["changes"] == [
        "Jo moved further out",
        "Priya added",
        "Mum no longer on the map",
    ]
    assert context["maps"][0]["reality_check"] == ["Jo", "Priya"]
    assert kind.at_a_glance(entries) == [
        "The support_network one: closest: 1 person, close: 1 person, around me: 1 place; "
        "2 for a reality check."
    ]


def test_a_crowded_closest_ring_is_named_in_the_picture_as_far_as_it_has_room(cast):
    """The words name a dozen a ring and count the rest; the picture names its first five and
    counts the rest in it, as the client's own map does."""
    kind = get_kind("support_network")
    crowd = RESPONSES["support_network"](
        people=[
            {"name": f"Friend {n}", "circle": "inner", "steadying": n % 2 == 0} for n in range(40)
        ],
        places_and_services=[],
    )
    entries = entries_of(cast, "support_network", [crowd])
    html = render_to_string(kind.summary_template, kind.summary_context(entries))
    assert "Friend 10, Friend 11 and 28 more, in the portal" in re.sub(r"\s+", " ", html)
    [chart] = charts_in(html)
    drawn = re.findall(r"<text [^>]*>([^<]*)</text>", chart)
    assert "+ 35 more" in drawn
    # Each name cut to its room, its number kept on a line of its own.
    assert [text for text in drawn if text.isdigit()] == ["0", "1", "2", "3", "4"]


def test_boundary_summary_shows_the_latest_ladder_with_what_held(cast):
    kind = get_kind("boundary_steps")
    entries = entries_of(cast, "boundary_steps", [RESPONSES["boundary_steps"]()])
    assert kind.at_a_glance(entries) == ["The boundary_steps one: 1 held, 1 planned."]
    html = render_to_string(kind.summary_template, kind.summary_context(entries))
    # The ladder is written out, a line a step, first step first.
    assert "1. It held" in html and "2. Planned: Sunday lunch with my sister." in html
    assert charts_in(html) == []


def test_check_in_totals_are_charted_over_time_as_a_reflection(cast):
    kind = get_kind("worksheet")
    entries = entries_of(
        cast,
        "worksheet",
        [
            RESPONSES["worksheet"](pull=9, clarity=2),
            RESPONSES["worksheet"](pull=5, clarity=5),
            RESPONSES["worksheet"](pull=2, clarity=8),
        ],
    )
    assert [entry.score for entry in entries] == [1.5, 5.0, 8.0]
    html = render_to_string(kind.summary_template, kind.summary_context(entries))
    [chart] = charts_in(html)
    assert len(re.findall(r"M[\d.]+ [\d.]+h0", chart)) == 3  # a dot a check-in
    assert "A reflection, not a diagnosis." in html
    assert re.search(r"1\.5 · .*: 5(\.0)? · .*: 8(\.0)?\.", html)  # the values, in words
    assert kind.at_a_glance(entries) == [
        "The worksheet one: 1.5 → 8 (higher is steadier; a reflection, not a diagnosis)."
    ]


def test_a_worksheet_answer_whose_question_was_edited_away_is_still_shown(cast):
    kind = get_kind("worksheet")
    [entry] = entries_of(cast, "worksheet", [RESPONSES["worksheet"]()])
    exercise = entry.assignment.exercise
    exercise.options = {
        "questions": [q for q in exercise.options["questions"] if q["key"] != "story"]
    }
    exercise.save()
    answers = kind.present(entry)["answers"]
    assert {
        "key": "story",
        "question": "An earlier question (story)",
        "answer": "A long week.",
        "type": "",
        "scored": False,
        "now": "",
    } in answers


def test_a_check_ins_scored_answers_are_summed_up_unless_in_full_detail(cast):
    kind = get_kind("worksheet")
    entries = entries_of(cast, "worksheet", [RESPONSES["worksheet"](pull=9, clarity=2)])
    brief = render_to_string(kind.summary_template, kind.summary_context(entries))
    assert "How strong was the pull?" not in brief
    assert "Steadiness (higher means steadier)" in brief and ": 1.5." in brief
    assert "One word for the week" in brief  # unscored answers are shown
    full = render_to_string(
        kind.summary_template, kind.summary_context(entries, SummaryScope(full_detail=True))
    )
    assert "How strong was the pull?" in full


def test_a_scale_answer_sent_before_scoring_began_is_shown_itself(cast):
    """A check-in sent before the therapist made its scales count towards a
    total has none: its scale answers are shown themselves rather than left
    to a total that is not there."""
    kind = get_kind("worksheet")
    entries = entries_of(cast, "worksheet", [RESPONSES["worksheet"](pull=9)])
    entries[0].score = None  # as sent before the questions were scored
    entries[0].save()
    brief = render_to_string(kind.summary_template, kind.summary_context(entries))
    assert "How strong was the pull?" in brief and "9 / 10" in brief


def test_a_repeated_worksheet_reads_question_by_question_newest_answer_first(cast):
    kind = get_kind("worksheet")
    entries = entries_of(
        cast,
        "worksheet",
        [RESPONSES["worksheet"](word=word) for word in ("tired", "lighter", "hopeful")],
    )
    html = render_to_string(kind.summary_template, kind.summary_context(entries))
    assert html.count("One word for the week") == 1
    assert html.index("hopeful") < html.index("lighter") < html.index("tired")
    days = [date_format(timezone.localtime(entry.submitted_at), "D j M") for entry in entries]
    assert f"{days[2]}</span> hopeful" in html and f"{days[0]}</span> tired" in html


def test_a_worksheet_sent_once_gives_its_date_once(cast):
    kind = get_kind("worksheet")
    [entry] = entries_of(cast, "worksheet", [RESPONSES["worksheet"](word="tired")])
    html = render_to_string(kind.summary_template, kind.summary_context([entry]))
    day = date_format(timezone.localtime(entry.submitted_at), "D j M")
    assert f"The worksheet one · sent {day}" in html
    assert "— tired" not in html and ">tired<" in html


def test_written_records_are_counted_under_their_exercise_newest_first(cast):
    kind = get_kind("written_record")
    entries = entries_of(cast, "written_record", [RESPONSES["written_record"]()] * 3)
    html = render_to_string(kind.summary_template, kind.summary_context(entries))
    assert "The written_record one · 3 records, newest first" in html


def test_written_records_of_one_distress_say_it_once(cast):
    """Three records all at 7 read "distress 7 to 7 out of 10, on average 7.0"."""
    kind = get_kind("written_record")
    alike = [RESPONSES["written_record"](body_distress=7) for _ in range(3)]
    assert kind.at_a_glance(entries_of(cast, "written_record", alike)) == [
        "3 records · distress 7 out of 10 each time"
    ]
    apart = [RESPONSES["written_record"](body_distress=value) for value in (3, 8)]
    assert kind.at_a_glance(entries_of(cast, "written_record", apart))[0].endswith(
        "distress 3 to 8 out of 10, on average 5.5"
    )


def test_the_average_distress_is_rounded_not_cut_short(cast):
    """5, 8 and 7 average 6.67: "6.7", as the urge log's averages read, not "6.6"."""
    kind = get_kind("written_record")
    records = [RESPONSES["written_record"](body_distress=value) for value in (5, 8, 7)]
    assert kind.at_a_glance(entries_of(cast, "written_record", records))[0].endswith(
        "distress 5 to 8 out of 10, on average 6.7"
    )


def test_urge_log_in_full_detail_lists_the_urges_newest_first(cast):
    """As the written records and the contacts are: a therapist reading before
    a session starts from the latest. By when the urge came, not when it was
    sent: one logged the next morning still reads in its place."""
    kind = get_kind("urge_log")
    now = timezone.localtime()
    came = {
        "Oldest urge.": now - dt.timedelta(days=3),
        "Middle urge.": now - dt.timedelta(days=2),
        "Newest urge.": now - dt.timedelta(days=1),
    }
    # Sent in this order: the oldest one last, the morning after the newest.
    sent_in_order = ["Middle urge.", "Newest urge.", "Oldest urge."]
    entries = entries_of(
        cast,
        "urge_log",
        [
            RESPONSES["urge_log"](at=came[note].strftime("%Y-%m-%dT%H:%M"), trigger_note=note)
            for note in sent_in_order
        ],
    )
    full = render_to_string(
        kind.summary_template,
        {**kind.summary_context(entries, SummaryScope(full_detail=True)), "full_detail": True},
    )
    assert "Each urge, newest first" in full
    assert full.index("Newest urge.") < full.index("Middle urge.") < full.index("Oldest urge.")
    # The figures by day stay in the chart's order, first day first.
    days = [date_format(came[note], "j M") for note in ("Oldest urge.", "Newest urge.")]
    by_day = full[full.index("Strongest pull by day") :]
    assert by_day.index(f"{days[0]}: 7") < by_day.index(f"{days[1]}: 7")


HEAVY = {"key": "heavy", "type": "scale_0_10", "text": "How heavy did the week feel?"}
TOLD = {"key": "told", "type": "long_text", "text": "Anything you want me to know?"}


def worksheet_entry(cast, questions, response, *, score=None):
    exercise = ExerciseFactory.create(
        kind="worksheet", title="Weekly check-in", options={"questions": questions}
    )
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    return EntryFactory.create(assignment=assignment, response=response, score=score)


def test_a_worksheets_excerpt_says_what_a_scale_answer_answers(cast):
    """A bare "8 / 10" on the first page tells the therapist nothing."""
    kind = get_kind("worksheet")
    entry = worksheet_entry(cast, [HEAVY, TOLD], {"heavy": 8})
    assert kind.excerpt(entry) == "How heavy did the week feel? 8 / 10"


def test_a_worksheets_excerpt_prefers_the_clients_own_words(cast):
    kind = get_kind("worksheet")
    entry = worksheet_entry(
        cast, [HEAVY, TOLD], {"heavy": 8, "told": "I nearly called them on Sunday."}
    )
    assert kind.excerpt(entry) == "I nearly called them on Sunday."


def test_a_check_ins_excerpt_gives_its_total_and_then_the_clients_words(cast):
    kind = get_kind("worksheet")
    [entry] = entries_of(cast, "worksheet", [RESPONSES["worksheet"](pull=9, clarity=2)])
    assert kind.excerpt(entry) == "Steadiness: 1.5 · tired"


def test_a_long_question_is_cut_so_its_answer_still_shows_on_the_line(cast):
    from homework.kinds.excerpts import LINE_CHARS

    kind = get_kind("worksheet")
    long_question = {**HEAVY, "text": "Thinking back over all of the days since we last met, " * 4}
    entry = worksheet_entry(cast, [long_question], {"heavy": 8})
    excerpt = kind.excerpt(entry)
    assert excerpt.startswith("Thinking back over") and excerpt.endswith("… 8 / 10")
    assert len(excerpt) <= LINE_CHARS
