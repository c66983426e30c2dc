"""Scored measures over time, for staff: each total a client sent, from plain columns only (no
response is decrypted), and the change from the first to the latest. A total exists only where
every scored question was answered (WorksheetScoring.score), and private entries and drafts are
never read (``readable_by_staff``)."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, F, QuerySet, Window
from django.db.models.functions import FirstValue, RowNumber
from django.utils.translation import gettext as _

from clients.models import Client
from homework.kinds.worksheet.measures import ChangeReading, change_reading, change_words
from homework.models import Entry, Exercise
from homework.selectors.scoping import entries_for_user
from practice.models import User


@dataclass(frozen=True)
class MeasureHistory:
    exercise: Exercise
    scores: list[tuple[dt.datetime, float]]  # oldest first

    @property
    def reading(self) -> ChangeReading | None:
        if len(self.scores) < 2:
            return None
        return change_reading(self.exercise, self.scores[0][1], self.scores[-1][1])


@dataclass(frozen=True)
class MeasureChange:
    """First and latest only: what a caseload row has room for."""

    exercise: Exercise
    count: int
    latest: float
    reading: ChangeReading | None  # None with a single score

    @property
    def words(self) -> str:
        if self.reading is None:
            return _("one score so far")
        return change_words(self.reading)


def _scored(*, user: User) -> QuerySet[Entry]:
    # A measure is a worksheet whose score has published bands: a therapist's own check-in total
    # stays in its own section, and an urge log's score is the intensity, read by its own kind.
    return (
        entries_for_user(user=user)
        .readable_by_staff()
        .filter(score__isnull=False, assignment__exercise__options__score__has_key="bands")
        .order_by()
    )


def measure_histories(
    *, user: User, client: Client, until: dt.datetime | None = None
) -> list[MeasureHistory]:
    """One query, however many scores. Grouped by measure, not by assignment, so a measure
    assigned again carries on from its first score."""
    rows = _scored(user=user).filter(assignment__client=client)
    if until is not None:
        rows = rows.filter(submitted_at__lt=until)
    grouped: dict[int, list[tuple[dt.datetime, float]]] = defaultdict(list)
    exercises: dict[int, Exercise] = {}
    for entry in rows.select_related("assignment__exercise").order_by("submitted_at", "pk"):
        exercise = exercises.setdefault(entry.assignment.exercise_id, entry.assignment.exercise)
        if entry.submitted_at is not None and entry.score is not None:  # by the filters; for types
            grouped[exercise.pk].append((entry.submitted_at, entry.score))
    histories = [MeasureHistory(exercises[pk], scores) for pk, scores in grouped.items()]
    return sorted(histories, key=lambda history: _by_title(history.exercise))


def _by_title(exercise: Exercise) -> tuple[str, int]:
    return (exercise.title.casefold(), exercise.pk)


def measure_changes(*, user: User, clients: list[Client]) -> dict[int, list[MeasureChange]]:
    """One query for every row, however long the logs: one row per client and measure, its first
    total numbered in the same pass (``FirstValue``)."""
    if not clients:
        return {}
    group = [F("assignment__client_id"), F("assignment__exercise_id")]
    rows = (
        _scored(user=user)
        .filter(assignment__client__in=[client.pk for client in clients])
        .annotate(
            newest=Window(
                RowNumber(),
                partition_by=group,
                order_by=[F("submitted_at").desc(), F("pk").desc()],
            ),
            first_score=Window(
                FirstValue("score"),
                partition_by=group,
                order_by=[F("submitted_at").asc(), F("pk").asc()],
            ),
            sent=Window(Count("pk"), partition_by=group),
        )
        .filter(newest=1)
        .select_related("assignment__exercise")
        .only("score", "assignment__client_id", "assignment__exercise")
    )
    changes: dict[int, list[MeasureChange]] = defaultdict(list)
    for entry in rows:
        exercise, first, latest = entry.assignment.exercise, entry.first_score, entry.score
        if latest is None:  # never, by the filters; said so for the types
            continue
        sent = entry.sent
        reading = change_reading(exercise, first, latest) if sent > 1 else None
        changes[entry.assignment.client_id].append(MeasureChange(exercise, sent, latest, reading))
    for own in changes.values():
        own.sort(key=lambda change: _by_title(change.exercise))
    return dict(changes)
