import datetime as dt
import uuid

import factory
from django.utils import timezone

from clients.models import Client, Session
from homework.models import Assignment, Entry, Exercise
from practice.models import User

PASSWORD = "a-long-test-password"


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


def written_record(**overrides: object) -> dict[str, object]:
    """A valid written-record response, as a form or the API would send it."""
    when = timezone.localtime() - dt.timedelta(hours=3)
    return {
        "occurred_at": when.strftime("%Y-%m-%dT%H:%M"),
        "what_happened": "They went quiet for the whole evening.",
        "what_was_said_or_done": "I was told I imagine things.",
        "body_distress": "7",
        "what_i_told_myself": "That I overreact.",
        "remember_when_i_miss_them": "The silence was a punishment.",
        **overrides,
    }


class EntryFactory(factory.django.DjangoModelFactory[Entry]):
    class Meta:
        model = Entry

    key = factory.LazyFunction(uuid.uuid4)
    assignment = factory.SubFactory(AssignmentFactory)
    schema_version = 1
    response = factory.LazyFunction(
        lambda: {
            **written_record(),
            "body_distress": 7,
            "occurred_at": (timezone.now() - dt.timedelta(hours=3)).isoformat(),
        }
    )
    status = Entry.Status.SUBMITTED
    submitted_at = factory.LazyFunction(timezone.now)
