"""``/api/v1/me/contact-profile/``: the portal form's own fields as JSON, so the form decides
what is valid; with no version column, the ETag is a digest of what the profile says."""

from typing import Any

from django.db import transaction
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clients import services
from clients.api.permissions import IsPortalClient, portal_client, portal_user
from clients.contact import selectors
from clients.contact.forms import DAYS, WHEN, ContactProfileForm
from clients.models import Client, ContactProfile
from practice.api.preconditions import (
    IF_MATCH_HEADER,
    etag_of_content,
    require_if_match,
)
from practice.api.serializers import StrictInput

_WHEN = [value for value, _label in WHEN]


@extend_schema_field({"type": "string", "pattern": r"^([01][0-9]|2[0-3]):[0-5][0-9]$"})
class HourMinuteField(serializers.TimeField):
    """ "HH:MM": OpenAPI's "time" format asks for seconds too, so the schema says what is sent."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%H:%M", **kwargs)


def _day_fields(*, output: bool) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
    fields: dict[str, serializers.Field[Any, Any, Any, Any]] = {}
    for day, name in DAYS:
        fields[f"{day}_when"] = serializers.ChoiceField(
            choices=_WHEN, required=False, allow_blank=True, allow_null=True, help_text=str(name)
        )
        for part in ("from", "until"):
            fields[f"{day}_{part}"] = (
                HourMinuteField(allow_null=True)
                if output
                else serializers.CharField(required=False, allow_blank=True, allow_null=True)
            )
    return fields


class ContactProfileOut(serializers.Serializer[Any]):
    email_is_safe = serializers.BooleanField()
    email = serializers.CharField(allow_blank=True)
    text_is_safe = serializers.BooleanField()
    phone = serializers.CharField(allow_blank=True)
    days_between = serializers.ChoiceField(choices=ContactProfile.Spacing.choices)
    recurring_reminder_at = HourMinuteField()
    time_zone = serializers.CharField()
    checked_on = serializers.DateField(allow_null=True)
    changed_at = serializers.DateTimeField(allow_null=True)

    def get_fields(self) -> dict[str, Any]:
        return {**super().get_fields(), **_day_fields(output=True)}


class ContactProfileIn(StrictInput):
    """The whole profile (PUT): JSON types checked here, the rules by the form."""

    email_is_safe = serializers.BooleanField()
    email = serializers.CharField(allow_blank=True, max_length=254)
    text_is_safe = serializers.BooleanField()
    phone = serializers.CharField(allow_blank=True, max_length=40)
    days_between = serializers.IntegerField()
    recurring_reminder_at = serializers.CharField(max_length=8)
    time_zone = serializers.CharField(max_length=64)

    def get_fields(self) -> dict[str, Any]:
        return {**super().get_fields(), **_day_fields(output=False)}


def _as_shown(client: Client, profile: ContactProfile) -> dict[str, Any]:
    shown = {
        **{f"{day}_{part}": None for day, _name in DAYS for part in ("when", "from", "until")},
        **ContactProfileForm.initial_from(profile),
        "time_zone": client.timezone,
        "phone": str(profile.phone or ""),
        "checked_on": profile.checked_on,
        "changed_at": profile.changed_at,
    }
    return dict(ContactProfileOut(shown).data)


class MyContactProfile(GenericAPIView[Any]):
    permission_classes = [IsAuthenticated, IsPortalClient]
    serializer_class = ContactProfileOut

    @extend_schema(operation_id="my_contact_profile", summary="How the practice may reach you")
    def get(self, request: Request) -> Response:
        client = selectors.client_contact_for_portal(user=portal_user(request))
        assert client is not None  # IsPortalClient let only an open notebook through
        shown = _as_shown(client, selectors.contact_profile_of(client))
        return Response(shown, headers={"ETag": etag_of_content(shown)})

    @extend_schema(
        operation_id="my_contact_profile_set",
        summary="Set how the practice may reach you (the whole profile)",
        request=ContactProfileIn,
        parameters=[IF_MATCH_HEADER],
        responses={200: ContactProfileOut},
    )
    def put(self, request: Request) -> Response:
        user = portal_user(request)
        body = ContactProfileIn(data=request.data)
        body.is_valid(raise_exception=True)
        form_data = {
            name: value
            for name, value in body.validated_data.items()
            if value is not None and value is not False  # an unticked box is not posted
        }
        form = ContactProfileForm({**form_data, "one_by_one": True})
        if not form.is_valid():
            raise serializers.ValidationError(
                {name: [str(m) for m in messages] for name, messages in form.errors.items()}
            )
        with transaction.atomic():
            # The service locks this row too: the check and the write are one.
            client = Client.objects.select_for_update().get(pk=portal_client(request).pk)
            require_if_match(request, etag_of_content(_as_shown(client, _profile(client))))
            profile = services.contact_profile_update(
                actor=user, client=client, **form.for_service()
            )
        client.refresh_from_db(fields=["timezone"])
        shown = _as_shown(client, profile)
        return Response(shown, headers={"ETag": etag_of_content(shown)})


def _profile(client: Client) -> ContactProfile:
    return ContactProfile.objects.filter(client=client).first() or ContactProfile(client=client)
