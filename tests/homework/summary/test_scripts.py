"""A client's words print in whatever script they wrote them in.

The PDFs set DejaVu, which has no Chinese, Japanese, Korean or Indic
letters, and few emoji: the engine borrows them from another installed face
(the project installs Noto: make system-deps), and without one they vanish
from the page without an error."""

import pytest
from django.urls import reverse

from homework.models import EntryNote
from practice.models import PracticeSettings
from tests.conftest import login
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    boundary_steps,
    options_for,
    support_network,
    urge_log,
    worksheet,
)
from tests.helpers_pdf import words_on_lines

from .conftest import add, pdf_text
from .test_render import pdf_for, summary_for

pytestmark = pytest.mark.django_db

# "Hello" in the languages a practice in the UK or the US is likely to meet.
GREETINGS = {
    "Chinese": "你好",
    "Japanese": "こんにちは",
    "Korean": "안녕하세요",
    "Hindi": "नमस्ते",
    "Bengali": "নমস্কার",
    "Punjabi": "ਸਤ ਸ੍ਰੀ ਅਕਾਲ",
    "Tamil": "வணக்கம்",
    "Thai": "สวัสดี",
    "Amharic": "ሰላም",
    "Arabic": "مرحبا",
    "Hebrew": "שלום",
    "Greek": "Γειά σου",
    "Russian": "Привет",
    "Vietnamese": "Xin chào",
    "emoji": "💔 🙏 🥺 🫶",
}
WORDS = " ".join(GREETINGS.values())


def missing_from(text: str) -> list[str]:
    flat = "".join(text.split())
    return [language for language, hello in GREETINGS.items() if "".join(hello.split()) not in flat]


def test_the_summary_prints_a_clients_words_in_any_script(cast):
    add(cast.alice_assignment, what_happened=WORDS)
    assert missing_from(pdf_text(pdf_for(cast.tara, cast.alice, full_detail=True))) == []


def test_the_clients_own_export_prints_their_words_in_any_script(cast):
    add(cast.alice_assignment, what_happened=WORDS)
    response = login(cast.alice.portal_user).get(reverse("homework:export_pdf"))
    assert response.status_code == 200
    assert missing_from(pdf_text(response.content)) == []


# Hebrew that ends on a Latin word, as people write ("… I called my sister at
# 22:00 on WhatsApp."): read right to left, that word comes last, so it prints
# leftmost on its line. Long enough to wrap, short enough not to be cut.
HEBREW = "הוא אמר שהוא מצטער שוב, ואז צעק כשאיחרתי בעשר דקות. הרגשתי לחץ בחזה. התקשרתי לאחותי ב-22:00 דרך WhatsApp."


def latin_word_left_of_hebrew(pdf: bytes) -> list[bool]:
    """For each time the sentence's Latin word prints: is it left of every
    Hebrew word on its line?"""
    words = words_on_lines(pdf)
    return [
        all(
            x < other_x
            for other, other_x, other_y in words
            if abs(other_y - y) < 4 and is_hebrew(other)
        )
        for text, x, y in words
        if text.strip(".") == "WhatsApp"
    ]


def is_hebrew(word: str) -> bool:
    return any("\u0590" <= char <= "\u05ff" for char in word)


@pytest.mark.parametrize("full_detail", [False, True])
def test_right_to_left_words_keep_their_order_beside_latin_ones(cast, full_detail):
    """The summary's lines run left to right; a client's own words run in
    their own direction within them, line by line."""
    add(
        cast.alice_assignment,
        what_happened=HEBREW,
        what_was_said_or_done=f"{HEBREW}\n{HEBREW}",
        felt_unsafe=True,
    )
    placed = latin_word_left_of_hebrew(pdf_for(cast.tara, cast.alice, full_detail=full_detail))
    # The flag on page 1 and the record's line; in full detail each line of a field too.
    assert len(placed) == (4 if full_detail else 2)
    assert all(placed)


def test_the_clients_own_export_keeps_right_to_left_words_in_their_order(cast):
    """The download runs left to right too; the client's words, the notes they
    added, and the briefer form of a daily log or check-in each run in their
    own direction, line by line."""
    entry = add(
        cast.alice_assignment, what_happened=HEBREW, what_was_said_or_done=f"{HEBREW}\n{HEBREW}"
    )
    EntryNote.objects.create(entry=entry, text=HEBREW)
    check_in = AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind="worksheet", options=options_for("worksheet")),
    )
    EntryFactory.create(assignment=check_in, response=worksheet(story=HEBREW))
    EntryFactory.create(
        assignment=AssignmentFactory.create(
            client=cast.alice, exercise=ExerciseFactory.create(kind="urge_log")
        ),
        response=urge_log(trigger="other", trigger_note=HEBREW, did_instead=HEBREW),
    )
    response = login(cast.alice.portal_user).get(reverse("homework:export_pdf"))
    assert response.status_code == 200
    placed = latin_word_left_of_hebrew(response.content)
    # The record's three lines, the note, the check-in's answer, the urge's two.
    assert len(placed) == 7
    assert all(placed)


# Names and titles set inside the summary's own sentences (practice.bidi).
SARA, LAYLA = "سارة", "ليلى"


def x_of(pdf: bytes, word: str) -> list[float]:
    """Where a word prints (poppler gives a right-to-left word's letters in
    the order they are drawn, left to right)."""
    return [x for text, x, _y in words_on_lines(pdf) if text.strip(",.:;") in (word, word[::-1])]


BESIDE_THE_MAP = 300  # points from the page's left edge: the words end, the map begins


def test_two_right_to_left_names_in_a_list_print_in_the_order_they_are_named(cast):
    """Joined by a comma, two Arabic names were one right-to-left run, the
    second printed first; each is now laid out on its own."""
    people = [
        {"name": name, "circle": "inner", "roles": ["reality_check"], "steadying": True}
        for name in (SARA, LAYLA)
    ]
    EntryFactory.create(
        assignment=AssignmentFactory.create(
            client=cast.alice, exercise=ExerciseFactory.create(kind="support_network")
        ),
        response=support_network(people=people, places_and_services=[]),
    )
    pdf = pdf_for(cast.tara, cast.alice)
    # The map beside the words names them too, round its rings, right of this line.
    sara, layla = ([x for x in x_of(pdf, name) if x < BESIDE_THE_MAP] for name in (SARA, LAYLA))
    # The circle, "For a reality check:" and "Steadying:", each left to right.
    assert len(sara) == len(layla) == 3
    assert all(first < second for first, second in zip(sara, layla, strict=True))


def test_the_summary_keeps_names_and_titles_apart_from_its_sentences(cast):
    cast.alice.display_name = f"{SARA} (2)"
    cast.alice.save(update_fields=["display_name"])
    cast.tara.name = f"{LAYLA} 3"
    cast.tara.save(update_fields=["name"])
    PracticeSettings.objects.filter(pk=1).update(name="عيادة 12")
    cast.alice_assignment.exercise.title = "سجل مكتوب 1"
    cast.alice_assignment.exercise.save(update_fields=["title"])
    add(cast.alice_assignment, felt_unsafe=True)
    questions = {
        **options_for("worksheet"),
        "questions": [
            {**question, "text": f"سؤال {number}"}
            for number, question in enumerate(options_for("worksheet")["questions"])
        ],
        "score": {"method": "mean", "better": "higher", "label": "الثبات"},
    }
    EntryFactory.create(
        assignment=AssignmentFactory.create(
            client=cast.alice, exercise=ExerciseFactory.create(kind="worksheet", options=questions)
        ),
        response=worksheet(),
    )
    page = summary_for(cast.tara, cast.alice).html
    # A worksheet's question is a line of its own, in its own direction.
    assert '<p class="summary-label"><span dir="rtl">سؤال 3</span></p>' in page
    assert f'<h1><bdi dir="rtl">{SARA} (2)</bdi></h1>' in page
    assert f'with <bdi dir="rtl">{LAYLA} 3</bdi> ·' in page
    assert '· <bdi dir="rtl">عيادة 12</bdi> ·' in page
    # The page's margin is a CSS string: plain text, with Unicode's isolates.
    assert 'content: "Confidential: \\002068' in page
    title = '<bdi dir="rtl">سجل مكتوب 1</bdi>'
    # Its flag, the work done, the section.
    assert f"· {title}</p>" in page
    assert f"{title} · 2 records" in page
    assert f"Done: {title}" in page


def test_the_clients_export_keeps_the_therapists_titles_and_questions_apart(cast):
    """Two Arabic titles named together, and each entry's title and question
    beside our words, print in their order (export.export_document)."""
    from homework.export import export_document

    chosen = []
    for title in ("يوميات", "خريطة"):
        assignment = AssignmentFactory.create(
            client=cast.alice,
            exercise=ExerciseFactory.create(
                kind="worksheet",
                title=title,
                options={
                    **options_for("worksheet"),
                    "questions": [
                        {**question, "text": f"سؤال {number}"}
                        for number, question in enumerate(options_for("worksheet")["questions"])
                    ],
                },
            ),
        )
        EntryFactory.create(assignment=assignment, response=worksheet())
        chosen.append(assignment.pk)
    page = export_document(user=cast.alice.portal_user, assignment_ids=chosen)
    assert 'What I sent for <bdi dir="rtl">يوميات</bdi>, <bdi dir="rtl">خريطة</bdi>,' in page
    assert '<p class="meta"><bdi dir="rtl">يوميات</bdi> · written down' in page
    assert '<strong><bdi dir="rtl">سؤال 2</bdi>:</strong>' in page
    response = login(cast.alice.portal_user).get(
        reverse("homework:export_pdf"), {"include": chosen}
    )
    assert response.status_code == 200
    [first], [second] = x_of(response.content, "يوميات")[:1], x_of(response.content, "خريطة")[:1]
    assert first < second


def test_the_clients_export_draws_a_right_to_left_step_in_its_order_in_the_ladder(cast):
    """The PDF engine draws an SVG label letter by letter, left to right, in
    the order they were typed: a Hebrew step printed backwards in the ladder,
    its Latin word at the right. Printed, such a label is given in the order
    it is drawn (charts.in_visual_order); the list under it already was."""
    step = "בלי הודעות דרך WhatsApp."
    EntryFactory.create(
        assignment=AssignmentFactory.create(
            client=cast.alice, exercise=ExerciseFactory.create(kind="boundary_steps")
        ),
        response=boundary_steps(steps=[{"boundary": step, "status": "held"}]),
    )
    response = login(cast.alice.portal_user).get(reverse("homework:export_pdf"))
    assert response.status_code == 200
    placed = latin_word_left_of_hebrew(response.content)
    # The ladder's label and the step under it.
    assert len(placed) == 2
    assert all(placed)
