"""Arabic, Hebrew, Farsi or Urdu runs in its own direction wherever a person
reads or types it, on pages that run left to right.

Browsers honour ``dir="auto"``: a block of a client's words (or a box they
type in) marked so takes the direction of its first letter, so a right-to-
left sentence ending on "WhatsApp." reads from the right with its full stop
at its end, and the page around it stays as it is. The PDFs' engine does not
(``summary.own_direction`` and tests/homework/summary/test_scripts.py).
"""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from homework.models import EntryComment, EntryNote
from tests.conftest import login
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    boundary_steps,
    options_for,
    safety_plan,
    support_network,
    urge_log,
    worksheet,
    written_record,
)

pytestmark = pytest.mark.django_db

# "I called my sister at 22:00 on WhatsApp." in Arabic: it ends on a Latin word.
ARABIC = "اتصلت بأختي الساعة 22:00 عبر WhatsApp."
NAME = "سارة"
RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
ISOLATED = re.compile("\u2068[^\u2069]*\u2069")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
# Where text is not laid out as a paragraph of the page: a picture (its own
# test below), a script, the window's title.
NOT_PARAGRAPHS = {"svg", "script", "style", "title", "template"}


class _Directions(HTMLParser):
    """Each right-to-left text on the page with the ``dir`` of its nearest
    marked ancestor, and each box a person types in with its own ``dir``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []
        self.texts: list[tuple[str, list[str]]] = []
        self.boxes: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "textarea" or (tag == "input" and values.get("type", "text") == "text"):
            self.boxes.append((str(values.get("name")), values.get("dir")))
        if tag not in VOID:
            self.stack.append((tag, values.get("dir")))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        # A name between Unicode's isolates (FSI … PDI) is kept apart from
        # the plain text around it (practice.bidi.isolated_text).
        if not RIGHT_TO_LEFT.search(ISOLATED.sub("", data)):
            return
        if any(tag in NOT_PARAGRAPHS for tag, _dir in self.stack):
            return
        # A <bdi> keeps a name apart from the sentence around it, in the
        # direction it names (practice.bidi): for the test, its own direction.
        self.texts.append(
            (data.strip(), ["auto" if tag == "bdi" else d for tag, d in self.stack if d])
        )


def directions(page: str) -> _Directions:
    parser = _Directions()
    parser.feed(page)
    return parser


def not_in_own_direction(page: str) -> list[str]:
    """Right-to-left texts whose nearest ``dir`` is not ``auto``: none at all,
    or a fixed one inside, which ``dir="auto"`` would skip in finding its
    direction."""
    return [text for text, dirs in directions(page).texts if dirs[-1:] != ["auto"]]


def boxes_without_direction(page: str) -> list[str]:
    return [name for name, direction in directions(page).boxes if direction != "auto"]


def assign(client, slug):
    exercise = ExerciseFactory.create(kind=slug, title=f"The {slug} one", options=options_for(slug))
    return AssignmentFactory.create(client=client, exercise=exercise)


# Every kind's answers, each free text in Arabic.
ANSWERS = {
    "written_record": lambda: written_record(
        what_happened=ARABIC,
        what_was_said_or_done=ARABIC,
        what_i_told_myself=ARABIC,
        remember_when_i_miss_them=ARABIC,
    ),
    "urge_log": lambda: urge_log(trigger="other", trigger_note=ARABIC, did_instead=ARABIC),
    "boundary_steps": lambda: boundary_steps(
        steps=[
            {
                "boundary": ARABIC,
                "planned_on": "2026-01-05",
                "status": "held",
                "what_happened": ARABIC,
                "feeling": 7,
            }
        ]
    ),
    "support_network": lambda: support_network(
        people=[{"name": NAME, "circle": "inner", "roles": ["reality_check"], "steadying": True}],
        places_and_services=[{"name": NAME, "circle": "outer"}],
    ),
    "safety_plan": lambda: safety_plan(
        warning_signs=ARABIC, safe_places=ARABIC, people_to_call=ARABIC, code_word=NAME
    ),
    "worksheet": lambda: worksheet(word=NAME, story=ARABIC, place=NAME),
}


@pytest.fixture
def arabic_entries(cast):
    """One sent entry of each kind, in Arabic, with a note and a comment."""
    entries = {}
    for slug, answers in ANSWERS.items():
        entry = EntryFactory.create(assignment=assign(cast.alice, slug), response=answers())
        EntryNote.objects.create(entry=entry, text=ARABIC)
        EntryComment.objects.create(entry=entry, author=cast.tara, text=ARABIC)
        entries[slug] = entry
    return entries


@pytest.mark.parametrize("slug", list(ANSWERS))
def test_a_clients_right_to_left_answers_read_in_their_own_direction_in_the_portal(
    cast, arabic_entries, slug
):
    page = login(cast.alice.portal_user).get(
        reverse("homework:entry", args=[arabic_entries[slug].key])
    )
    assert page.status_code == 200
    assert directions(page.text).texts, "the answers are on the page"
    assert not_in_own_direction(page.text) == []


@pytest.mark.parametrize("slug", list(ANSWERS))
def test_a_clients_right_to_left_answers_read_in_their_own_direction_for_the_therapist(
    cast, arabic_entries, slug
):
    http = login(cast.tara)
    entry = arabic_entries[slug]
    for url in (
        reverse("admin:homework_entry_change", args=[entry.pk]),
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]),
    ):
        page = http.get(url)
        assert page.status_code == 200
        assert directions(page.text).texts, url
        assert not_in_own_direction(page.text) == [], url


def test_comments_and_excerpts_read_in_their_own_direction_in_lists(cast, arabic_entries):
    portal = login(cast.alice.portal_user).get(reverse("homework:dashboard")).text
    assert directions(portal).texts and not_in_own_direction(portal) == []
    changelist = login(cast.tara).get(reverse("admin:homework_entry_changelist")).text
    assert directions(changelist).texts and not_in_own_direction(changelist) == []


def test_a_right_to_left_name_reads_in_its_own_direction_in_the_therapists_lists(cast):
    cast.alice.display_name = f"{NAME} (2)"
    cast.alice.save(update_fields=["display_name"])
    EntryFactory.create(
        assignment=cast.alice_assignment, response=written_record(), felt_unsafe=True
    )
    home = login(cast.tara).get(reverse("admin:index")).text
    assert directions(home).texts and not_in_own_direction(home) == []


@pytest.mark.parametrize("slug", list(ANSWERS))
def test_every_box_a_client_types_in_takes_the_direction_of_what_they_type(cast, slug):
    page = login(cast.alice.portal_user).get(
        reverse("homework:do", args=[assign(cast.alice, slug).pk])
    )
    assert page.status_code == 200
    assert directions(page.text).boxes, "the form has boxes to type in"
    assert boxes_without_direction(page.text) == []


def test_the_note_box_and_the_therapists_comment_box_take_the_direction_of_what_is_typed(
    cast, arabic_entries
):
    entry = arabic_entries["written_record"]
    portal = login(cast.alice.portal_user).get(reverse("homework:entry", args=[entry.key])).text
    assert directions(portal).boxes and boxes_without_direction(portal) == []
    http = login(cast.tara)
    # The comment box is on the entry's page (since last session links to it).
    page = http.get(reverse("admin:homework_entry_change", args=[entry.pk])).text
    comment_boxes = [d for name, d in directions(page).boxes if name == "text"]
    assert comment_boxes and set(comment_boxes) == {"auto"}
    # A comment refused is shown again in the form's own page.
    refused = http.post(
        reverse("admin:homework_entry_comment", args=[entry.pk]), {"text": "x" * 5000}
    )
    assert refused.status_code == 400
    assert [d for name, d in directions(refused.text).boxes if name == "text"] == ["auto"]


def test_left_to_right_text_is_marked_the_same_and_reads_as_before(cast):
    """``dir="auto"`` on a block of English changes nothing a person sees."""
    page = (
        login(cast.alice.portal_user)
        .get(reverse("homework:entry", args=[cast.alice_entry.key]))
        .text
    )
    assert f'<dd class="pre" dir="auto">{cast.alice_entry.response["what_happened"]}' in page


def test_the_clients_progress_page_shows_their_steps_in_their_own_direction(cast, arabic_entries):
    page = login(cast.alice.portal_user).get(reverse("homework:progress")).text
    # A name inside one of our sentences ("you can ask سارة for …") reads
    # as it is; a step the client wrote is a sentence of its own.
    steps = [dirs for text, dirs in directions(page).texts if text == ARABIC]
    assert steps and all(dirs[-1:] == ["auto"] for dirs in steps)


# Names set inside our sentences (practice.bidi): two Arabic names joined by
# a comma, or an Arabic name followed by a number, would otherwise run
# together with the sentence and change places.
LAYLA = "ليلى"


def isolated(text: str) -> str:
    return f'<bdi dir="rtl">{text}</bdi>'


def plain_isolated(text: str) -> str:
    return f"\u2068{text}\u2069"


def test_the_people_a_client_can_ask_are_each_kept_apart_in_the_sentence_naming_them(cast):
    people = [
        {"name": name, "circle": "inner", "roles": ["reality_check"], "steadying": True}
        for name in (NAME, LAYLA)
    ]
    EntryFactory.create(
        assignment=assign(cast.alice, "support_network"),
        response=support_network(people=people, places_and_services=[]),
    )
    page = login(cast.alice.portal_user).get(reverse("homework:progress")).text
    assert f"you can ask {isolated(NAME)} and {isolated(LAYLA)} for a reality check." in page
    assert directions(page).texts and not_in_own_direction(page) == []


def test_the_therapists_name_is_kept_apart_in_the_greeting(cast):
    cast.tara.name = f"{NAME} 2"
    cast.tara.save(update_fields=["name"])
    page = login(cast.tara).get(reverse("admin:index")).text
    assert f"Hello, {isolated(NAME)}</h1>" in page


def test_a_clients_name_is_kept_apart_in_the_therapists_pages_and_messages(cast):
    cast.alice.display_name = f"{NAME} 2"
    cast.alice.save(update_fields=["display_name"])
    name = f"{NAME} 2"
    http = login(cast.tara)
    since = http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])).text
    # The window's title is plain text: no element can be in it.
    assert f"<title>Since last session: {plain_isolated(name)} |" in since
    EntryFactory.create(assignment=cast.alice_assignment, private=True)
    since = http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])).text
    assert f"{isolated(name)} also kept 1 entry private." in since
    entry = http.get(reverse("admin:homework_entry_change", args=[cast.alice_entry.pk])).text
    assert f"Since last session: {isolated(name)}</a>" in entry
    archive_url = reverse("admin:clients_client_archive", args=[cast.alice.pk])
    archive = http.get(archive_url).text
    assert f"<title>Archive {plain_isolated(name)}? |" in archive
    assert f"<p>{isolated(name)} will leave your lists," in archive
    archived = http.post(archive_url, follow=True).text
    # A message is plain text, escaped where it is shown.
    assert f"{plain_isolated(name)} is archived." in archived
    restore = http.get(archive_url).text
    assert f"<p>{isolated(name)} will be back in your lists," in restore


def test_a_clients_name_is_kept_apart_in_a_saved_comments_message(cast):
    cast.alice.display_name = NAME
    cast.alice.save(update_fields=["display_name"])
    http = login(cast.tara)
    page = http.post(
        reverse("admin:homework_entry_comment", args=[cast.alice_entry.pk]),
        {"text": "Thank you for writing this down."},
        follow=True,
    ).text
    assert f"Comment saved. {plain_isolated(NAME)} will see it beside their entry." in page


def test_english_names_in_sentences_are_as_before(cast):
    http = login(cast.tara)
    assert "Hello, Tara</h1>" in http.get(reverse("admin:index")).text
    since = http.get(reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])).text
    assert "<title>Since last session: Alice |" in since


# The therapist's own words: an exercise's title and instructions, a
# worksheet's questions, written in Arabic.
TITLE = "سجل الأيام الصعبة 2"
INSTRUCTIONS = "اكتب ما حدث بعد 10 دقائق على WhatsApp."
QUESTIONS = {
    **options_for("worksheet"),
    "questions": [
        {**question, "text": f"{ARABIC} {number}?"}
        for number, question in enumerate(options_for("worksheet")["questions"])
    ],
    "score": {"method": "mean", "better": "higher", "label": "الثبات"},
}


def assign_in_arabic(client, slug):
    exercise = ExerciseFactory.create(
        kind=slug,
        title=f"{TITLE} {slug}",
        instructions=INSTRUCTIONS,
        options=QUESTIONS if slug == "worksheet" else options_for(slug),
    )
    return AssignmentFactory.create(client=client, exercise=exercise)


@pytest.fixture
def arabic_exercises(cast):
    """Each kind assigned under an Arabic title, with Arabic instructions and
    questions, and sent once, flagged, with a comment."""
    entries = {}
    for slug, answers in ANSWERS.items():
        entry = EntryFactory.create(
            assignment=assign_in_arabic(cast.alice, slug), response=answers(), felt_unsafe=True
        )
        EntryComment.objects.create(entry=entry, author=cast.tara, text="Thank you.")
        entries[slug] = entry
    return entries


@pytest.mark.parametrize("slug", list(ANSWERS))
def test_the_therapists_words_read_in_their_own_direction_where_the_client_works(
    cast, arabic_exercises, slug
):
    http = login(cast.alice.portal_user)
    entry = arabic_exercises[slug]
    for url in (
        reverse("homework:do", args=[entry.assignment_id]),
        reverse("homework:entry", args=[entry.key]),
    ):
        # A sent worksheet is done: its do page shows what was sent (followed).
        page = http.get(url, follow=True)
        assert page.status_code == 200
        assert TITLE in page.text, url
        assert not_in_own_direction(page.text) == [], url


def test_the_therapists_words_read_in_their_own_direction_in_the_clients_lists(
    cast, arabic_exercises
):
    http = login(cast.alice.portal_user)
    for name in ("homework:dashboard", "homework:history", "homework:progress"):
        page = http.get(reverse(name)).text
        assert TITLE in page, name
        assert not_in_own_direction(page) == [], name


def test_the_therapists_words_read_in_their_own_direction_in_the_therapists_pages(
    cast, arabic_exercises
):
    http = login(cast.tara)
    entry = arabic_exercises["worksheet"]
    # The entry's own change page is Django's (its breadcrumbs and heading
    # name the entry as Django writes it); its comments are the same as here.
    for url in (
        reverse("admin:index"),
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk]),
    ):
        page = http.get(url).text
        assert TITLE in page, url
        assert not_in_own_direction(page) == [], url
    # A comment refused is shown again with the entry, on a page of its own.
    refused = http.post(
        reverse("admin:homework_entry_comment", args=[entry.pk]), {"text": "x" * 5000}
    ).text
    assert TITLE in refused and not_in_own_direction(refused) == []
    preview = http.post(
        reverse("admin:homework_assignment_preview"),
        {"exercise": entry.assignment.exercise_id, "schedule": "once"},
    ).text
    assert TITLE in preview and INSTRUCTIONS in preview
    assert not_in_own_direction(preview) == []


def test_a_title_is_kept_apart_from_its_count_in_the_download_choices(cast):
    """'<title> (1 sent, 3 Jan)': the number and the brackets would join an
    Arabic title's run and change sides."""
    assignment = assign_in_arabic(cast.alice, "written_record")
    EntryFactory.create(assignment=assignment, response=written_record())
    page = login(cast.alice.portal_user).get(reverse("clients:account")).text
    assert f"{plain_isolated(assignment.exercise.title)} (1 sent," in page


def test_a_check_ins_arabic_score_label_is_kept_apart_from_its_number(cast):
    """'الثبات: 5' in a line or a chart's title: the number would cross to
    the label's other side."""
    from homework.kinds import get_kind
    from homework.kinds.worksheet import Worksheet

    kind = get_kind("worksheet")
    assert isinstance(kind, Worksheet)
    entry = EntryFactory.create(
        assignment=assign_in_arabic(cast.alice, "worksheet"), response=worksheet(), score=5
    )
    assert kind.excerpt(entry).startswith(f"{plain_isolated('الثبات')}: ")
    chart = kind.totals_chart(entry.assignment.exercise, [entry, entry])
    assert chart is not None
    assert f"{plain_isolated('الثبات')} over time" in str(chart["svg"])


def test_the_manager_sees_each_therapists_name_in_its_own_direction(cast):
    cast.tara.name = f"{NAME} 2"
    cast.tara.save(update_fields=["name"])
    EntryFactory.create(
        assignment=cast.alice_assignment, response=written_record(), felt_unsafe=True
    )
    home = login(cast.morgan).get(reverse("admin:index")).text
    assert f"· {isolated(NAME + ' 2')}</span>" in home
    assert directions(home).texts and not_in_own_direction(home) == []


def test_names_joined_in_a_sentence_are_each_escaped_and_kept_apart():
    from django.template import Context, Template

    names = ["Jo", "<b>Sam</b>", LAYLA]
    html = Template("{% load bidi %}{{ names|and_list }}").render(Context({"names": names}))
    assert html == f"Jo, &lt;b&gt;Sam&lt;/b&gt; and {isolated(LAYLA)}"
    text = Template("{% load bidi %}{% autoescape off %}{{ names|and_list }}{% endautoescape %}")
    assert text.render(Context({"names": names})) == f"Jo, <b>Sam</b> and {plain_isolated(LAYLA)}"
