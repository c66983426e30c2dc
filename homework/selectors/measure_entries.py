"""A client's standard measures and the entries of them staff may read: what a FHIR export holds."""

from dataclasses import dataclass

from clients.models import Client
from homework.kinds.worksheet.measures import is_measure
from homework.models import Entry, Exercise
from homework.selectors.listing import listed
from homework.selectors.scoping import assignments_for_user, entries_for_user
from practice.models import User


@dataclass(frozen=True)
class MeasureEntries:
    exercises: list[Exercise]  # each measure the client was asked, once, in the order first given
    entries: list[Entry]  # sent and shared, oldest first; never a draft or a private entry


def measure_entries_for_staff(*, user: User, client: Client) -> MeasureEntries:
    """Two queries however many entries: the client's assignments, then their measures' entries."""
    assignments = (
        assignments_for_user(user=user)
        .filter(client=client)
        .select_related("exercise")
        .order_by("created_at", "pk")
    )
    exercises: dict[int, Exercise] = {}
    measured: list[int] = []
    for assignment in assignments:
        if is_measure(assignment.exercise):
            exercises.setdefault(assignment.exercise_id, assignment.exercise)
            measured.append(assignment.pk)
    if not measured:
        return MeasureEntries(exercises=[], entries=[])
    entries = (
        listed(entries_for_user(user=user).readable_by_staff())
        .filter(assignment_id__in=measured)
        .select_related("assignment__exercise")
        .order_by("submitted_at", "pk")
    )
    return MeasureEntries(exercises=list(exercises.values()), entries=list(entries))
