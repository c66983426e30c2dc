"""Demo work in Spanish for Lucía, from the Spanish library: ten days of an urge log with a few
urges logged, the PHQ-9 in its published Spanish answered once, a reading with a reflection, and a
Spanish program if the library has one. Her own words are in Spanish, as she would write them.
Fixed keys make every entry the same on every run."""

import datetime as dt
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from clients.models import Client
from homework.library.es.measures import PHQ9_OFTEN
from homework.models import Assignment, ClientProgram, Exercise, Program
from homework.services.programs import client_program_create
from practice.models import User

if TYPE_CHECKING:
    from homework.management.commands.seed_demo import Command

NO_CONTACT_DAYS = 10
# (days since no contact began, hour, intensity, trigger, what she did instead, a note)
URGES: list[tuple[int, int, int, str, str, str]] = [
    (0, 22, 9, "loneliness", "Llamé a mi hermana y me quedé hablando con ella hasta tarde.", ""),
    (1, 8, 8, "memory", "Salí a caminar antes del trabajo.", "Desperté pensando en él."),
    (
        3,
        20,
        8,
        "message",
        "Leí su mensaje, no contesté y dejé el teléfono en la cocina.",
        "Me escribió que me extraña.",
    ),
    (5, 21, 6, "date_or_anniversary", "Cené con Marta.", "Era su cumpleaños."),
    (7, 19, 5, "memory", "Escribí en mi cuaderno lo que de verdad pasó.", ""),
    (9, 22, 3, "loneliness", "Puse música y me fui a dormir temprano.", ""),
]
# Positions of the answers she chose, item by item: a total of 11, item 9 "Ningún día".
PHQ9_ANSWERS = [2, 1, 2, 2, 1, 1, 1, 1, 0]


def spanish_version(title: str) -> Exercise | None:
    """Found by the library's English exercise it gives, not by its own title: the Spanish titles
    are the translators' to change."""
    return (
        Exercise.objects.filter(
            owner=None, language="es", translation_of__title=title, translation_of__owner=None
        )
        .order_by("pk")
        .first()
    )


def _local(day: dt.date, hour: int) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))


def _seed_urges(cmd: "Command", lucia: Client, therapist: User, today: dt.date) -> None:
    urge_log = spanish_version("30 days of no contact")
    if urge_log is None:
        return
    start = today - dt.timedelta(days=NO_CONTACT_DAYS - 1)
    assignment = cmd.assign_exercise(
        lucia,
        therapist,
        urge_log,
        starts_on=start,
        schedule="daily",
        ends_on=start + dt.timedelta(days=29),
        no_contact_since=start,
        instructions="Anota cada impulso, por pequeño que sea. Miraremos la curva juntas.",
    )
    now = timezone.localtime()
    for day_number, hour, intensity, trigger, did_instead, note in URGES:
        at = min(_local(start + dt.timedelta(days=day_number), hour), now - dt.timedelta(hours=1))
        data: dict[str, Any] = {
            "at": timezone.localtime(at).strftime("%Y-%m-%dT%H:%M"),
            "intensity": intensity,
            "trigger": trigger,
            "did_instead": did_instead,
            "contact_happened": False,
            "contact_initiated_by": "none",
        }
        if note:
            data["trigger_note"] = note
        cmd.send(
            assignment,
            f"lucia-urge-{day_number}",
            data,
            sent_at=at + dt.timedelta(minutes=5),
            occurrence_on=timezone.localdate(at),
        )


def _seed_phq9(cmd: "Command", lucia: Client, therapist: User, today: dt.date) -> None:
    phq9 = spanish_version("PHQ-9")
    if phq9 is None:
        return
    assignment = cmd.assign_exercise(
        lucia,
        therapist,
        phq9,
        starts_on=today - dt.timedelta(days=7),
        due_on=today + dt.timedelta(days=7),
    )
    answers = {f"phq9_{n}": PHQ9_OFTEN[p] for n, p in enumerate(PHQ9_ANSWERS, start=1)}
    cmd.send(
        assignment,
        "lucia-phq9-1",
        {**answers, "difficulty": "Un poco difícil"},
        sent_at=timezone.localtime() - dt.timedelta(days=4, hours=2),
    )


def _seed_program(cmd: "Command", lucia: Client, therapist: User, today: dt.date) -> None:
    """The first Spanish program, if the library has one yet, begun a few days ago."""
    program = (
        Program.objects.filter(owner=None, language="es", is_active=True).order_by("pk").first()
    )
    if program is None or ClientProgram.objects.filter(client=lucia).exists():
        return
    client_program_create(
        actor=therapist, client=lucia, program=program, starts_on=today - dt.timedelta(days=3)
    )


def _seed_reading(cmd: "Command", lucia: Client, therapist: User, today: dt.date) -> None:
    reading = spanish_version("Knowing, and the pull back")
    if reading is None:
        return
    # Her program may have sent it already: the same reading is not given twice.
    assignment = Assignment.objects.filter(
        client=lucia, exercise=reading
    ).first() or cmd.assign_exercise(
        lucia,
        therapist,
        reading,
        starts_on=today - dt.timedelta(days=3),
        due_on=today + dt.timedelta(days=4),
    )
    cmd.send(
        assignment,
        "lucia-reading-1",
        {"reflection_1": "Que todavía lo extrañe no quiere decir que me equivoqué al irme."},
        sent_at=timezone.localtime() - dt.timedelta(days=1, hours=3),
    )


def seed_lucia(cmd: "Command", *, lucia: Client, therapist: User, today: dt.date) -> None:
    _seed_urges(cmd, lucia, therapist, today)
    _seed_phq9(cmd, lucia, therapist, today)
    _seed_program(cmd, lucia, therapist, today)
    _seed_reading(cmd, lucia, therapist, today)
