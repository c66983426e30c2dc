"""Made-up clients for the benchmarks, and for the tests that hold the
summary to what the benchmark measures (a typical client prints on two pages).

Call with Django set up and a database to write to. The text is random
words from a fixed seed: the same client every run.
"""

import random

WORDS = [
    *[
        "they",
        "said",
        "again",
        "after",
        "quiet",
        "evening",
        "message",
        "phone",
        "called",
        "sister",
        "felt",
        "pull",
    ],
    *[
        "wanted",
        "reply",
        "waited",
        "instead",
        "walked",
        "outside",
        "breathing",
        "slow",
        "heart",
        "tight",
        "chest",
    ],
    *[
        "remember",
        "money",
        "card",
        "keys",
        "door",
        "late",
        "night",
        "morning",
        "work",
        "friend",
        "kind",
        "angry",
    ],
    *[
        "sorry",
        "promised",
        "never",
        "different",
        "this",
        "time",
        "shouted",
        "silence",
        "days",
        "week",
    ],
]


def _text(rng: random.Random, words: int) -> str:
    sentence: list[str] = []
    out: list[str] = []
    for _ in range(words):
        sentence.append(rng.choice(WORDS))
        if len(sentence) > rng.randint(6, 14):
            out.append(" ".join(sentence).capitalize() + ".")
            sentence = []
    return " ".join(out) or "Quiet."


def client_with_records(name: str, *, days: int, per_day: float, seed: int):
    import datetime as dt
    import uuid

    from django.utils import timezone

    from clients.services import client_create, session_schedule
    from homework.models import Assignment, Entry, Exercise
    from practice.models import User

    rng = random.Random(seed)  # noqa: S311 (made-up text, not secrets)
    therapist = User.objects.create_user(
        email=f"{name}-therapist@bench.test", name="Robin Hale", role="therapist", is_staff=True
    )
    client = client_create(actor=therapist, display_name=name)
    exercise = Exercise.objects.create(
        kind="written_record", title="Keep the full picture", instructions="Write it down."
    )
    now = timezone.now()
    assignment = Assignment.objects.create(
        client=client,
        exercise=exercise,
        starts_on=timezone.localdate() - dt.timedelta(days=days + 1),
        due_on=timezone.localdate() + dt.timedelta(days=1),
        created_by=therapist,
    )
    session_schedule(actor=therapist, client=client, starts_at=now - dt.timedelta(days=days))
    session_schedule(actor=therapist, client=client, starts_at=now + dt.timedelta(hours=20))
    count = int(days * per_day)
    entries = []
    for n in range(count):
        sent = now - dt.timedelta(days=days * (n + 0.5) / count)
        entries.append(
            Entry(
                key=uuid.uuid4(),
                assignment=assignment,
                schema_version=1,
                status=Entry.Status.SUBMITTED,
                submitted_at=sent,
                shared_at=sent,
                felt_unsafe=rng.random() < 0.08,
                discuss_in_session=rng.random() < 0.15,
                response={
                    "occurred_at": (sent - dt.timedelta(hours=2)).isoformat(),
                    "what_happened": _text(rng, rng.randint(30, 110)),
                    "what_was_said_or_done": _text(rng, rng.randint(10, 40)),
                    "body_distress": rng.randint(2, 9),
                    "what_i_told_myself": _text(rng, rng.randint(5, 20)),
                    "remember_when_i_miss_them": _text(rng, rng.randint(0, 15)),
                },
            )
        )
    Entry.objects.bulk_create(entries)
    return therapist, client


def add_other_kinds(client, therapist, *, days: int, seed: int) -> int:
    """Give a client the rest of a typical mix: a daily urge log, a boundary
    ladder, a support map, a safety plan and weekly check-ins, each response
    validated by its own kind, as the portal would store it."""
    import datetime as dt
    import uuid

    from django.utils import timezone

    from homework.kinds import get_kind
    from homework.library import install
    from homework.models import Assignment, Entry, Exercise

    rng = random.Random(seed)  # noqa: S311 (made-up text, not secrets)
    install(Exercise)
    today = timezone.localdate()
    now = timezone.now()

    def daylog(n: int) -> dict[str, object]:
        return {
            "at": (now - dt.timedelta(days=n, hours=3)).strftime("%Y-%m-%dT%H:%M"),
            "intensity": min(10, 3 + n // 3 + rng.randint(0, 2)),
            "trigger": rng.choice(["message", "memory", "loneliness", "saw_them"]),
            "trigger_note": _text(rng, 8),
            "did_instead": _text(rng, 10),
            "contact_happened": n == 15,
            "contact_initiated_by": "them" if n == 15 else "none",
        }

    plans: list[tuple[str, list[tuple[int, dict[str, object]]]]] = [
        ("30 days of no contact", [(n, daylog(n)) for n in range(days - 1)]),
        (
            "One small boundary",
            [
                (
                    5,
                    {
                        "steps": [
                            {
                                "boundary": _text(rng, 8),
                                "planned_on": (today - dt.timedelta(days=d)).isoformat(),
                                "status": status,
                                "what_happened": _text(rng, 15),
                                "feeling": rng.randint(3, 8),
                            }
                            for d, status in (
                                (12, "held"),
                                (8, "tried"),
                                (3, "not_yet"),
                                (0, "planned"),
                            )
                        ]
                    },
                )
            ],
        ),
        (
            "Who is in my corner",
            [
                (
                    9,
                    {
                        "people": [
                            {
                                "name": name,
                                "circle": circle,
                                "roles": roles,
                                "steadying": steadying,
                                "last_contact": (today - dt.timedelta(days=2)).isoformat(),
                            }
                            for name, circle, roles, steadying in (
                                ("Jo", "inner", ["reality_check", "knows_the_real_story"], True),
                                ("Sam", "inner", ["warmth"], True),
                                ("Mum", "middle", ["practical_help"], False),
                                ("Priya", "outer", ["warmth"], True),
                            )
                        ],
                        "places_and_services": [{"name": "Tuesday group", "circle": "middle"}],
                    },
                )
            ],
        ),
        (
            "My safety plan",
            [
                (
                    14,
                    {
                        key: _text(rng, 12)
                        for key in (
                            "warning_signs",
                            "safe_places",
                            "people_to_call",
                            "documents_and_where",
                            "emergency_numbers",
                            "code_word",
                        )
                    },
                )
            ],
        ),
        (
            "Weekly check-in: pull and clarity",
            [
                (
                    d,
                    {
                        "pull": rng.randint(4, 9),
                        "clarity": rng.randint(3, 8),
                        "supported": rng.randint(3, 8),
                        "safe": rng.randint(4, 9),
                        "kindness": rng.randint(2, 7),
                        "anything_else": _text(rng, 25),
                    },
                )
                for d in (2, 9, 16)
            ],
        ),
    ]
    entries = []
    for title, responses in plans:
        exercise = Exercise.objects.get(title=title)
        kind = get_kind(exercise.kind)
        assignment = Assignment.objects.create(
            client=client,
            exercise=exercise,
            starts_on=today - dt.timedelta(days=days + 1),
            due_on=today + dt.timedelta(days=1),
            created_by=therapist,
        )
        for days_ago, data in responses:
            response = kind.validate(data, exercise=exercise, tz=client.timezone)
            entries.append(
                Entry(
                    key=uuid.uuid4(),
                    assignment=assignment,
                    schema_version=kind.schema_version,
                    status=Entry.Status.SUBMITTED,
                    submitted_at=now - dt.timedelta(days=days_ago, hours=2),
                    shared_at=now - dt.timedelta(days=days_ago, hours=2),
                    response=response,
                    **kind.plain_columns(response, exercise=exercise),
                    discuss_in_session=rng.random() < 0.1,
                )
            )
    Entry.objects.bulk_create(entries)
    return len(entries)


def typical_client():
    """Three weeks of a typical client: ten written records, a daily urge
    log, a boundary ladder, a support map, a safety plan and weekly
    check-ins. Returns the therapist, the client and the number of entries."""
    therapist, client = client_with_records("Typical", days=21, per_day=10 / 21, seed=1)
    return therapist, client, 10 + add_other_kinds(client, therapist, days=21, seed=3)
