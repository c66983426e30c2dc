"""A client's alerts for staff, and acknowledging one: the admin's service, the admin's scope.
No client route reaches them: the acknowledgement is the practice's, never shown to the client."""

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from homework import selectors
from homework.models import ACKNOWLEDGEMENT_MAX_CHARS, Alert
from homework.selectors.alerts import alerts_for_user, staff_alert, with_details
from homework.services.alerts import (
    AlertAlreadyAcknowledged,
    alert_acknowledge,
    already_acknowledged,
)
from practice.api.errors import Conflict
from practice.api.idempotency import IDEMPOTENCY_KEY_HEADER, idempotent
from practice.api.permissions import staff_user
from practice.api.serializers import StrictInput
from practice.api.views import StaffView


class AlertOut(serializers.Serializer[Alert]):
    id = serializers.IntegerField()
    entry = serializers.UUIDField(source="entry.key", help_text=_("The entry's id."))
    reason = serializers.ChoiceField(choices=Alert.Reason.choices)
    question_key = serializers.CharField(
        help_text=_("The watched question; empty for “felt unsafe”.")
    )
    answer = serializers.CharField(
        source="named_answer", help_text=_("The answer as its flag names it, and nothing more.")
    )
    raised_at = serializers.DateTimeField()
    acknowledged_at = serializers.DateTimeField(allow_null=True)
    acknowledged_by = serializers.CharField(
        source="acknowledged_by.get_short_name", allow_null=True, default=None
    )
    note = serializers.CharField(
        source="acknowledgement_note",
        help_text=_("What was done, as the one who acknowledged wrote."),
    )
    escalated_at = serializers.DateTimeField(
        allow_null=True, help_text=_("When it went to the practice manager, unacknowledged.")
    )


class TextOnly(serializers.CharField):
    """A number is not a note: DRF's CharField would take 7 as "7"."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class AcknowledgeIn(StrictInput):
    note = TextOnly(
        allow_blank=True,
        trim_whitespace=True,
        max_length=ACKNOWLEDGEMENT_MAX_CHARS * 4,  # the service says the limit in words
        help_text=_("What you did, in a few words, such as “called, safe tonight”."),
    )


class ClientAlerts(StaffView):
    serializer_class = AlertOut

    @extend_schema(
        operation_id="client_alerts",
        summary="A client's alerts, open first",
        description="Open ones, then acknowledged ones, newest first. Never on a private entry.",
        responses=AlertOut(many=True),
    )
    def get(self, request: Request, client_id: int) -> Response:
        user = staff_user(request)
        client = selectors.staff_client(user=user, client_id=client_id)
        alerts = with_details(alerts_for_user(user=user).filter(client=client)).order_by(
            F("acknowledged_at").desc(nulls_first=True), "-raised_at", "-pk"
        )
        rows = self.paginate_queryset(alerts)
        return self.get_paginated_response(self.get_serializer(rows, many=True).data)


class AlertAcknowledge(StaffView):
    @extend_schema(
        operation_id="alert_acknowledge",
        summary="Acknowledge an alert with a note of what you did",
        description=(
            "The client's own therapist or the practice manager. Of two at once one wins: the "
            "other is answered 409, naming who acknowledged it, and nothing changes."
        ),
        request=AcknowledgeIn,
        parameters=[IDEMPOTENCY_KEY_HEADER],
        responses={200: AlertOut},
    )
    @idempotent
    def post(self, request: Request, alert_id: int) -> Response:
        user = staff_user(request)
        alert = staff_alert(user=user, alert_id=alert_id)
        body = AcknowledgeIn(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            done = alert_acknowledge(
                alert=alert, by=user, note=body.validated_data["note"], now=timezone.now()
            )
        except AlertAlreadyAcknowledged as taken:
            raise Conflict(already_acknowledged(taken.alert)) from None
        return Response(AlertOut(done).data)
