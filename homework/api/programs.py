"""Programs through the API: the library of them, and a client's programs with where they stand.

Staff routes are scoped as the admin is (a therapist the practice's programs
and their own, their own clients; the manager all; anyone else's is a 404),
and every change is the admin's own service: assigning releases the first
steps at once, and pause, resume, stop and skip are logged on the client's
history. The client's own route says only "step N of M" and whether the
program is paused: never the titles of steps to come, never a reason.
"""

from collections.abc import Iterable
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from clients.api.permissions import portal_client
from clients.models import Client
from homework import selectors
from homework.api.client import ClientView
from homework.models import ClientProgram, ClientProgramStep, Program, ProgramStep, Release
from homework.selectors.programs import (
    Standing,
    client_programs_for_user,
    programs_for_user,
    programs_with_steps,
    running_programs,
    standing,
    with_steps,
)
from homework.services import programs as services
from practice.api.idempotency import IDEMPOTENCY_KEY_HEADER, idempotent
from practice.api.permissions import staff_user
from practice.api.serializers import StrictInput
from practice.api.views import StaffView
from practice.models import User

# -- the library of programs -----------------------------------------------------------


class ProgramStepOut(serializers.Serializer[ProgramStep]):
    position = serializers.IntegerField(help_text=_("1 is the first step."))
    exercise = serializers.IntegerField(source="exercise_id")
    title = serializers.CharField(source="exercise.title", help_text=_("The exercise's title."))
    kind = serializers.CharField(source="exercise.kind")
    instructions = serializers.CharField(
        help_text=_("This step's own words, above the exercise's.")
    )
    release = serializers.ChoiceField(choices=Release.choices, help_text=_("When the step comes."))
    days = serializers.IntegerField(
        allow_null=True,
        help_text=_("For after_previous_days: how many; for on_day: which day, day 1 first."),
    )
    # DRF's metaclass takes this as a field, so Field.required stays as it was.
    required = serializers.BooleanField(  # type: ignore[assignment]
        help_text=_("The next step waits until this one is done, whatever its own rule says.")
    )


class ProgramOut(serializers.Serializer[Program]):
    id = serializers.IntegerField()
    title = serializers.CharField()
    description = serializers.CharField(help_text=_("For therapists; clients never see it."))
    owner = serializers.IntegerField(
        source="owner_id", allow_null=True, help_text=_("Null: the practice's own.")
    )
    is_active = serializers.BooleanField(help_text=_("False: kept, but no longer assigned."))
    steps = ProgramStepOut(many=True)


class Programs(StaffView):
    serializer_class = ProgramOut

    @extend_schema(
        operation_id="programs_list",
        summary="The programs you may assign, with their steps",
        responses=ProgramOut(many=True),
    )
    def get(self, request: Request) -> Response:
        programs = programs_for_user(user=staff_user(request)).order_by("title", "pk")
        return self.page_of(programs_with_steps(programs))


class ProgramDetail(StaffView):
    serializer_class = ProgramOut

    @extend_schema(operation_id="program_read", summary="One program, with its steps")
    def get(self, request: Request, program_id: int) -> Response:
        programs = programs_for_user(user=staff_user(request))
        return Response(ProgramOut(programs_with_steps(programs).get(pk=program_id)).data)


# -- a client's programs ---------------------------------------------------------------


class ClientProgramStepOut(ProgramStepOut):
    """A step of the client's own copy: later edits to the program never move it."""

    id = serializers.IntegerField(help_text=_("The step to name when skipping it."))
    released = serializers.BooleanField(
        source="is_released", help_text=_("Given to the client as an assignment.")
    )
    assignment = serializers.IntegerField(
        source="assignment_id",
        allow_null=True,
        help_text=_("The assignment it became, once released."),
    )
    done_on = serializers.DateField(allow_null=True, help_text=_("On the client's calendar."))
    skipped = serializers.SerializerMethodField()

    def get_skipped(self, step: ClientProgramStep) -> bool:
        return step.skipped_at is not None


class ClientProgramOut(serializers.Serializer[Standing]):
    id = serializers.IntegerField(source="client_program.pk")
    client = serializers.IntegerField(source="client_program.client_id")
    program = serializers.IntegerField(source="client_program.program_id")
    title = serializers.CharField(source="client_program.title")
    status = serializers.ChoiceField(
        source="client_program.status", choices=ClientProgram.Status.choices
    )
    starts_on = serializers.DateField(source="client_program.starts_on")
    created_at = serializers.DateTimeField(source="client_program.created_at")
    step = serializers.IntegerField(
        help_text=_("The step the client is on, counted from 1; the last once all are finished.")
    )
    step_count = serializers.IntegerField(source="steps")
    finished_count = serializers.IntegerField(source="finished", help_text=_("Done or skipped."))
    steps = ClientProgramStepOut(many=True, source="client_program.steps.all")


def client_program_standing(user: User, client_program_id: int) -> Standing:
    """One of the caller's clients' programs, read with its steps; a 404 for anyone else's."""
    return standing(with_steps(client_programs_for_user(user=user)).get(pk=client_program_id))


@extend_schema_field(OpenApiTypes.INT)
class ProgramField(serializers.PrimaryKeyRelatedField):  # type: ignore[type-arg]
    """A program's id, looked up among those the caller may assign."""

    def get_queryset(self) -> QuerySet[Program]:
        return programs_for_user(user=self.context["user"]).filter(is_active=True)


class ClientProgramIn(StrictInput):
    program = ProgramField()
    starts_on = serializers.DateField(
        help_text=_(
            "Day 1 of the program, on the client's calendar: from a month ago to a year ahead."
        )
    )


def standings(client_programs: Iterable[ClientProgram]) -> list[Standing]:
    return [standing(client_program) for client_program in client_programs]


class ClientPrograms(StaffView):
    serializer_class = ClientProgramOut

    @extend_schema(
        operation_id="client_programs",
        summary="A client's programs and where they stand",
        responses=ClientProgramOut(many=True),
    )
    def get(self, request: Request, client_id: int) -> Response:
        user = staff_user(request)
        client = selectors.staff_client(user=user, client_id=client_id)
        client_programs = client_programs_for_user(user=user).filter(client=client)
        return self.page_of(
            with_steps(client_programs).order_by("-created_at", "-pk"), shown=standings
        )

    @extend_schema(
        operation_id="client_program_create",
        summary="Put a client on a program",
        description=(
            "As the admin does: the steps due by the client's today are released at once, as "
            "ordinary assignments. A client already on this program (running or paused) is a 400 "
            "naming program."
        ),
        request=ClientProgramIn,
        parameters=[IDEMPOTENCY_KEY_HEADER],
        responses={201: ClientProgramOut},
    )
    @idempotent
    def post(self, request: Request, client_id: int) -> Response:
        user = staff_user(request)
        client = selectors.staff_client(user=user, client_id=client_id)
        body = ClientProgramIn(data=request.data, context={"user": user})
        body.is_valid(raise_exception=True)
        made = services.client_program_create(actor=user, client=client, **body.validated_data)
        answer = ClientProgramOut(client_program_standing(user, made.pk))
        return Response(answer.data, status=status.HTTP_201_CREATED)


class NothingIn(StrictInput):
    """An empty object (or no body): the route's address says what to do."""


class ClientProgramChange(StaffView):
    """POST to change one of the caller's clients' programs through its service; answers it as it
    stands then."""

    serializer_class = ClientProgramOut
    body_class: type[StrictInput] = NothingIn

    def change(self, actor: User, client_program_id: int, data: dict[str, Any]) -> None:
        raise NotImplementedError

    @idempotent
    def post(self, request: Request, client_program_id: int) -> Response:
        user = staff_user(request)
        client_program = client_programs_for_user(user=user).get(pk=client_program_id)
        body = self.body_class(data=request.data, context={"client_program": client_program})
        body.is_valid(raise_exception=True)
        self.change(user, client_program_id, body.validated_data)
        return Response(ClientProgramOut(client_program_standing(user, client_program_id)).data)


def change_schema(operation_id: str, summary: str, request: type[StrictInput] = NothingIn) -> Any:
    return extend_schema_view(
        post=extend_schema(
            operation_id=operation_id,
            summary=summary,
            description="Logged on the client's history. The client is never told why.",
            request=request,
            parameters=[IDEMPOTENCY_KEY_HEADER],
            responses={200: ClientProgramOut},
        )
    )


@change_schema("client_program_pause", "Pause a program: no step comes until it is resumed")
class ClientProgramPause(ClientProgramChange):
    def change(self, actor: User, client_program_id: int, data: dict[str, Any]) -> None:
        services.client_program_pause(actor=actor, client_program_id=client_program_id)


@change_schema("client_program_resume", "Resume a paused program; steps now due come at once")
class ClientProgramResume(ClientProgramChange):
    def change(self, actor: User, client_program_id: int, data: dict[str, Any]) -> None:
        services.client_program_resume(actor=actor, client_program_id=client_program_id)


@change_schema("client_program_stop", "Stop a program; work already given stays as it is")
class ClientProgramStop(ClientProgramChange):
    def change(self, actor: User, client_program_id: int, data: dict[str, Any]) -> None:
        services.client_program_stop(actor=actor, client_program_id=client_program_id)


@extend_schema_field(OpenApiTypes.INT)
class StepField(serializers.PrimaryKeyRelatedField):  # type: ignore[type-arg]
    """A step's id, looked up in this client's program only."""

    def get_queryset(self) -> QuerySet[ClientProgramStep]:
        return ClientProgramStep.objects.filter(client_program=self.context["client_program"])


class SkipIn(StrictInput):
    step = StepField(help_text=_("The step's id, as the client's programs list it."))


@change_schema(
    "client_program_skip_step",
    "Skip a step: one to come, or one given and not yet done (its work is cancelled)",
    SkipIn,
)
class ClientProgramSkip(ClientProgramChange):
    body_class = SkipIn

    def change(self, actor: User, client_program_id: int, data: dict[str, Any]) -> None:
        services.client_program_skip_step(
            actor=actor, client_program_id=client_program_id, step_id=data["step"].pk
        )


# -- the client's own ------------------------------------------------------------------


class MyProgramOut(serializers.Serializer[Standing]):
    """Where the client is, and nothing of the steps to come."""

    id = serializers.IntegerField(source="client_program.pk")
    step = serializers.IntegerField(help_text=_("The step you are on, counted from 1."))
    step_count = serializers.IntegerField(source="steps")
    paused = serializers.BooleanField(
        source="is_paused",
        help_text=_("True: your next step will come when you and your therapist are ready."),
    )


class MyPrograms(ClientView):
    serializer_class = MyProgramOut

    @extend_schema(
        operation_id="my_programs",
        summary="Your programs: the step you are on, of how many",
        responses=MyProgramOut(many=True),
    )
    def get(self, request: Request) -> Response:
        client = portal_client(request)
        return self.page_of(running_programs(Client.objects.filter(pk=client.pk)), shown=standings)
