"""Scored measures over time, for staff: each total and subscale score a client sent, from plain
columns only (no response is decrypted), and the change from the first to the latest. A total exists only where
every scored question was answered (WorksheetScoring.score), and private entries and drafts are
never read (``readable_by_staff``)."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import OuterRef, QuerySet, Subquery
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clients.models import Client
from homework.kinds.worksheet.measures import (
    PUBLISHED_FIGURES,
    ChangeReading,
    change_reading,
    change_words,
)
from homework.models import Assignment, Entry, Exercise
from homework.selectors.scoping import assignments_for_user, entries_for_user
from practice.models import User

Series = list[tuple[dt.datetime, float]]  # oldest first


@dataclass(frozen=True)
class MeasureHistory:
    exercise: Exercise
    scores: Series
    # Each subscale's own, by its key: an entry with a subscale unanswered is missing from it.
    subscales: dict[str, Series] = field(default_factory=dict)

    @property
    def reading(self) -> ChangeReading | None:
        if len(self.scores) < 2:
            return None
        return change_reading(self.exercise, self.scores[0][1], self.scores[-1][1])


@dataclass(frozen=True)
class MeasureChange:
    """First and latest only: what a caseload row has room for."""

    exercise: Exercise
    latest: float
    reading: ChangeReading | None  # None with a single score

    @property
    def words(self) -> str:
        if self.reading is None:
            return _("one score so far")
        return change_words(self.reading)


def _measures_in_practice() -> QuerySet[Exercise]:
    # An urge log's score is the intensity, read by its own kind.
    return Exercise.objects.filter(options__score__has_any_keys=PUBLISHED_FIGURES)


def _scored(*, user: User) -> QuerySet[Entry]:
    return (
        entries_for_user(user=user)
        .readable_by_staff()
        .filter(score__isnull=False, assignment__exercise__in=_measures_in_practice())
        .order_by()
    )


def measure_key(exercise: Exercise) -> int:
    """An exercise and its versions in other languages are one measure, so one series: a client
    who answered the English PHQ-9, then the Spanish, has one PHQ-9 over time."""
    return exercise.translation_of_id or exercise.pk


def _shown_as(answered: list[Exercise]) -> Exercise:
    """Which version names the series: the reader's language where the client answered that one,
    else the one answered last. The figures are the same in every version."""
    reading_in = get_language()
    return next((e for e in reversed(answered) if e.language == reading_in), answered[-1])


def measure_histories(
    *, user: User, client: Client, until: dt.datetime | None = None
) -> list[MeasureHistory]:
    """One query, however many scores. Grouped by measure, not by assignment or language, so a
    measure assigned again, or in another language, carries on from its first score."""
    rows = _scored(user=user).filter(assignment__client=client)
    if until is not None:
        rows = rows.filter(submitted_at__lt=until)
    grouped: dict[int, Series] = defaultdict(list)
    parts: dict[int, dict[str, Series]] = defaultdict(lambda: defaultdict(list))
    answered: dict[int, dict[int, Exercise]] = defaultdict(dict)  # each measure's versions
    for entry in rows.select_related("assignment__exercise").order_by("submitted_at", "pk"):
        exercise = entry.assignment.exercise
        if entry.submitted_at is None or entry.score is None:  # by the filters; for types
            continue
        key = measure_key(exercise)
        answered[key].pop(exercise.pk, None)  # kept in the order last answered
        answered[key][exercise.pk] = exercise
        grouped[key].append((entry.submitted_at, entry.score))
        for part, score in (entry.subscale_scores or {}).items():
            parts[key][part].append((entry.submitted_at, float(score)))
    histories = [
        MeasureHistory(_shown_as(list(answered[key].values())), scores, dict(parts[key]))
        for key, scores in grouped.items()
    ]
    return sorted(histories, key=lambda history: _by_title(history.exercise))


def _by_title(exercise: Exercise) -> tuple[str, int]:
    return (exercise.title.casefold(), exercise.pk)


# Per assignment: client, measure, the first total's time and value, the latest's.
Totals = tuple[int, int, dt.datetime, float, dt.datetime, float]


def _per_assignment(assignments: QuerySet[Assignment]) -> list[Totals]:
    """Each assignment's first and latest total, read through the entries' index (assignment,
    status, -submitted_at): a few index steps each, however long the log."""
    theirs = (
        Entry.objects.readable_by_staff()
        .filter(assignment=OuterRef("pk"), score__isnull=False)
        .order_by()
    )
    oldest = theirs.order_by("submitted_at", "pk")
    newest = theirs.order_by("-submitted_at", "-pk")
    rows = (
        assignments.annotate(
            first_at=Subquery(oldest.values("submitted_at")[:1]),
            first_score=Subquery(oldest.values("score")[:1]),
            latest_at=Subquery(newest.values("submitted_at")[:1]),
            latest_score=Subquery(newest.values("score")[:1]),
        )
        .filter(first_at__isnull=False)
        .order_by()
        .values_list(
            "client_id",
            "exercise_id",
            "first_at",
            "first_score",
            "latest_at",
            "latest_score",
        )
    )
    return list(rows)


def measure_changes(*, user: User, clients: list[Client]) -> dict[int, list[MeasureChange]]:
    """Two queries for every row, however long the logs: the practice's measures, then each
    client's assignments of them with their first and latest totals. A measure assigned more
    than once, or in more than one language, reads from the first total of any to the latest of
    any."""
    if not clients:
        return {}
    exercises = {exercise.pk: exercise for exercise in _measures_in_practice()}
    assignments = assignments_for_user(user=user).filter(
        client__in=[client.pk for client in clients], exercise__in=list(exercises)
    )
    # (client, measure) -> the first total of any of its versions and the latest of any
    found: dict[tuple[int, int], Totals] = {}
    versions: dict[tuple[int, int], list[Exercise]] = defaultdict(list)
    # By the latest total's time, so each measure's versions end with the one answered last.
    for totals in sorted(_per_assignment(assignments), key=lambda totals: totals[4]):
        client_id, exercise_id, first_at, first, latest_at, latest = totals
        key = (client_id, measure_key(exercises[exercise_id]))
        versions[key].append(exercises[exercise_id])
        seen = found.get(key)
        if seen is not None:
            if seen[2] < first_at:
                first_at, first = seen[2], seen[3]
            if seen[4] > latest_at:
                latest_at, latest = seen[4], seen[5]
        found[key] = (client_id, exercise_id, first_at, first, latest_at, latest)
    changes: dict[int, list[MeasureChange]] = defaultdict(list)
    for key, (client_id, _exercise_id, first_at, first, latest_at, latest) in found.items():
        exercise = _shown_as(versions[key])
        # Two totals are never sent in the same instant, so one time means one total.
        reading = change_reading(exercise, first, latest) if latest_at > first_at else None
        changes[client_id].append(MeasureChange(exercise, latest, reading))
    for own in changes.values():
        own.sort(key=lambda change: _by_title(change.exercise))
    return dict(changes)
