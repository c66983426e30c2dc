"""The staff's homework routes, scoped as the admin is; listing entries logs a look but marks
nothing read: only the client's own therapist does (ClientEntriesRead)."""

import datetime as dt
import uuid
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from clients.models import Client
from homework import selectors, services
from homework.api.serializers import AssignmentOut, NoteIn, NoteOut, StaffEntryOut
from homework.kinds import ResponseInvalid, kind_choices
from homework.models import (
    DAYS_BEFORE_MAX,
    DAYS_BEFORE_MESSAGE,
    Assignment,
    Entry,
    Exercise,
    readable_by_staff_q,
)
from homework.selectors.library_languages import exercise_language_warning
from practice.api.idempotency import IDEMPOTENCY_KEY_HEADER, idempotent
from practice.api.permissions import staff_user
from practice.api.serializers import StrictInput
from practice.api.views import StaffView
from practice.languages import language_or_default, offered_languages
from practice.models import User

# -- a client's assignments ------------------------------------------------------------


@extend_schema_field(OpenApiTypes.INT)
class ExerciseField(serializers.PrimaryKeyRelatedField):  # type: ignore[type-arg]
    def get_queryset(self) -> QuerySet[Exercise]:
        return selectors.exercises_for_user(user=self.context["user"]).filter(is_active=True)


class AssignmentIn(StrictInput):
    exercise = ExerciseField()
    instructions = serializers.CharField(required=False, allow_blank=True, max_length=4000)
    starts_on = serializers.DateField()
    due_on = serializers.DateField(required=False, allow_null=True)
    schedule = serializers.ChoiceField(
        choices=Assignment.Schedule.choices, default=Assignment.Schedule.ONCE
    )
    weekdays = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=6),
        required=False,
        max_length=7,
        help_text=_("For weekly work: 0 is Monday."),
    )
    days_before = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=DAYS_BEFORE_MAX,
        error_messages={
            "invalid": DAYS_BEFORE_MESSAGE,
            "min_value": DAYS_BEFORE_MESSAGE,
            "max_value": DAYS_BEFORE_MESSAGE,
            "max_string_length": DAYS_BEFORE_MESSAGE,
        },
        help_text=_(
            "For the before_session schedule: it opens this many days (1 to 31) before each "
            "booked session, and is due by the session."
        ),
    )
    ends_on = serializers.DateField(required=False, allow_null=True)
    no_contact_since = serializers.DateField(required=False, allow_null=True)
    language_confirmed = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_(
            "True to assign an exercise in a language the client does not read, after the "
            "refusal that says so."
        ),
    )

    def refuse_unconfirmed_language(self, *, client: Client, user: User) -> None:
        """Refused as the admin form refuses it, so nothing is saved unread: a warning beside a
        201 would be easy to miss, and the work would already be on the client's To do."""
        data = self.validated_data
        warning = exercise_language_warning(data["exercise"], client, user=user)
        if warning is not None and not data.get("language_confirmed"):
            raise ValidationError({"exercise": [warning.message]})


class ClientAssignments(StaffView):
    serializer_class = AssignmentOut

    @extend_schema(
        operation_id="client_assignments",
        summary="A client's assignments",
        responses=AssignmentOut(many=True),
    )
    def get(self, request: Request, client_id: int) -> Response:
        user = staff_user(request)
        client = selectors.staff_client(user=user, client_id=client_id)
        assignments = (
            selectors.assignments_for_user(user=user)
            .filter(client=client)
            .select_related("exercise")
            .order_by("-created_at", "-pk")
        )
        return self.page_of(assignments)

    @extend_schema(
        operation_id="client_assignment_create",
        summary="Assign an exercise",
        request=AssignmentIn,
        parameters=[IDEMPOTENCY_KEY_HEADER],
        responses={201: AssignmentOut},
    )
    @idempotent
    def post(self, request: Request, client_id: int) -> Response:
        user = staff_user(request)
        client = selectors.staff_client(user=user, client_id=client_id)
        body = AssignmentIn(data=request.data, context={"user": user})
        body.is_valid(raise_exception=True)
        body.refuse_unconfirmed_language(client=client, user=user)
        details = {k: v for k, v in body.validated_data.items() if k != "language_confirmed"}
        assignment = services.assignment_create(actor=user, client=client, **details)
        return Response(AssignmentOut(assignment).data, status=status.HTTP_201_CREATED)


# -- a client's entries ----------------------------------------------------------------

FLAGS = {
    "felt_unsafe": "felt_unsafe",
    "discuss_in_session": "discuss_in_session",
    "needs_review": "needs_review",
}


def _day_start(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


class StaffEntryFilter(filters.FilterSet):
    """The practice's days, on when staff learned of an entry, as "since last session" counts."""

    since = filters.DateFilter(method="filter_since", help_text=_("From this day (inclusive)."))
    until = filters.DateFilter(method="filter_until", help_text=_("To this day (inclusive)."))
    kind = filters.ChoiceFilter(
        choices=kind_choices, field_name="assignment__exercise__kind", help_text=_("Exercise kind.")
    )
    flag = filters.ChoiceFilter(
        choices=[(name, name) for name in FLAGS],
        method="filter_flag",
        help_text=_("Only shared entries with this flag (a private entry's flags are its own)."),
    )

    class Meta:
        model = Entry
        fields: list[str] = []

    def filter_since(self, entries: QuerySet[Entry], name: str, day: dt.date) -> QuerySet[Entry]:
        return entries.filter(selectors.known_after(_day_start(day) - dt.timedelta(microseconds=1)))

    def filter_until(self, entries: QuerySet[Entry], name: str, day: dt.date) -> QuerySet[Entry]:
        end = _day_start(day + dt.timedelta(days=1)) - dt.timedelta(microseconds=1)
        return entries.filter(selectors.known_by(end))

    def filter_flag(self, entries: QuerySet[Entry], name: str, flag: str) -> QuerySet[Entry]:
        return entries.filter(readable_by_staff_q(), **{FLAGS[flag]: True})


class ClientEntries(StaffView):
    serializer_class = StaffEntryOut
    filter_backends = [filters.DjangoFilterBackend]
    filterset_class = StaffEntryFilter
    queryset = Entry.objects.none()  # only for the schema's filters: get() asks the selectors

    @extend_schema(
        operation_id="client_entries",
        responses=StaffEntryOut(many=True),
        summary="What a client sent, flags first",
        description=(
            "Never a draft; a private entry only as existing. Each look at the client's words "
            "is written to their access log; it marks nothing as read (client_entries_mark_read "
            "does)."
        ),
    )
    def get(self, request: Request, client_id: int) -> Response:
        user = staff_user(request)
        client = selectors.staff_client(user=user, client_id=client_id)
        entries = selectors.client_entries_for_staff(user=user, client=client)
        return self.page_of(self.filter_queryset(entries), shown=selectors.with_response)


class ShownEntryIn(StrictInput):
    id = serializers.UUIDField(help_text=_("The entry's id, as the list of entries gives it."))
    version = serializers.IntegerField(
        min_value=1, help_text=_("The entry's version, as you read it.")
    )


class MarkReadIn(StrictInput):
    entries = serializers.ListField(child=ShownEntryIn(), min_length=1, max_length=500)


class MarkReadOut(serializers.Serializer[Any]):
    read = serializers.ListField(
        child=serializers.UUIDField(), help_text=_("The entries read now (none read twice).")
    )


class ClientEntriesRead(StaffView):
    @extend_schema(
        operation_id="client_entries_mark_read",
        summary="Mark entries as read",
        description=(
            "Only the client's own therapist. Each entry as it was read (its id and version): "
            "from then on the client can no longer change it or make it private again. All or "
            "nothing: an entry that is not this client's, is private, or changed since, refuses "
            "the lot. Sent again, it reads nothing twice. Listing entries never marks them read."
        ),
        request=MarkReadIn,
        responses={200: MarkReadOut},
    )
    def post(self, request: Request, client_id: int) -> Response:
        user = staff_user(request)
        client = selectors.staff_client(user=user, client_id=client_id)
        body = MarkReadIn(data=request.data)
        body.is_valid(raise_exception=True)
        shown = {row["id"]: row["version"] for row in body.validated_data["entries"]}
        if len(shown) != len(body.validated_data["entries"]):
            raise serializers.ValidationError({"entries": [_("Each entry only once, please.")]})
        read = services.entries_mark_read(user=user, client=client, shown=shown, now=timezone.now())
        return Response(MarkReadOut({"read": sorted(read, key=str)}).data)


class EntryComments(StaffView):
    @extend_schema(
        operation_id="entry_comment_create",
        summary="Leave a comment on an entry",
        description="Only the client's own therapist, only on a shared entry.",
        request=NoteIn,
        parameters=[IDEMPOTENCY_KEY_HEADER],
        responses={201: NoteOut},
    )
    @idempotent
    def post(self, request: Request, key: uuid.UUID) -> Response:
        user = staff_user(request)
        entry = selectors.entries_for_user(user=user).get(key=key)
        body = NoteIn(data=request.data)
        body.is_valid(raise_exception=True)
        comment = services.entry_comment_add(
            actor=user, entry=entry, text=body.validated_data["text"]
        )
        return Response(NoteOut(comment).data, status=status.HTTP_201_CREATED)


# -- the library -----------------------------------------------------------------------


class ExerciseOut(serializers.Serializer[Exercise]):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    title = serializers.CharField()
    instructions = serializers.CharField()
    options = serializers.JSONField()
    owner = serializers.IntegerField(
        source="owner_id", allow_null=True, help_text=_("Null: the practice's own.")
    )
    language = serializers.CharField(help_text=_("The language its words are written in."))
    translation_of = serializers.IntegerField(
        source="translation_of_id",
        allow_null=True,
        help_text=_("The exercise this one gives in another language; null if none."),
    )
    is_active = serializers.BooleanField()


class ExerciseIn(StrictInput):
    kind = serializers.ChoiceField(choices=kind_choices())
    title = serializers.CharField(max_length=120)
    instructions = serializers.CharField(required=False, allow_blank=True, max_length=4000)
    options = serializers.DictField(required=False, help_text=_("The kind's own options."))
    language = serializers.ChoiceField(
        choices=offered_languages(),
        required=False,
        help_text=_("The language its words are written in. Left out: the one you read."),
    )


class Exercises(StaffView):
    serializer_class = ExerciseOut

    @extend_schema(
        operation_id="exercises_list",
        summary="The library you may assign from",
        responses=ExerciseOut(many=True),
    )
    def get(self, request: Request) -> Response:
        exercises = selectors.exercises_for_user(user=staff_user(request)).order_by("title", "pk")
        return self.page_of(exercises)

    @extend_schema(
        operation_id="exercises_create",
        summary="Add an exercise to the library",
        description="A therapist's is their own; the manager's is the practice's.",
        request=ExerciseIn,
        parameters=[IDEMPOTENCY_KEY_HEADER],
        responses={201: ExerciseOut},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        user: User = staff_user(request)
        body = ExerciseIn(data=request.data)
        body.is_valid(raise_exception=True)
        fields = {"language": language_or_default(user.language), **body.validated_data}
        try:
            exercise = services.exercise_save(actor=user, exercise=Exercise(**fields))
        except ResponseInvalid as refused:  # the kind's own options, each problem named
            raise ValidationError(refused.errors) from refused
        return Response(ExerciseOut(exercise).data, status=status.HTTP_201_CREATED)
