import datetime as dt
import uuid
from collections.abc import Callable
from typing import Any

import factory
from django.db import transaction
from django.utils import timezone

from clients.models import Client, Session
from homework.kinds import get_kind
from homework.models import Assignment, Entry, Exercise, OutboxMessage
from homework.services import alerts, outbox
from practice.models import User

PASSWORD = "a-long-test-password"


def earlier_today(*, hours: float) -> dt.datetime:
    """``hours`` before now, but never before local midnight.

    An entry counts for the day it records, so an entry made "a while ago"
    must still record today, whatever the hour the test runs at.
    """
    # Subtracted in UTC: wall-clock arithmetic can land in the hour a DST change skips.
    earlier = timezone.localtime(timezone.now() - dt.timedelta(hours=hours))
    midnight = timezone.make_aware(dt.datetime.combine(timezone.localdate(), dt.time()))
    return max(earlier, timezone.localtime(midnight))


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User

    email = factory.Sequence(lambda n: f"person{n}@example.test")
    name = factory.Faker("first_name")
    role = User.Role.CLIENT
    password = factory.django.Password(PASSWORD)


class TherapistFactory(UserFactory):
    role = User.Role.THERAPIST
    is_staff = True


class ManagerFactory(UserFactory):
    role = User.Role.MANAGER
    is_staff = True


class ClientFactory(factory.django.DjangoModelFactory[Client]):
    class Meta:
        model = Client

    therapist = factory.SubFactory(TherapistFactory)
    display_name = factory.Faker("first_name")
    portal_user = factory.SubFactory(UserFactory)
    timezone = "Europe/London"


class SessionFactory(factory.django.DjangoModelFactory[Session]):
    class Meta:
        model = Session

    client = factory.SubFactory(ClientFactory)
    starts_at = factory.LazyFunction(lambda: timezone.now() + dt.timedelta(days=1))


class ExerciseFactory(factory.django.DjangoModelFactory[Exercise]):
    class Meta:
        model = Exercise

    kind = "written_record"
    title = factory.Sequence(lambda n: f"Keep the full picture {n}")
    instructions = "Write it down while it is fresh."


class AssignmentFactory(factory.django.DjangoModelFactory[Assignment]):
    class Meta:
        model = Assignment

    client = factory.SubFactory(ClientFactory)
    exercise = factory.SubFactory(ExerciseFactory)
    starts_on = factory.LazyFunction(lambda: timezone.localdate() - dt.timedelta(days=7))
    due_on = factory.LazyFunction(lambda: timezone.localdate() + dt.timedelta(days=7))
    created_by = factory.SelfAttribute("client.therapist")


def daily_assignment(client: Client, **fields: Any) -> Assignment:
    """Work the client does every day of its dates: a daily schedule has no due day."""
    return AssignmentFactory.create(
        client=client, schedule=Assignment.Schedule.DAILY, due_on=None, **fields
    )


def weekly_assignment(client: Client, **fields: Any) -> Assignment:
    """Work on the ``weekdays`` of each week of its dates: no single due day either."""
    return AssignmentFactory.create(
        client=client, schedule=Assignment.Schedule.WEEKLY, due_on=None, **fields
    )


def written_record(**overrides: object) -> dict[str, object]:
    """A valid written-record response, as a form or the API would send it."""
    when = earlier_today(hours=3)
    return {
        "occurred_at": when.strftime("%Y-%m-%dT%H:%M"),
        "what_happened": "They went quiet for the whole evening.",
        "what_was_said_or_done": "I was told I imagine things.",
        "body_distress": "7",
        "what_i_told_myself": "That I overreact.",
        "remember_when_i_miss_them": "The silence was a punishment.",
        **overrides,
    }


def _plain(entry: Any, column: str) -> Any:
    if entry.status != Entry.Status.SUBMITTED:
        return None  # a draft keeps none until it is sent
    exercise = entry.assignment.exercise
    return get_kind(exercise.kind).plain_columns(dict(entry.response), exercise=exercise)[column]


class EntryFactory(factory.django.DjangoModelFactory[Entry]):
    class Meta:
        model = Entry
        skip_postgeneration_save = True  # the hook below writes its own row

    key = factory.LazyFunction(uuid.uuid4)
    assignment = factory.SubFactory(AssignmentFactory)
    schema_version = 1
    response = factory.LazyFunction(
        lambda: {
            **written_record(),
            "body_distress": 7,
            "occurred_at": earlier_today(hours=3).isoformat(),
        }
    )
    status = Entry.Status.SUBMITTED
    private = False
    submitted_at = factory.LazyFunction(timezone.now)
    # A shared entry was shared when it was sent (services.entry_submit does the same).
    shared_at = factory.LazyAttribute(
        lambda entry: None
        if entry.private or entry.status != Entry.Status.SUBMITTED
        else entry.submitted_at
    )

    # The plain columns a sent entry keeps beside its response, as the
    # services derive them (ExerciseKind.plain_columns); given, they stay as given.
    score = factory.LazyAttribute(lambda entry: _plain(entry, "score"))
    subscale_scores = factory.LazyAttribute(lambda entry: _plain(entry, "subscale_scores"))
    happened_at = factory.LazyAttribute(lambda entry: _plain(entry, "happened_at"))
    contact_happened = factory.LazyAttribute(lambda entry: _plain(entry, "contact_happened"))
    needs_review = factory.LazyAttribute(lambda entry: bool(_plain(entry, "needs_review")))

    @factory.post_generation  # type: ignore[misc]  # factory_boy is untyped
    def therapist_notice(entry: Entry, create: bool, extracted: Any, **fields: Any) -> None:
        """A shared entry's notice waits in the outbox and its alerts are open, as the services
        write them; ``therapist_notice__state=...`` (or ``__attempts``) says how it went."""
        if create and entry.is_submitted and not entry.private:
            with transaction.atomic():  # the service locks the entry's notices
                alerts.alerts_raise(entry=entry, now=entry.shared_at)
                outbox.entry_notice_write(entry=entry)
            if fields:
                OutboxMessage.objects.filter(entry=entry).update(**fields)


# -- valid responses for every kind, as the API would send them (rows as lists)

ALL_QUESTION_TYPES: dict[str, Any] = {
    "questions": [
        {
            "key": "pull",
            "type": "scale_0_10",
            "text": "How strong was the pull?",
            "scored": True,
            "reverse": True,
        },
        {"key": "clarity", "type": "scale_0_10", "text": "How clear do you feel?", "scored": True},
        {"key": "word", "type": "short_text", "text": "One word for the week", "required": True},
        {"key": "story", "type": "long_text", "text": "What happened?"},
        {
            "key": "place",
            "type": "single_choice",
            "text": "Where were you?",
            "choices": ["Home", "Work"],
        },
        {
            "key": "helped",
            "type": "multiple_choice",
            "text": "What helped?",
            "choices": ["A walk", "A friend", "Sleep"],
        },
        {"key": "safe", "type": "yes_no", "text": "Did you feel safe?"},
        {"key": "when", "type": "date", "text": "When?"},
    ],
    "score": {"method": "mean", "better": "higher", "label": "Steadiness"},
}


def urge_log(**overrides: object) -> dict[str, Any]:
    when = earlier_today(hours=1)
    return {
        "at": when.strftime("%Y-%m-%dT%H:%M"),
        "intensity": 7,
        "trigger": "message",
        "trigger_note": "A photo from last summer.",
        "did_instead": "Called my sister.",
        "contact_happened": False,
        "contact_initiated_by": "none",
        **overrides,
    }


def boundary_steps(**overrides: object) -> dict[str, Any]:
    return {
        "steps": [
            {
                "boundary": "No calls after 10 pm.",
                "planned_on": "2026-01-05",
                "status": "held",
                "what_happened": "It held.",
                "feeling": 7,
            },
            {"boundary": "Sunday lunch with my sister.", "status": "planned"},
        ],
        **overrides,
    }


def support_network(**overrides: object) -> dict[str, Any]:
    return {
        "people": [
            {
                "name": "Jo",
                "circle": "inner",
                "roles": ["reality_check", "knows_the_real_story"],
                "steadying": True,
                "last_contact": "2026-01-02",
            },
            {"name": "Mum", "circle": "middle", "roles": ["warmth"], "steadying": False},
        ],
        "places_and_services": [{"name": "Tuesday group", "circle": "outer"}],
        **overrides,
    }


def safety_plan(**overrides: object) -> dict[str, Any]:
    return {
        "warning_signs": "Going quiet; checking my phone.",
        "safe_places": "Jo's flat.",
        "people_to_call": "Jo, then my sister.",
        "documents_and_where": "Copies at Jo's.",
        "emergency_numbers": "999",
        "code_word": "pineapple",
        **overrides,
    }


def worksheet(**overrides: object) -> dict[str, Any]:
    return {
        "pull": 8,
        "clarity": 6,
        "word": "tired",
        "story": "A long week.",
        "place": "Home",
        "helped": ["A walk", "Sleep"],
        "safe": "yes",
        "when": "2026-01-03",
        **overrides,
    }


def reading(**overrides: object) -> dict[str, Any]:
    return {
        "reflection_1": "That struggling does not mean I chose wrong.",
        "reflection_2": "Writing things down when I miss them.",
        **overrides,
    }


READING_OPTIONS: dict[str, Any] = {
    "text": "## Knowing is not leaving\n\nYou can know something *and* still feel pulled.\n\n"
    "- one thing\n- another",
    "prompts": ["What stayed with you?", "What might you take into this week?"],
}


RESPONSES = {
    "written_record": written_record,
    "urge_log": urge_log,
    "boundary_steps": boundary_steps,
    "support_network": support_network,
    "safety_plan": safety_plan,
    "worksheet": worksheet,
    "reading": reading,
}

# Per kind, per answer: the words its pages use to state that answer, which
# must never be printed for an entry that left it blank
# (tests/homework/test_honest_blanks.py adds each choice's own words, any
# number out of 10, and days without contact, for every kind).
ASSERTS_WHEN_BLANK: dict[str, dict[str, tuple[str, ...]]] = {
    "written_record": {},
    "urge_log": {},
    "boundary_steps": {"planned_on": ("planned for",), "feeling": ("felt",)},
    "support_network": {
        "steadying": ("steadying", "not always"),
        "roles": ("0 for a reality check",),
        "last_contact": ("last in touch",),
    },
    "safety_plan": {},
    "worksheet": {},
    "reading": {},
}

OPTIONS: dict[str, dict[str, Any]] = {
    "worksheet": ALL_QUESTION_TYPES,
    "reading": READING_OPTIONS,
}


def options_for(kind_slug: str) -> dict[str, Any]:
    return OPTIONS.get(kind_slug, {})


def flat(data: dict[str, object]) -> dict[str, object]:
    """A response as the portal posts it: rows as ``steps-0-boundary``."""
    posted: dict[str, object] = {}
    for key, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            for index, row in enumerate(value):
                for field, field_value in row.items():
                    posted[f"{key}-{index}-{field}"] = field_value
        else:
            posted[key] = value
    return posted


def posted_form(data: dict[str, object]) -> dict[str, object]:
    """A response as a browser's form post: ``r-`` names, strings, ticked boxes as "on"."""
    form: dict[str, object] = {}
    for key, value in flat(data).items():
        if value is True:
            form[f"r-{key}"] = "on"
        elif value is False or value is None:
            continue
        elif isinstance(value, list):
            form[f"r-{key}"] = [str(item) for item in value]
        else:
            form[f"r-{key}"] = str(value)
    return form


def daily_urge_log(
    client: Client, *, start: dt.date, days: int, intensity: Callable[[int], int]
) -> Assignment:
    """A daily urge log begun on ``start``, with no contact since then, and
    an urge sent at noon on each of its first ``days`` days: ``intensity(day)``."""
    assignment = daily_assignment(
        client,
        exercise=ExerciseFactory.create(kind="urge_log", options=options_for("urge_log")),
        starts_on=start,
        ends_on=start + dt.timedelta(days=29),
        no_contact_since=start,
    )
    for day in range(days):
        at = timezone.make_aware(dt.datetime.combine(start + dt.timedelta(days=day), dt.time(12)))
        EntryFactory.create(
            assignment=assignment,
            submitted_at=at,
            response={**urge_log(), "at": at.isoformat(), "intensity": intensity(day)},
        )
    return assignment
