"""Demo work of every kind for Alex: three weeks of an urge log that eases,
a boundary ladder, two support maps, a safety plan, weekly check-ins, a
worksheet and part of a program. Fixed keys make every entry the same on every run."""

import datetime as dt
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from clients.models import Client
from homework.library.programs import PROGRAMS
from homework.models import ClientProgram, Program
from homework.services import Flags
from homework.services.programs import client_program_create, client_program_skip_step
from practice.models import User

if TYPE_CHECKING:
    from homework.management.commands.seed_demo import Command

URGE_DAYS = 21
# Three, then two, then one urge a day; the pull starts high and eases.
URGE_TIMES = [(9, 1), (14, 0), (21, -1)]
URGE_TRIGGERS = ["memory", "loneliness", "message", "memory", "loneliness", "other", "memory"]


def _local(day: dt.date, hour: int) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))


def _seed_urges(cmd: "Command", alex: Client, therapist: User, today: dt.date) -> None:
    start = today - dt.timedelta(days=URGE_DAYS - 1)
    assignment = cmd.assign(
        alex,
        therapist,
        "30 days of no contact",
        starts_on=start,
        schedule="daily",
        ends_on=start + dt.timedelta(days=29),
        no_contact_since=start,
        instructions="Log every pull, however small. We'll look at the curve together.",
    )
    now = timezone.localtime()
    for day_number in range(URGE_DAYS):
        day = start + dt.timedelta(days=day_number)
        urges_today = 3 if day_number < 7 else 2 if day_number < 14 else 1
        base = 8 - day_number * 0.25
        for slot, (hour, wobble) in enumerate(URGE_TIMES[:urges_today]):
            at = _local(day, hour)
            if at > now:  # later today: say it happened a little earlier, but today
                midnight = _local(today, 0)
                at = max(now - dt.timedelta(minutes=30 * (slot + 1)), midnight)
            data: dict[str, Any] = {
                "at": timezone.localtime(at).strftime("%Y-%m-%dT%H:%M"),
                "intensity": max(0, min(10, round(base + wobble))),
                "trigger": URGE_TRIGGERS[(day_number + slot) % len(URGE_TRIGGERS)],
                "did_instead": "Went for a walk and texted Jo instead.",
                "contact_happened": False,
                "contact_initiated_by": "none",
            }
            if day_number == 5 and slot == 0:
                data.update(
                    intensity=9,
                    trigger="message",
                    trigger_note="A long message about how much they miss me.",
                    did_instead="I replied once, then stopped and called my sister.",
                    contact_happened=True,
                    contact_initiated_by="them",
                )
            if day_number == 12 and slot == 0:
                data.update(trigger="date_or_anniversary", trigger_note="Our anniversary.")
            cmd.send(
                assignment,
                f"alex-urge-{day_number}-{slot}",
                data,
                sent_at=at + dt.timedelta(minutes=5),
                occurrence_on=timezone.localdate(at),
            )


def _seed_ladder_map_and_plan(
    cmd: "Command", alex: Client, therapist: User, today: dt.date
) -> None:
    ladder = cmd.assign(
        alex,
        therapist,
        "One small boundary",
        starts_on=today - dt.timedelta(days=14),
        due_on=today + dt.timedelta(days=7),
    )
    cmd.send(
        ladder,
        "alex-ladder-1",
        {
            "steps": [
                {
                    "boundary": "I won't reply to messages after 10 pm.",
                    "planned_on": (today - dt.timedelta(days=13)).isoformat(),
                    "status": "held",
                    "what_happened": "Phone in the kitchen at night. It held every night this week.",
                    "feeling": 7,
                },
                {
                    "boundary": "Keep Sunday lunch with my sister, whatever happens.",
                    "planned_on": (today - dt.timedelta(days=6)).isoformat(),
                    "status": "tried",
                    "what_happened": "I went, but left early when my phone buzzed.",
                    "feeling": 5,
                },
                {
                    "boundary": "Ask for a day to think before agreeing to anything about money.",
                    "status": "not_yet",
                    "what_happened": "I started to say it, then said yes anyway.",
                    "feeling": 3,
                },
                {
                    "boundary": "Go to the pottery class on my own.",
                    "planned_on": (today + dt.timedelta(days=3)).isoformat(),
                    "status": "planned",
                },
            ]
        },
        sent_at=timezone.localtime() - dt.timedelta(days=2, hours=3),
        flags=Flags(discuss_in_session=True),
    )
    network = cmd.assign(
        alex,
        therapist,
        "Who is in my corner",
        starts_on=today - dt.timedelta(days=12),
        due_on=today + dt.timedelta(days=2),
    )
    first_map = [
        {
            "name": "Jo",
            "circle": "inner",
            "roles": ["reality_check", "knows_the_real_story"],
            "steadying": True,
        },
        {"name": "Mum", "circle": "middle", "roles": ["warmth"], "steadying": False},
        {"name": "Priya", "circle": "outer", "roles": ["practical_help"], "steadying": True},
    ]
    cmd.send(
        network,
        "alex-map-1",
        {"people": first_map},
        sent_at=timezone.localtime() - dt.timedelta(days=10),
    )
    cmd.send(
        network,
        "alex-map-2",
        {
            "people": [
                first_map[0],
                first_map[1],
                {
                    "name": "Priya",
                    "circle": "middle",
                    "roles": ["practical_help", "reality_check"],
                    "steadying": True,
                    "last_contact": (today - dt.timedelta(days=1)).isoformat(),
                },
                {"name": "Sam (work)", "circle": "outer", "roles": ["warmth"], "steadying": True},
            ],
            "places_and_services": [
                {"name": "Tuesday support group", "circle": "middle"},
                {"name": "The helpline", "circle": "outer"},
            ],
        },
        sent_at=timezone.localtime() - dt.timedelta(days=1, hours=4),
    )
    plan = cmd.assign(
        alex,
        therapist,
        "My safety plan",
        starts_on=today - dt.timedelta(days=7),
        due_on=today + dt.timedelta(days=7),
    )
    cmd.send(
        plan,
        "alex-safety-plan-1",
        {
            "warning_signs": "Drinking more, going very quiet, checking my phone.",
            "safe_places": "Jo's flat (key under the blue pot).",
            "people_to_call": "Jo, then my sister.",
            "documents_and_where": "Passport and bank papers: copies at Jo's.",
            "emergency_numbers": "999; the helpline number is on the card in my purse.",
            "code_word": "pineapple",
        },
        sent_at=timezone.localtime() - dt.timedelta(days=6),
    )


def _seed_worksheets(cmd: "Command", alex: Client, therapist: User, today: dt.date) -> None:
    start = today - dt.timedelta(days=21)
    check_in = cmd.assign(
        alex,
        therapist,
        "Weekly check-in: pull and clarity",
        starts_on=start,
        schedule="weekly",
        weekdays=[today.weekday()],
        ends_on=today + dt.timedelta(days=35),
    )
    answers = [
        {"pull": 8, "clarity": 3, "supported": 4, "safe": 5, "kindness": 2},
        {"pull": 6, "clarity": 5, "supported": 5, "safe": 6, "kindness": 4},
        # A week the pull eased and safety did not: the answer the check-in watches.
        {"pull": 4, "clarity": 6, "supported": 7, "safe": 3, "kindness": 5},
    ]
    for week, answer in enumerate(answers):
        slot = start + dt.timedelta(days=7 * week)
        cmd.send(
            check_in,
            f"alex-check-in-{week}",
            answer,
            sent_at=_local(slot, 19),
            occurrence_on=slot,
        )
    abandon = cmd.assign(
        alex,
        therapist,
        "Where do I abandon myself?",
        starts_on=today - dt.timedelta(days=9),
        due_on=today - dt.timedelta(days=2),
    )
    cmd.send(
        abandon,
        "alex-abandon-1",
        {
            "moment": "They wanted to come round on the evening I'd planned to see Jo. I cancelled Jo.",
            "wanted": "To keep my plan, and to see my friend.",
            "what_got_in_the_way": "I was afraid of how they would react",
            "next_time": "Say 'I already have plans' and leave it there.",
            "kindness": 4,
        },
        sent_at=timezone.localtime() - dt.timedelta(days=3),
    )
    cmd.assign(
        alex,
        therapist,
        "Things that make me feel alive",
        starts_on=today,
        due_on=today + dt.timedelta(days=5),
    )


def _seed_program(cmd: "Command", alex: Client, therapist: User, today: dt.date) -> None:
    """Alex part-way through the four-week program: its first reading read with a reflection, the
    urge-log step skipped (Alex keeps one already), so the day-8 reading is the current step."""
    program = Program.objects.filter(title=PROGRAMS[0]["title"], owner=None).first()
    if program is None or ClientProgram.objects.filter(client=alex, program=program).exists():
        return
    client_program = client_program_create(
        actor=therapist, client=alex, program=program, starts_on=today - dt.timedelta(days=9)
    )
    first = client_program.steps.get(position=1)
    assert first.assignment is not None
    answer = {"reflection_1": "That feeling pulled back does not mean I decided wrong."}
    cmd.send(
        first.assignment,
        "alex-reading-1",
        answer,
        sent_at=timezone.localtime() - dt.timedelta(hours=20),
    )
    client_program_skip_step(
        actor=therapist,
        client_program_id=client_program.pk,
        step_id=client_program.steps.get(position=2).pk,
    )


def seed_alex(cmd: "Command", *, alex: Client, therapist: User, today: dt.date) -> None:
    _seed_urges(cmd, alex, therapist, today)
    _seed_ladder_map_and_plan(cmd, alex, therapist, today)
    _seed_worksheets(cmd, alex, therapist, today)
    _seed_program(cmd, alex, therapist, today)
