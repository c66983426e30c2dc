"""The PHQ-9 and the GAD-7 in their published Spanish: the same measure as the English, only the
words differ. The same choice positions score the same total, item 9 raises the same flag, a
total falls in the same band (named in Spanish), and a client who answered one language, then the
other, has one series over time, on the summary and on the caseload."""

import datetime as dt

import pytest
from django.utils import timezone, translation

from homework.kinds.worksheet import KIND
from homework.kinds.worksheet.measures import cutoff_of, reliable_change_of
from homework.library.es.measures import GAD7_ITEMS, GAD7_OFTEN, PHQ9_ITEMS, PHQ9_OFTEN
from homework.models import Assignment, Entry, Exercise
from homework.selectors.measures import measure_changes, measure_histories
from homework.selectors.period import PeriodQuery
from homework.summary import services as summary_services
from tests.conftest import Cast
from tests.factories import AssignmentFactory, EntryFactory

pytestmark = pytest.mark.django_db

PAIRS = [("PHQ-9", 9), ("GAD-7", 7)]
# Hand-picked, across the range: each a total's worth of choice positions.
POSITIONS = {
    "PHQ-9": [[0] * 9, [1, 0, 2, 0, 1, 3, 0, 0, 0], [3, 2, 3, 1, 2, 3, 2, 1, 0], [3] * 9],
    "GAD-7": [[0] * 7, [1, 1, 0, 2, 0, 1, 0], [3, 2, 2, 1, 3, 2, 1], [3] * 7],
}


def english(title: str) -> Exercise:
    return Exercise.objects.get(title=title, owner=None, language="en-gb")


def spanish(title: str) -> Exercise:
    return Exercise.objects.get(owner=None, language="es", translation_of__title=title)


def chosen(exercise: Exercise, positions: list[int]) -> dict[str, str]:
    """Each scored question answered with the choice at that position, in its own words."""
    scored = [q for q in exercise.options["questions"] if q.get("scored")]
    return {q["key"]: q["choices"][p] for q, p in zip(scored, positions, strict=True)}


def sent(assignment: Assignment, positions: list[int], *, days_ago: int) -> Entry:
    return EntryFactory.create(
        assignment=assignment,
        response=chosen(assignment.exercise, positions),
        submitted_at=timezone.now() - dt.timedelta(days=days_ago),
    )


def test_the_spanish_versions_ask_the_published_spanish_items_in_usted():
    phq, gad = spanish("PHQ-9"), spanish("GAD-7")
    assert [q["text"] for q in KIND.questions(phq) if q.get("scored")] == PHQ9_ITEMS
    assert [q["text"] for q in KIND.questions(gad) if q.get("scored")] == GAD7_ITEMS
    assert PHQ9_ITEMS[0] == "Poco interés o placer en hacer cosas"
    assert GAD7_ITEMS[0] == "Se ha sentido nervioso(a), ansioso(a) o con los nervios de punta"
    assert PHQ9_OFTEN[0] == "Ningún día" and GAD7_OFTEN[0] == "Nunca"
    asked = "Durante las últimas 2 semanas, ¿qué tan seguido ha tenido molestias"
    assert phq.instructions.startswith(asked) and gad.instructions.startswith(asked)
    # Our own sentence speaks as the form does.
    assert "responda todas las preguntas" in phq.instructions


@pytest.mark.parametrize(("title", "items"), PAIRS)
def test_the_same_choice_positions_score_the_same_in_either_language(title, items):
    for positions in POSITIONS[title]:
        assert len(positions) == items
        in_english = KIND.score(chosen(english(title), positions), exercise=english(title))
        in_spanish = KIND.score(chosen(spanish(title), positions), exercise=spanish(title))
        assert in_spanish == in_english == sum(positions)


def test_item_9_above_ningun_dia_raises_the_review_flag_in_spanish_too():
    phq = spanish("PHQ-9")
    assert KIND.needs_review(chosen(phq, [0] * 8 + [1]), exercise=phq)
    assert not KIND.needs_review(chosen(phq, [3] * 8 + [0]), exercise=phq)
    assert not KIND.needs_review(chosen(spanish("GAD-7"), [3] * 7), exercise=spanish("GAD-7"))
    # The difficulty question is answered or not, and never counted.
    response = {**chosen(phq, [1] * 9), "difficulty": "Muy difícil"}
    assert KIND.score(response, exercise=phq) == 9


@pytest.mark.parametrize(
    ("title", "total", "band", "band_in_english"),
    [
        ("PHQ-9", 4, "Mínima", "Minimal"),
        ("PHQ-9", 5, "Leve", "Mild"),
        ("PHQ-9", 14, "Moderada", "Moderate"),
        ("PHQ-9", 15, "Moderadamente grave", "Moderately severe"),
        ("PHQ-9", 20, "Grave", "Severe"),
        ("GAD-7", 9, "Leve", "Mild"),
        ("GAD-7", 10, "Moderada", "Moderate"),
        ("GAD-7", 21, "Grave", "Severe"),
    ],
)
def test_a_total_falls_in_the_same_band_named_in_spanish(title, total, band, band_in_english):
    assert KIND.band_of(spanish(title), total) == band
    assert KIND.band_of(english(title), total) == band_in_english


@pytest.mark.parametrize(("title", "_items"), PAIRS)
def test_the_published_figures_are_the_english_ones(title, _items):
    es, en = spanish(title), english(title)
    assert cutoff_of(es) == cutoff_of(en) == 10
    assert reliable_change_of(es) == reliable_change_of(en)
    assert es.options["score"]["loinc"] == en.options["score"]["loinc"]
    assert (KIND.score_scale(es) or {}).get("max") == (KIND.score_scale(en) or {}).get("max")


def test_english_then_spanish_is_one_series_over_time(cast: Cast):
    before = AssignmentFactory.create(client=cast.alice, exercise=english("PHQ-9"))
    after = AssignmentFactory.create(client=cast.alice, exercise=spanish("PHQ-9"))
    sent(before, [3, 2, 3, 1, 2, 3, 2, 1, 0], days_ago=40)  # 17
    sent(after, [1, 0, 2, 0, 1, 3, 0, 0, 0], days_ago=3)  # 7
    histories = measure_histories(user=cast.tara, client=cast.alice)
    assert [[score for _at, score in h.scores] for h in histories] == [[17, 7]]
    # Named in the reader's language where the client answered that version.
    with translation.override("es"):
        (history,) = measure_histories(user=cast.tara, client=cast.alice)
    assert history.exercise == spanish("PHQ-9")
    with translation.override("en-gb"):
        (history,) = measure_histories(user=cast.tara, client=cast.alice)
    assert history.exercise == english("PHQ-9")
    reading = history.reading
    assert reading is not None and (reading.first, reading.latest) == (17, 7) and reading.reliable


def test_the_caseload_reads_one_change_across_the_languages(cast: Cast):
    before = AssignmentFactory.create(client=cast.alice, exercise=english("GAD-7"))
    after = AssignmentFactory.create(client=cast.alice, exercise=spanish("GAD-7"))
    sent(before, [3, 2, 2, 1, 3, 2, 1], days_ago=30)  # 14
    sent(after, [1, 1, 0, 2, 0, 1, 0], days_ago=2)  # 5
    with translation.override("en-gb"):
        changes = measure_changes(user=cast.tara, clients=[cast.alice])[cast.alice.pk]
    versions = {english("GAD-7"), spanish("GAD-7")}
    (gad,) = [change for change in changes if change.exercise in versions]
    assert gad.reading is not None and (gad.reading.first, gad.reading.latest) == (14, 5)
    # The client answered the version in the reader's language: it names the row.
    assert gad.exercise == english("GAD-7")


def test_a_summary_printed_with_no_request_names_the_measure_in_the_readers_language(
    cast: Cast, monkeypatch
):
    before = AssignmentFactory.create(client=cast.alice, exercise=english("PHQ-9"))
    after = AssignmentFactory.create(client=cast.alice, exercise=spanish("PHQ-9"))
    sent(before, [3, 2, 3, 1, 2, 3, 2, 1, 0], days_ago=40)
    sent(after, [1, 0, 2, 0, 1, 3, 0, 0, 0], days_ago=3)
    cast.tara.language = "es"
    cast.tara.save(update_fields=["language"])
    read: list[Exercise] = []
    monkeypatch.setattr(
        summary_services,
        "_from_storage_or_render",
        lambda data, **_kwargs: read.extend(m.exercise for m in data.measures),
    )
    with translation.override("en-gb"):  # a command's or a worker's: the practice's language
        summary_services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    assert read == [spanish("PHQ-9")]
