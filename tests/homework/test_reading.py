"""A reading: its options, its text on the page, a client reading it, and what the therapist sees."""

import datetime as dt
import uuid
import zoneinfo

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from homework.kinds import ResponseInvalid
from homework.kinds.reading import KIND, READING_TEXT_MAX_CHARS, reading_html
from homework.models import Entry, Exercise
from homework.selectors.period import period_for_dates
from homework.workspace.display import entry_html
from tests.conftest import login
from tests.factories import (
    READING_OPTIONS,
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    posted_form,
    reading,
)
from tests.helpers import do_url
from tests.helpers_summary import summary_document

PROMPTS = READING_OPTIONS["prompts"]
PROMPT_1, PROMPT_2 = PROMPTS


@pytest.mark.parametrize(
    ("options", "key", "message"),
    [
        ({"prompts": []}, "text", "Write the reading the client will read."),
        ({"text": "   ", "prompts": []}, "text", "Write the reading the client will read."),
        ({"text": 42}, "text", "Write the reading the client will read."),
        (
            {"text": "x" * (READING_TEXT_MAX_CHARS + 1)},
            "text",
            "This can be up to 6,000 characters; it has 6,001. Please shorten it.",
        ),
        ({"text": "Hi", "prompts": ["a", "b", "c", "d"]}, "prompts", "up to 3 prompts"),
        ({"text": "Hi", "prompts": "What stayed?"}, "prompts", "a list of questions"),
        ({"text": "Hi", "prompts": ["a", 7]}, "prompts.2", "Write the prompt as words"),
        ({"text": "Hi", "prompts": [" "]}, "prompts.1", "Write the prompt as words"),
        ({"text": "Hi", "prompts": ["?" * 301]}, "prompts.1", "up to 300 characters"),
        ({"text": "Hi", "questions": []}, "options", "“questions” is not a reading option"),
        (["Hi"], "options", "A reading needs its text"),
    ],
)
def test_bad_reading_options_are_refused_naming_the_part(options, key, message):
    with pytest.raises(ResponseInvalid) as refused:
        KIND.clean_options(options)
    assert any(message in text for text in refused.value.errors[key]), refused.value.errors


def test_good_options_are_kept_trimmed_and_prompts_are_optional():
    assert KIND.clean_options({"text": " Hi\r\n\r\nthere\n"}) == {
        "text": "Hi\n\nthere",
        "prompts": [],
    }
    assert KIND.clean_options(READING_OPTIONS) == READING_OPTIONS


def test_the_text_becomes_headings_paragraphs_and_lists_under_the_pages_title():
    html = reading_html("# Title\n\n## Part\n\nA *calm* line.\n\n- one\n- two")
    assert "<h2>Title</h2>" in html and "<h2>Part</h2>" in html and "<h1>" not in html
    assert "<p>A <em>calm</em> line.</p>" in html
    assert "<ul>\n<li>one</li>\n<li>two</li>\n</ul>" in html


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        '<img src="https://tracker.example/p.gif">',
        "![pixel](https://tracker.example/p.gif)",
        "[click](javascript:alert(1))",
    ],
)
def test_markup_in_the_text_is_shown_as_text_never_as_markup(text):
    html = reading_html(text)
    assert "<script" not in html and "<img" not in html and "<a " not in html
    assert html.startswith("<p>")  # the words are still there, as text


def reading_assignment(client, **options):
    exercise = ExerciseFactory.create(
        kind="reading", title="Knowing is not leaving", options={**READING_OPTIONS, **options}
    )
    return AssignmentFactory.create(client=client, exercise=exercise)


def send(cast, assignment, response):
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    sent = http.post(do_url(assignment), {"key": str(key), "version": "0", **posted_form(response)})
    assert sent.status_code == 302, sent.content.decode()[:2000]
    return http, Entry.objects.get(key=key)


def read_on(entry, words="Read on", date="l j F Y"):
    zone = zoneinfo.ZoneInfo(entry.assignment.client.timezone)
    return f"{words} " + date_format(timezone.localtime(entry.submitted_at, zone), date)


def test_the_client_reads_the_text_and_sends_with_i_have_read_this(cast):
    assignment = reading_assignment(cast.alice)
    page = login(cast.alice.portal_user).get(do_url(assignment))
    assert "<h2>Knowing is not leaving</h2>" in page.text
    assert PROMPT_1 in page.text and "I&#x27;ve read this" in page.text
    assert "Send to my therapist" not in page.text


@pytest.mark.parametrize("written", [reading(), {}], ids=["with reflections", "without"])
def test_sending_marks_it_read_with_whatever_reflections_were_written(cast, written):
    assignment = reading_assignment(cast.alice)
    http, entry = send(cast, assignment, written)
    assert entry.is_submitted
    assert KIND.reflections(entry) == list(zip(PROMPTS, written.values(), strict=False))
    assert entry.asked == dict(zip(written, PROMPTS, strict=False))
    history = http.get(reverse("homework:entry", args=[entry.key]))
    assert read_on(entry) in history.text
    assert "Read it again" in history.text


def test_the_therapist_reads_read_on_and_each_reflection_under_its_prompt(cast):
    assignment = reading_assignment(cast.alice)
    _http, entry = send(cast, assignment, reading(reflection_2=""))
    html = entry_html(entry, heading_level=3)
    assert read_on(entry) in html
    assert PROMPT_1 in html and reading()["reflection_1"] in html
    # A reflection left empty is not mentioned, not even its prompt.
    assert PROMPT_2 not in html and "Not answered" not in html
    # The reading itself is the therapist's own text: not printed again on every entry.
    assert "Read it again" not in html
    page = login(cast.tara).get(
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    )
    # That page shows each kind as the summary does.
    assert read_on(entry, "read on", "D j M") in page.text
    assert reading()["reflection_1"] in page.text


def test_a_reworded_prompt_leaves_the_reflection_under_the_words_it_answered(cast):
    assignment = reading_assignment(cast.alice)
    _http, entry = send(cast, assignment, reading())
    Exercise.objects.filter(pk=assignment.exercise_id).update(
        options={**READING_OPTIONS, "prompts": ["Something else entirely?"]}
    )
    entry.refresh_from_db()
    html = entry_html(entry, heading_level=3)
    assert PROMPT_1 in html and PROMPT_2 in html
    assert "Something else entirely?" not in html


def test_the_summary_says_read_on_and_prints_the_reflections(cast):
    assignment = reading_assignment(cast.alice)
    entry = EntryFactory.create(
        assignment=assignment,
        response=reading(reflection_2=""),
        submitted_at=timezone.now() - dt.timedelta(days=1),
    )
    today = timezone.localdate()
    period = period_for_dates(since=today - dt.timedelta(days=7), until=today, session=None)
    html = summary_document(cast, period, full_detail=False).html
    assert read_on(entry, "read on", "D j M") in html
    assert PROMPT_1 in html and reading()["reflection_1"] in html
    assert PROMPT_2 not in html
    assert "1 reading read · 1 with reflections" in html


def test_a_private_reading_stays_private_from_staff(cast):
    assignment = reading_assignment(cast.alice)
    entry = EntryFactory.create(
        assignment=assignment, response=reading(reflection_1="MY-OWN-WORDS"), private=True
    )
    assert "MY-OWN-WORDS" not in entry_html(entry, heading_level=3)
    page = login(cast.tara).get(reverse("admin:homework_entry_change", args=[entry.pk]))
    assert "MY-OWN-WORDS" not in page.text
    today = timezone.localdate()
    period = period_for_dates(since=today - dt.timedelta(days=7), until=today, session=None)
    assert "MY-OWN-WORDS" not in summary_document(cast, period, full_detail=True).html
