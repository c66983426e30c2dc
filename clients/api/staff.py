"""The staff's clients, their sessions, and the access log, scoped as the admin is; ids in a
body are looked up in the same scope, so one outside it is a 400, never a move."""

import hashlib

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clients import selectors, services
from clients.models import AccessEvent, Client, Session
from practice.api.idempotency import IDEMPOTENCY_KEY_HEADER, idempotent
from practice.api.permissions import IsPracticeManager, staff_user
from practice.api.preconditions import IF_MATCH_HEADER, require_current, with_etag
from practice.api.serializers import StrictInput
from practice.api.views import ListingView, StaffView
from practice.languages import offered_languages
from practice.models import User
from practice.roles import is_acting_manager


def therapists_for(user: User) -> QuerySet[User]:
    if is_acting_manager(user):
        return selectors.active_therapists()
    return User.objects.filter(pk=user.pk, role=User.Role.THERAPIST, is_active=True)


@extend_schema_field(OpenApiTypes.INT)
class TherapistField(serializers.PrimaryKeyRelatedField):  # type: ignore[type-arg]
    """A therapist's id, looked up among those the caller may name."""

    def get_queryset(self) -> QuerySet[User]:
        return therapists_for(self.context["user"])


LANGUAGE_HELP = _(
    "The language of the client's portal, emails and texts; empty for the practice's own."
)


class ClientOut(serializers.Serializer[Client]):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    contact_email = serializers.CharField(help_text=_("Empty when none was given."))
    timezone = serializers.CharField()
    language = serializers.CharField(help_text=LANGUAGE_HELP)
    therapist = serializers.IntegerField(source="therapist_id")
    status = serializers.ChoiceField(choices=Client.Status.choices)
    has_portal_account = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    def get_has_portal_account(self, client: Client) -> bool:
        return client.portal_user_id is not None


class ClientIn(StrictInput):
    display_name = serializers.CharField(max_length=80)
    contact_email = serializers.EmailField(required=False, allow_blank=True)
    timezone = serializers.CharField(required=False, max_length=64)
    language = serializers.ChoiceField(
        choices=offered_languages(), required=False, allow_blank=True, help_text=LANGUAGE_HELP
    )
    therapist = TherapistField(
        required=False,
        help_text=_("The manager's choice; a therapist adds to their own caseload."),
    )


class ClientPatch(ClientIn):
    display_name = serializers.CharField(max_length=80, required=False)


def client_etag_version(client: Client) -> int:
    """No version counter: a digest of what PATCH may change, so any change stales an old ETag."""
    fields = (
        client.display_name,
        client.contact_email,
        client.timezone,
        client.language,
        client.therapist_id,
    )
    digest = hashlib.sha256(repr(fields).encode()).hexdigest()
    return int(digest[:7], 16)


class ClientList(StaffView):
    serializer_class = ClientOut

    @extend_schema(
        operation_id="clients_list",
        summary="Your clients (the manager: all)",
        responses=ClientOut(many=True),
    )
    def get(self, request: Request) -> Response:
        clients = selectors.clients_for_user(user=staff_user(request)).order_by(
            "display_name", "pk"
        )
        return self.page_of(clients)

    @extend_schema(
        operation_id="clients_create",
        summary="Add a client",
        request=ClientIn,
        parameters=[IDEMPOTENCY_KEY_HEADER],
        responses={201: ClientOut},
    )
    @idempotent
    def post(self, request: Request) -> Response:
        user = staff_user(request)
        body = ClientIn(data=request.data, context={"user": user})
        body.is_valid(raise_exception=True)
        fields = dict(body.validated_data)
        client = services.client_create(
            actor=user, therapist=fields.pop("therapist", None), **fields
        )
        response = Response(ClientOut(client).data, status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/clients/{client.pk}/"
        return with_etag(response, client_etag_version(client))


class ClientDetail(StaffView):
    serializer_class = ClientOut

    @extend_schema(operation_id="client_read", summary="One of your clients")
    def get(self, request: Request, client_id: int) -> Response:
        client = selectors.clients_for_user(user=staff_user(request)).get(pk=client_id)
        return with_etag(Response(ClientOut(client).data), client_etag_version(client))

    @extend_schema(
        operation_id="client_update",
        summary="Change a client's details",
        description="Send If-Match with the ETag you read. Only the manager moves a client.",
        request=ClientPatch,
        parameters=[IF_MATCH_HEADER],
        responses={
            200: ClientOut,
            412: OpenApiResponse(description="Changed since you read it; nothing changed."),
            428: OpenApiResponse(description="If-Match is missing."),
        },
    )
    @transaction.atomic
    def patch(self, request: Request, client_id: int) -> Response:
        user = staff_user(request)
        # Locked while compared and changed: two racing writers cannot both pass.
        client = selectors.clients_for_user(user=user).select_for_update().get(pk=client_id)
        body = ClientPatch(data=request.data, context={"user": user}, partial=True)
        body.is_valid(raise_exception=True)
        require_current(request, client_etag_version(client))
        client = services.client_update(actor=user, client=client, **body.validated_data)
        return with_etag(Response(ClientOut(client).data), client_etag_version(client))


class SessionOut(serializers.Serializer[Session]):
    id = serializers.IntegerField()
    client = serializers.IntegerField(source="client_id")
    starts_at = serializers.DateTimeField()


class SessionIn(StrictInput):
    starts_at = serializers.DateTimeField()


class ClientSessions(StaffView):
    serializer_class = SessionOut

    @extend_schema(
        operation_id="client_sessions",
        summary="A client's sessions, newest first",
        responses=SessionOut(many=True),
    )
    def get(self, request: Request, client_id: int) -> Response:
        user = staff_user(request)
        client = selectors.clients_for_user(user=user).get(pk=client_id)
        sessions = selectors.sessions_for_user(user=user).filter(client=client)
        return self.page_of(sessions.order_by("-starts_at", "-pk"))

    @extend_schema(
        operation_id="client_session_create",
        summary="Book a session",
        description="A time already booked for this client is that session (200), not a second.",
        request=SessionIn,
        parameters=[IDEMPOTENCY_KEY_HEADER],
        responses={201: SessionOut, 200: SessionOut},
    )
    @idempotent
    def post(self, request: Request, client_id: int) -> Response:
        user = staff_user(request)
        client = selectors.clients_for_user(user=user).get(pk=client_id)
        body = SessionIn(data=request.data)
        body.is_valid(raise_exception=True)
        before = Session.objects.filter(client=client).count()
        session = services.session_schedule(
            actor=user, client=client, starts_at=body.validated_data["starts_at"]
        )
        made = Session.objects.filter(client=client).count() > before
        return Response(
            SessionOut(session).data, status=status.HTTP_201_CREATED if made else status.HTTP_200_OK
        )


class AccessEventOut(serializers.Serializer[AccessEvent]):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    actor = serializers.IntegerField(source="actor_id")
    actor_name = serializers.SerializerMethodField()
    client = serializers.IntegerField(source="client_id")
    action = serializers.ChoiceField(choices=AccessEvent.Action.choices)
    what = serializers.CharField()

    def get_actor_name(self, event: AccessEvent) -> str:
        return str(event.actor)


class AccessLog(ListingView):
    permission_classes = [IsAuthenticated, IsPracticeManager]
    serializer_class = AccessEventOut

    @extend_schema(
        operation_id="access_log",
        summary="Who looked at which client's records",
        responses=AccessEventOut(many=True),
    )
    def get(self, request: Request) -> Response:
        events = selectors.access_events_for(user=staff_user(request))
        return self.page_of(events)
