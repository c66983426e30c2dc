"""A program on the session summary and the since-last-session page: one line each, where the
client is now, how many steps they sent in the period, and paused when it is. A step the therapist
skipped is not one the client did."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from homework.models import ClientProgramStep
from homework.selectors.programs import programs_in_period
from homework.services import programs
from homework.summary import render
from tests.conftest import login
from tests.helpers_entries import submit_written_record
from tests.helpers_program_pages import on_program, step_work
from tests.helpers_summary import summary_document, the_last

from .conftest import pdf_text

pytestmark = pytest.mark.django_db


def glance(cast) -> str:
    return summary_document(cast, the_last(7), full_detail=False).html


def test_a_program_is_one_line_with_its_step_and_the_steps_sent_in_the_period(cast):
    client_program = on_program(cast)
    submit_written_record(step_work(client_program, 1))
    html = glance(cast)
    assert "Understanding the pull — step 2 of 3 · 1 step done in this period</p>" in html


def test_a_paused_program_says_paused(cast):
    client_program = on_program(cast)
    programs.client_program_pause(actor=cast.tara, client_program_id=client_program.pk)
    assert "step 1 of 3 · 0 steps done in this period · paused</p>" in glance(cast)


def test_only_steps_the_client_sent_in_the_period_count_as_done(cast):
    client_program = on_program(cast)
    submit_written_record(step_work(client_program, 1))
    ClientProgramStep.objects.filter(client_program=client_program, position=1).update(
        done_on=timezone.localdate() - dt.timedelta(days=10)
    )
    step_two = client_program.steps.get(position=2)
    programs.client_program_skip_step(
        actor=cast.tara, client_program_id=client_program.pk, step_id=step_two.pk
    )
    (line,) = programs_in_period(
        user=cast.tara, client=cast.alice, since=the_last(7).since, until=the_last(7).until
    )
    assert (line.standing.step, line.standing.finished, line.done_in_period) == (3, 2, 0)


def test_an_ended_program_shows_only_when_a_step_was_sent_in_the_period(cast):
    quiet = on_program(cast, title="Stopped before")
    programs.client_program_stop(actor=cast.tara, client_program_id=quiet.pk)
    worked = on_program(cast, title="Stopped after a step")
    submit_written_record(step_work(worked, 1))
    programs.client_program_stop(actor=cast.tara, client_program_id=worked.pk)
    html = glance(cast)
    assert "Stopped before" not in html
    assert "Stopped after a step — step 2 of 3 · 1 step done in this period · stopped" in html


def test_a_program_that_begins_after_the_period_is_left_out(cast):
    on_program(cast, starts_on=timezone.localdate() + dt.timedelta(days=3))
    assert "Programs" not in glance(cast)
    period = the_last(7)
    assert (
        programs_in_period(
            user=cast.tara, client=cast.alice, since=period.since, until=period.until
        )
        == []
    )


def test_another_therapist_reads_no_program_of_a_client_not_theirs(cast):
    on_program(cast)
    period = the_last(7)
    assert (
        programs_in_period(
            user=cast.theo, client=cast.alice, since=period.since, until=period.until
        )
        == []
    )
    assert (
        programs_in_period(
            user=cast.alice.portal_user, client=cast.alice, since=period.since, until=period.until
        )
        == []
    )


def count_queries(cast) -> int:
    with CaptureQueriesContext(connection) as queries:
        glance(cast)
    return len(queries)


def test_the_summary_reads_one_program_and_ten_in_the_same_queries(cast):
    on_program(cast, title="Program 0")
    count_queries(cast)  # the practice settings are cached from here on
    one = count_queries(cast)
    for n in range(1, 10):
        client_program = on_program(cast, title=f"Program {n}")
        submit_written_record(step_work(client_program, 1))
    assert count_queries(cast) == one


def test_the_printed_summary_and_the_since_last_session_page_carry_the_line(cast):
    client_program = on_program(cast)
    programs.client_program_pause(actor=cast.tara, client_program_id=client_program.pk)
    document = summary_document(cast, the_last(7), full_detail=False)
    text = " ".join(
        pdf_text(render.render_summary_pdf(document, generated_at=timezone.now())).split()
    )
    assert "Understanding the pull — step 1 of 3 · 0 steps done in this period · paused" in text
    page = login(cast.tara).get(
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    )
    assert (
        "Understanding the pull — step 1 of 3 · 0 steps done in this period · paused" in page.text
    )
