"""The summary PDF read back: what is on it, what never is, and how it looks."""

import datetime as dt
import io
import logging
import re
import subprocess
import time
import uuid

import pytest
from django.utils import timezone
from django.utils.formats import date_format
from pypdf import PdfReader

from bench.clients import typical_client
from homework.kinds import get_kind
from homework.kinds.limits import EXCERPT_CHARS
from homework.models import Assignment, Entry
from homework.selectors.period import PeriodQuery, period_for_dates
from homework.summary import render, selectors
from practice.models import PracticeSettings
from practice.selectors import practice_settings
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    SessionFactory,
    daily_assignment,
    urge_log,
    weekly_assignment,
)
from tests.helpers import day_pattern
from tests.helpers_summary import summary_data_for, summary_document, the_last
from tests.listener import Listener

from .conftest import add, page_count, pdf_text, record

pytestmark = pytest.mark.django_db


def summary_for(user, client, *, since_days=21, full_detail=False):
    return render.summary_document(
        summary_data_for(user, client, the_last(since_days), full_detail=full_detail)
    )


def pdf_for(user, client, **kwargs) -> bytes:
    return render.render_summary_pdf(
        summary_for(user, client, **kwargs), generated_at=timezone.now()
    )


def test_pdf_shows_header_flags_work_and_each_section(cast):
    add(
        cast.alice_assignment,
        what_happened="They took my bank card to keep it safe.",
        felt_unsafe=True,
    )
    add(
        cast.alice_assignment,
        what_happened="A kind message after three days of silence.",
        discuss_in_session=True,
    )
    text = pdf_text(pdf_for(cast.tara, cast.alice))
    assert "Alice" in text and "Tara" in text
    upper = text.upper()  # small headings are set in capitals
    assert upper.startswith("SUMMARY · ")  # for chosen dates (pdf_for), not a session
    assert "At a glance" in text
    assert upper.index("FELT UNSAFE") < upper.index("WANTS TO TALK ABOUT THIS IN SESSION")
    assert "They took my bank card to keep it safe." in text
    assert "ASSIGNED WORK" in upper and "1 done" in text
    assert f"Done: {cast.alice_assignment.exercise.title}" in text  # finished work, named once
    assert "3 records" in text  # the written record's own line on the first page
    assert "Written record" in text
    assert cast.alice_entry.response["what_happened"] in text
    assert "Page 1 of 1" in text
    assert "Confidential" in text


def test_pdf_never_shows_private_entries_drafts_or_another_clients_words(cast):
    add(
        cast.alice_assignment,
        what_happened="PRIVATE-WORDS kept for myself",
        private=True,
        felt_unsafe=True,
    )
    add(cast.alice_assignment, what_happened="DRAFT-WORDS not sent yet", status=Entry.Status.DRAFT)
    add(cast.bob_assignment, what_happened="BOB-WORDS from another client", felt_unsafe=True)
    for full_detail in (False, True):
        text = pdf_text(pdf_for(cast.tara, cast.alice, full_detail=full_detail))
        assert cast.alice_entry.response["what_happened"] in text
        for secret in ("PRIVATE-WORDS", "DRAFT-WORDS", "BOB-WORDS", "Bob"):
            assert secret not in text
    assert "FELT UNSAFE" not in pdf_text(pdf_for(cast.tara, cast.alice)).upper()


def test_an_empty_period_says_so_calmly(cast):
    today = timezone.localdate()
    period = period_for_dates(
        since=today - dt.timedelta(days=90), until=today - dt.timedelta(days=60), session=None
    )
    data = summary_data_for(cast.tara, cast.alice, period)
    text = pdf_text(
        render.render_summary_pdf(render.summary_document(data), generated_at=timezone.now())
    )
    assert "No entries were flagged in this period." in text
    assert "Nothing was shared in this period." in text


def header_for_next_session(cast) -> str:
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=timezone.now()
    )
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=timezone.now()
    )
    html = render.summary_document(data).html
    return html[: html.index("</header>")]


def test_with_no_earlier_session_the_header_says_so(cast):
    header = header_for_next_session(cast)
    assert "the last 4 weeks — no earlier session is recorded" in header
    assert "since the last session" not in header
    SessionFactory.create(client=cast.alice, starts_at=timezone.now() - dt.timedelta(days=7))
    assert "since the last session" in header_for_next_session(cast)


def test_the_session_it_is_for_is_named(cast):
    starts = timezone.localtime() + dt.timedelta(days=1)
    session = SessionFactory.create(client=cast.alice, starts_at=starts.replace(hour=10, minute=0))
    document, text = document_for(
        cast,
        selectors.period_for_session(
            user=cast.tara, client=cast.alice, target=session, now=timezone.now()
        ),
    )
    assert f"the session on {starts:%A} {starts.day} {starts:%B %Y}, 10:00" in text
    assert document.filename == f"session-summary-{starts:%Y-%m-%d}.pdf"


def test_chosen_dates_are_named_not_the_session_after_them(cast):
    """Chosen dates said "for the session on ..." of the session after them,
    and took that session's file name: saving one overwrote the other."""
    starts = timezone.localtime() + dt.timedelta(days=1)
    session = SessionFactory.create(client=cast.alice, starts_at=starts.replace(hour=10, minute=0))
    since = dt.date(2025, 11, 10)
    until = dt.date(2025, 11, 30)
    document, text = document_for(cast, period_for_dates(since=since, until=until, session=session))
    assert "dates chosen: entries shared 10 Nov – 30 Nov 2025" in text
    assert "the session on" not in text
    assert "no session booked" not in text
    assert document.filename == "summary-2025-11-10-to-2025-11-30.pdf"
    _, across = document_for(
        cast, period_for_dates(since=dt.date(2025, 12, 20), until=dt.date(2026, 1, 5), session=None)
    )
    assert "dates chosen: entries shared 20 Dec 2025 – 5 Jan 2026" in across


def test_chosen_dates_say_entries_are_chosen_by_the_day_they_were_shared(cast):
    """A hard evening on 30 November, written down and sent on 1 December,
    is not in a summary for 30 November: the masthead says which day counts."""
    evening = timezone.make_aware(dt.datetime(2026, 11, 30, 21, 0))
    add(
        cast.alice_assignment,
        days_ago=(timezone.now() - evening).total_seconds() / 86400 - 0.5,
        occurred_at=evening.isoformat(),
        what_happened="A hard evening.",
    )
    day = dt.date(2026, 11, 30)
    _, text = document_for(cast, period_for_dates(since=day, until=day, session=None))
    assert "dates chosen: entries shared 30 Nov 2026" in text
    assert "Nothing was shared in this period." in text


def document_for(cast, period):
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=timezone.now()
    )
    document = render.summary_document(data)
    return document, pdf_text(render.render_summary_pdf(document, generated_at=timezone.now()))


def test_long_text_is_excerpted_unless_full_detail(cast):
    long_text = "I kept thinking about it. " * 60 + "THE-VERY-END"
    add(cast.alice_assignment, what_happened=long_text)
    short = pdf_text(pdf_for(cast.tara, cast.alice))
    assert "(continued in the portal)" in short
    assert "THE-VERY-END" not in short
    assert len(long_text) > EXCERPT_CHARS
    full = pdf_text(pdf_for(cast.tara, cast.alice, full_detail=True))
    assert "THE-VERY-END" in full
    assert "FULL DETAIL" in full


def test_recurring_work_is_counted_in_its_own_unit(cast):
    today = timezone.localdate()
    for schedule, title in (
        (Assignment.Schedule.DAILY, "Every evening"),
        (Assignment.Schedule.WEEKLY, "Every Monday"),
    ):
        AssignmentFactory.create(
            client=cast.alice,
            exercise=ExerciseFactory.create(title=title),
            schedule=schedule,
            weekdays=[today.weekday()],
            starts_on=today - dt.timedelta(days=13),
            due_on=None,
            ends_on=today + dt.timedelta(days=20),
        )
    text = " ".join(pdf_text(pdf_for(cast.tara, cast.alice)).split())
    # Today is not over: its slot is open, not yet expected.
    assert "Every evening — 0 of 13 days" in text
    assert "Every Monday — 0 of 1 week" in text


def test_work_on_several_days_a_week_is_counted_in_check_ins_not_weeks(cast):
    """Mondays and Thursdays through November: eight check-ins due in it, not
    "8 weeks" in a 30-day month (Monday 30's is open until Thursday 3
    December, so it is the next period's to count: test_weekly_slots)."""
    weekly_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(title="One small boundary"),
        weekdays=[0, 3],
        starts_on=dt.date(2026, 11, 1),
        ends_on=dt.date(2026, 12, 31),
    )
    period = period_for_dates(since=dt.date(2026, 11, 1), until=dt.date(2026, 11, 30), session=None)
    data = selectors.summary_data(
        user=cast.tara,
        client=cast.alice,
        period=period,
        full_detail=False,
        now=timezone.make_aware(dt.datetime(2026, 12, 5, 12)),
    )
    html = render.summary_document(data).html
    assert "One small boundary — 0 of 8 check-ins" in html
    assert "8 weeks" not in html


def work_tally(cast) -> str:
    text = pdf_text(pdf_for(cast.tara, cast.alice))
    return text[text.upper().index("ASSIGNED WORK") :]


def daily_work(cast, title="Every evening"):
    today = timezone.localdate()
    return daily_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(title=title),
        starts_on=today - dt.timedelta(days=6),
        ends_on=today + dt.timedelta(days=20),
    )


def test_the_work_tally_counts_one_off_work_and_names_recurring_work_apart(cast):
    """Three lines of work read "1 done · 1 open · 0 past its due date": the
    recurring one, counted on its own line, was in no clause of the tally."""
    daily_work(cast)
    AssignmentFactory.create(client=cast.alice, due_on=timezone.localdate() + dt.timedelta(days=3))
    tally = work_tally(cast)
    one_off = tally[tally.index("One-off work:") :][:80]
    assert re.match(r"One-off work: 1 done\W+1 open\W+0 past its due", one_off), one_off
    assert "Recurring work counts the days (or weeks) of this period" in tally
    assert "Every evening — 0 of 6 days done" in tally


def test_with_only_recurring_work_the_tally_counts_no_one_off_work(cast):
    cast.alice_entry.delete()
    cast.alice_assignment.delete()
    daily_work(cast)
    daily_work(cast, title="Every morning")
    tally = work_tally(cast)
    assert "Recurring work counts the days (or weeks) of this period" in tally
    assert "One-off work" not in tally and "done ·" not in tally


def test_with_only_one_off_work_the_tally_says_so(cast):
    tally = work_tally(cast)
    assert "One-off work: 1 done · 0 open · 0 past its due date" in tally
    assert "Recurring" not in tally


def test_a_due_date_in_another_year_names_its_year(cast):
    AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(title="Long ago"),
        starts_on=dt.date(2019, 12, 1),
        due_on=dt.date(2020, 1, 5),
    )
    html = summary_for(cast.tara, cast.alice).html
    assert "Long ago — due 5 Jan 2020, not done" in html


def test_a_year_of_daily_records_prints_on_at_most_three_pages(cast, artifacts):
    today = timezone.localdate()
    log = daily_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(title="Every day, the full picture"),
        starts_on=today - dt.timedelta(days=366),
        ends_on=today,
    )
    Entry.objects.bulk_create(
        [
            record(
                log,
                days_ago=n + 0.2,
                what_happened=f"Day {n}: " + "what happened, at some length. " * 20,
                felt_unsafe=n % 9 == 0,
                discuss_in_session=n % 4 == 0,
            )
            for n in range(366)
        ]
    )
    pdf = pdf_for(cast.tara, cast.alice, since_days=370)
    (artifacts / "summary-a-year-of-records.pdf").write_bytes(pdf)
    assert page_count(pdf) <= 3
    text = pdf_text(pdf)
    assert "Day 0:" in text  # the newest record is there
    assert "more, continued in the portal" in text
    assert "367 records" in text


def test_the_benchmarks_typical_client_prints_on_three_pages():
    """For the three weeks `make bench` measures: two pages, and a third since the support map is
    drawn large enough to read the names on it (issue 38)."""
    therapist, client, _count = typical_client()
    period = selectors.resolve_period(
        user=therapist, client=client, query=PeriodQuery(), now=timezone.now()
    )
    data = selectors.summary_data(
        user=therapist, client=client, period=period, full_detail=False, now=timezone.now()
    )
    pdf = render.render_summary_pdf(render.summary_document(data), generated_at=timezone.now())
    assert page_count(pdf) == 3
    text = " ".join(pdf_text(pdf).split())
    for heading in ("Written record", "Urge log", "Boundary steps", "Support-network map"):
        assert heading in text
    assert "Reflection worksheet" in text and "Safety plan" in text
    assert "Earlier records, listed by date with their distress:" in text
    # The cycle on one timeline, with the records beside it fewer in words.
    assert "On one timeline" in text
    assert "10 records, newest first" in text


def test_the_charts_are_named_for_a_screen_reader(caplog):
    """Each picture's alt text is its chart's title; the tagged PDF needs one
    (WeasyPrint warns of a picture without) and a screen reader reads it."""
    therapist, client, _count = typical_client()
    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        document = summary_for(therapist, client)
        render.render_summary_pdf(document, generated_at=timezone.now())
    assert 'alt=""' not in document.html
    assert "The strongest pull each day" in document.html
    assert not [record for record in caplog.records if "alt" in record.getMessage()]


def test_older_records_are_named_by_date_and_distress_and_the_rest_counted(cast):
    now = timezone.localtime()
    for n in range(20):
        add(
            cast.alice_assignment,
            days_ago=n + 0.5,
            what_happened=f"Record number {n}.",
            body_distress=n % 11,
            felt_unsafe=n == 7,
        )
    text = " ".join(pdf_text(pdf_for(cast.tara, cast.alice)).split())
    # Six in words (the cast's own record is the newest), the next eight by
    # date, and the last seven counted.
    assert "Record number 4." in text and "Record number 5." not in text
    older = text.split("Earlier records, listed by date with their distress:", 1)[1]
    seventh = day_pattern(now - dt.timedelta(days=7.5, hours=1), "D j M")
    assert re.search(f"{seventh} 7/10, felt unsafe", older)
    assert "and 7 more." in older
    full = " ".join(pdf_text(pdf_for(cast.tara, cast.alice, full_detail=True)).split())
    assert "Record number 19." in full and "Earlier records, listed" not in full


def test_section_heading_repeats_on_every_page_it_runs_onto(cast):
    Entry.objects.bulk_create(
        [
            record(cast.alice_assignment, days_ago=n + 0.5, what_happened="A long evening. " * 60)
            for n in range(20)
        ]
    )
    pdf = pdf_for(cast.tara, cast.alice, full_detail=True)
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) >= 3
    assert "Written record, continued" not in reader.pages[0].extract_text()
    for number, page in enumerate(reader.pages[1:], start=2):
        text = page.extract_text()
        assert "Written record, continued" in text, f"page {number} lost its heading"
        assert f"Page {number} of {len(reader.pages)}" in " ".join(text.split())


@pytest.mark.parametrize(("paper", "width_mm"), [("A4", 210), ("Letter", 215.9)])
def test_paper_size_follows_the_practice_setting(cast, paper, width_mm):
    PracticeSettings.objects.filter(pk=1).update(paper_size=paper)
    reader = PdfReader(io.BytesIO(pdf_for(cast.tara, cast.alice)))
    width_pt = float(reader.pages[0].mediabox.width)
    assert width_pt / 72 * 25.4 == pytest.approx(width_mm, abs=0.5)


def test_pdf_metadata_is_neutral(cast):
    period = selectors.period_for_session(
        user=cast.tara, client=cast.alice, target=None, now=timezone.now()
    )
    document, _ = document_for(cast, period)
    reader = PdfReader(io.BytesIO(render.render_summary_pdf(document, generated_at=timezone.now())))
    assert reader.metadata is not None
    assert reader.metadata.title == "Session summary"
    assert "Alice" not in str(dict(reader.metadata))
    assert reader.pages[0].extract_text().startswith("SESSION SUMMARY · ")


@pytest.mark.parametrize("full_detail", [False, True])
def test_a_summary_for_chosen_dates_is_not_called_a_session_summary(cast, full_detail):
    """Chosen dates are not a session, even with one the day after them: the
    title (shown in viewers' tabs) and the masthead say "Summary", and the
    line below names the dates."""
    starts = timezone.localtime() + dt.timedelta(days=1)
    session = SessionFactory.create(client=cast.alice, starts_at=starts.replace(hour=10, minute=0))
    period = period_for_dates(
        since=dt.date(2025, 11, 10), until=dt.date(2025, 11, 30), session=session
    )
    document = summary_document(cast, period, full_detail=full_detail)
    pdf = render.render_summary_pdf(document, generated_at=timezone.now())
    reader = PdfReader(io.BytesIO(pdf))
    assert reader.metadata is not None
    assert reader.metadata.title == "Summary"
    first_page = " ".join(reader.pages[0].extract_text().split())
    # The masthead's top line is set in capitals (summary.css).
    detail = " · full detail" if full_detail else ""
    assert first_page.startswith(f"Summary{detail} · {practice_settings().name}".upper())
    assert "SESSION SUMMARY" not in first_page.upper()
    assert "dates chosen: entries shared 10 Nov – 30 Nov 2025" in first_page
    assert document.filename == "summary-2025-11-10-to-2025-11-30.pdf"  # as before


def test_rendering_reads_and_writes_nothing_in_the_database(cast, django_assert_num_queries):
    data = summary_data_for(cast.tara, cast.alice, the_last(7))
    with django_assert_num_queries(0):
        render.render_summary_pdf(render.summary_document(data), generated_at=timezone.now())


def test_fingerprint_changes_with_what_the_document_shows(cast):
    first = summary_for(cast.tara, cast.alice)
    assert summary_for(cast.tara, cast.alice).fingerprint == first.fingerprint
    Entry.objects.filter(pk=cast.alice_entry.pk).update(discuss_in_session=True)
    assert summary_for(cast.tara, cast.alice).fingerprint != first.fingerprint


@pytest.fixture
def listener():
    server = Listener()
    yield server
    server.close()


def test_hostile_client_text_fetches_nothing_and_attaches_nothing(cast, listener):
    url = listener.url
    hostile = [
        f'<img src="{url}img.png">',
        '<link rel="attachment" href="file:///etc/passwd">',
        f"<style>@import url({url}style.css); body {{ background: url(file:///dev/urandom) }}</style>",
        f'<a rel="attachment" href="{url}a.txt">x</a>',
        f'<object data="{url}o"></object><iframe src="{url}f"></iframe>',
    ]
    for n, text in enumerate(hostile):
        add(cast.alice_assignment, what_happened=text, felt_unsafe=n == 0)
    add(
        cast.alice_assignment,
        what_happened="fine",
        what_i_told_myself=f'"><img src="{url}attr.png">',
    )
    started = time.monotonic()
    pdf = pdf_for(cast.tara, cast.alice, full_detail=True)
    assert time.monotonic() - started < 10
    assert listener.knocks() == 0
    reader = PdfReader(io.BytesIO(pdf))
    assert reader.attachments == {}
    assert "/EmbeddedFiles" not in str(reader.trailer["/Root"])
    text = pdf_text(pdf)
    assert '<img src="http://127.0.0.1' in text  # shown as the text it is
    assert "@import" in text


def test_first_page_as_an_image_for_people_to_look_at(cast, artifacts):
    now = timezone.localtime()
    SessionFactory.create(client=cast.alice, starts_at=now - dt.timedelta(days=14))
    SessionFactory.create(
        client=cast.alice, starts_at=(now + dt.timedelta(days=1)).replace(hour=10, minute=0)
    )
    add(
        cast.alice_assignment,
        days_ago=9,
        what_happened="We argued about money. They said I would never manage without them.",
        felt_unsafe=True,
        discuss_in_session=True,
    )
    add(
        cast.alice_assignment,
        days_ago=4,
        what_happened="A kind message after three days of silence. I felt the pull to reply straight away.",
        discuss_in_session=True,
        what_i_told_myself="I can feel this and still wait.",
    )
    add(
        cast.alice_assignment,
        days_ago=12,
        what_happened="They read my messages while I was in the shower and then went quiet for the whole evening.",
        what_i_told_myself="That I was overreacting again.",
    )
    today = timezone.localdate()
    AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(title="One small boundary"),
        due_on=today + dt.timedelta(days=2),
    )
    AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(title="People who know the real story"),
        starts_on=today - dt.timedelta(days=10),
        due_on=today - dt.timedelta(days=3),
    )
    period = selectors.resolve_period(
        user=cast.tara, client=cast.alice, query=PeriodQuery(), now=timezone.now()
    )
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=False, now=timezone.now()
    )
    pdf = render.render_summary_pdf(render.summary_document(data), generated_at=timezone.now())
    (artifacts / "summary.pdf").write_bytes(pdf)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "90",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            "-",
            str(artifacts / "summary-page-1"),
        ],
        input=pdf,
        check=True,
    )
    assert (artifacts / "summary-page-1.png").stat().st_size > 10_000


def test_a_year_of_daily_urge_logs_prints_on_at_most_three_pages_with_bounded_queries(
    cast, artifacts
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    today = timezone.localdate()
    log = daily_assignment(
        cast.alice,
        exercise=ExerciseFactory.create(kind="urge_log", title="A year without contact"),
        starts_on=today - dt.timedelta(days=366),
        ends_on=today,
        no_contact_since=today - dt.timedelta(days=366),
    )

    def urge(n: int) -> Entry:
        at = timezone.localtime() - dt.timedelta(days=n, hours=2)
        response = urge_log(
            at=at.isoformat(),
            intensity=min(9, 2 + n // 45),  # strong a year ago, easing since
            contact_happened=n == 200,
            contact_initiated_by="them" if n == 200 else "none",
        )
        return Entry(
            key=uuid.uuid4(),
            assignment=log,
            schema_version=1,
            status=Entry.Status.SUBMITTED,
            submitted_at=at + dt.timedelta(minutes=5),
            shared_at=at + dt.timedelta(minutes=5),
            occurrence_on=at.date(),
            response=response,
            # Kept plain beside the response, as a send keeps them.
            **get_kind("urge_log").plain_columns(response, exercise=log.exercise),
        )

    def summary_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            summary_for(cast.tara, cast.alice, since_days=370)
        return len(queries)

    summary_queries()  # warm the practice settings cache
    few = summary_queries()
    Entry.objects.bulk_create([urge(n) for n in range(366)])
    assert summary_queries() == few
    pdf = pdf_for(cast.tara, cast.alice, since_days=370)
    (artifacts / "summary-a-year-of-urges.pdf").write_bytes(pdf)
    assert page_count(pdf) <= 3
    text = " ".join(pdf_text(pdf).split())
    assert "A year without contact" in text
    assert "Urges easing" in text
    assert "no contact for 20" in text  # 200 or 201 days, by the hour it runs


def test_a_full_support_map_with_long_names_prints_on_one_page(cast):
    """Fifty people and thirty places, every name as long as it may be: the
    first dozen of each ring are named, the rest counted, so the map keeps to
    a page under its heading (named in full, it ran onto three, after a page
    left blank but for the heading). Full detail still names everyone."""
    circles = ["inner", "middle", "outer"]
    people = [
        {
            "name": f"Bartholomew-Maximilian Featherstone {n:03d}",
            "circle": circles[n % 3],
            "roles": ["reality_check"],
            "steadying": True,
        }
        for n in range(50)
    ]
    places = [
        {
            "name": f"The Thursday evening walking group by the canal, meeting at the old lock {n:02d}"[
                :80
            ],
            "circle": circles[n % 3],
        }
        for n in range(30)
    ]
    corner = AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind="support_network", title="Who is in my corner"),
    )
    kind = get_kind("support_network")
    response = kind.validate(
        {"people": people, "places_and_services": places}, exercise=corner.exercise, tz="UTC"
    )
    EntryFactory.create(assignment=corner, response=response)
    pdf = pdf_for(cast.tara, cast.alice)
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True)
    pages = [" ".join(page.split()) for page in text.stdout.decode().split("\f")]
    assert len(pages) <= 4  # three pages, and pdftotext's empty last one
    opening = next(page for page in pages if "Who is in my corner · sent" in page)
    assert "Support-network map, continued" not in " ".join(pages)
    assert "Rings: closest in the middle" in opening  # the whole map, under its heading
    assert "Featherstone 000" in opening
    assert "Featherstone 049" not in " ".join(pages)
    assert "more, in the portal" in opening
    full = pdf_text(pdf_for(cast.tara, cast.alice, full_detail=True))
    assert "Featherstone 049" in full


def test_a_year_of_daily_check_ins_lists_the_first_and_latest_values(cast):
    """A scored check-in done daily for a year: the values beside its chart
    are the first and the latest, the rest counted (listed in full, they
    were a page of dates and numbers, after a page left blank but for the
    heading)."""
    from homework.library import install
    from homework.models import Exercise

    install(Exercise)
    exercise = Exercise.objects.get(title="Weekly check-in: pull and clarity")
    kind = get_kind(exercise.kind)
    today = timezone.localdate()
    check_in = daily_assignment(
        cast.alice, exercise=exercise, starts_on=today - dt.timedelta(days=367), ends_on=today
    )
    now = timezone.now()
    entries = []
    for n in range(366):
        response = kind.validate(
            {"pull": n % 10, "clarity": 5, "supported": 6, "safe": 7, "kindness": 3},
            exercise=exercise,
            tz="UTC",
        )
        sent = now - dt.timedelta(days=n, hours=1)
        entries.append(
            EntryFactory.build(
                assignment=check_in,
                submitted_at=sent,
                response=response,
                score=kind.score(response, exercise=exercise),
            )
        )
    Entry.objects.bulk_create(entries)
    pdf = pdf_for(cast.tara, cast.alice, since_days=370)
    assert page_count(pdf) <= 2
    assert "354 more in the portal" in pdf_text(pdf)
    full = pdf_text(pdf_for(cast.tara, cast.alice, since_days=370, full_detail=True))
    assert "more in the portal" not in full


def test_a_flag_is_dated_when_it_happened_as_its_record_below_is(cast):
    """A hard evening written down the next morning: the flag at the top and
    the record in its section give the same day, not two days for one event."""
    evening = timezone.localtime() - dt.timedelta(days=3)
    add(
        cast.alice_assignment,
        days_ago=2,
        occurred_at=evening.isoformat(),
        what_happened="They took my bank card to keep it safe.",
        felt_unsafe=True,
    )
    html = summary_for(cast.tara, cast.alice).html
    flag = html[html.index('class="flag-meta"') :]
    flag = flag[: flag.index("</p>")]
    assert date_format(evening, "D j M") in flag


def test_flags_are_listed_newest_first_by_when_it_happened(cast):
    """A record of last week written today comes after yesterday's, so the
    dates down the list read in order."""
    add(cast.alice_assignment, days_ago=1, what_happened="Yesterday's evening.", felt_unsafe=True)
    add(
        cast.alice_assignment,
        days_ago=0.1,
        occurred_at=(timezone.localtime() - dt.timedelta(days=6)).isoformat(),
        what_happened="Last week, written down today.",
        felt_unsafe=True,
    )
    html = summary_for(cast.tara, cast.alice).html
    assert html.index("Yesterday&#x27;s evening.") < html.index("Last week, written down today.")


def test_a_flagged_scale_answer_says_what_it_answers_on_the_first_page(cast):
    exercise = ExerciseFactory.create(
        kind="worksheet",
        title="Weekly check-in",
        options={
            "questions": [
                {"key": "heavy", "type": "scale_0_10", "text": "How heavy did the week feel?"}
            ]
        },
    )
    assignment = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    EntryFactory.create(assignment=assignment, response={"heavy": 8}, discuss_in_session=True)
    html = summary_for(cast.tara, cast.alice).html
    flag = html[html.index('class="flag-text"') :]
    assert flag[: flag.index("</p>")].endswith(">How heavy did the week feel? 8 / 10")


@pytest.mark.parametrize("where", ["boundary", "what_happened"])
def test_a_boundary_steps_long_text_is_excerpted_unless_full_detail(cast, where):
    """Three thousand characters in one step ran over pages; the rest is in the portal."""
    ladder = AssignmentFactory.create(
        client=cast.alice, exercise=ExerciseFactory.create(kind="boundary_steps")
    )
    long_text = "I said it calmly and they kept talking over me. " * 64 + "THEVERYEND"
    assert len(long_text) > 3000
    step = {"boundary": "No calls after 10 pm.", "status": "tried", "feeling": 4}
    EntryFactory.create(assignment=ladder, response={"steps": [{**step, where: long_text}]})
    short = pdf_for(cast.tara, cast.alice)
    assert "(continued in the portal)" in pdf_text(short)
    assert "THEVERYEND" not in pdf_text(short)
    assert page_count(short) == 1
    full = pdf_text(pdf_for(cast.tara, cast.alice, full_detail=True))
    assert "THEVERYEND" in full
