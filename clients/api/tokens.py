"""API tokens (django-rest-knox); getting one goes through ``authenticate`` with the request,
so django-axes counts its failures toward the same lockout as the sign-in page."""

from typing import Any

from django.contrib.auth import authenticate
from django.contrib.auth.signals import user_logged_in
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from knox.models import AuthToken
from knox.settings import CONSTANTS, knox_settings
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clients import lockout, selectors
from clients.services import totp_verify
from clients.services.staff_two_step import staff_second_factor_verify
from practice.api.errors import ErrorOut
from practice.api.throttling import SignInThrottle
from practice.models import User

NOT_SIGNED_IN = _(
    "That email and password do not match. Check both and try again; capital letters "
    "count in the password."
)
CLIENT_CODE_REFUSED = _("That code did not match. Codes change every 30 seconds: try the newest.")


RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    response=[429],
    description=_("Seconds to wait before trying again."),
)


class SignInRefused(APIException):
    """The one answer to a wrong, an unknown and a locked account."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "sign_in_refused"
    default_detail = f"{NOT_SIGNED_IN} {lockout.NOT_RIGHT_WAY_BACK}"


class CodeRefused(APIException):
    """The password was right; the second factor is missing or did not match."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "code_refused"
    default_detail = _("Type the 6-digit code your authenticator app shows now.")


class TokenRequest(serializers.Serializer[Any]):
    """Unknown keys are refused: a misspelt ``code`` must not pass as "no code"."""

    email = serializers.CharField(max_length=254)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)
    code = serializers.CharField(
        max_length=32,
        required=False,
        allow_blank=True,
        help_text=_(
            "A code from the authenticator app (staff: or a recovery code). "
            "Staff always give one; a client only if two-step sign-in is on."
        ),
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        unknown = set(self.initial_data) - set(self.fields)
        if unknown:
            raise serializers.ValidationError(
                {key: [str(_("This field is not accepted here."))] for key in sorted(unknown)}
            )
        return attrs


class NewToken(serializers.Serializer[Any]):
    id = serializers.CharField(help_text=_("Names the token to list or revoke it."))
    token = serializers.CharField(
        help_text=_("Send as `Authorization: Token <token>`. Shown only this once.")
    )
    expiry = serializers.DateTimeField()


class TokenOut(serializers.Serializer[Any]):
    id = serializers.CharField(source="token_key")
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField()
    current = serializers.SerializerMethodField(
        help_text=_("Whether this request was made with this token.")
    )

    def get_current(self, token: AuthToken) -> bool:
        used = self.context.get("used")
        return isinstance(used, AuthToken) and used.digest == token.digest


def _second_factor_refusal(*, user: User, code: str) -> str:
    if user.is_client:
        if not selectors.has_two_step(user=user):
            return ""
        if code and totp_verify(user=user, token=code):
            return ""
        return str(CLIENT_CODE_REFUSED) if code else str(CodeRefused.default_detail)
    if not code:
        return str(CodeRefused.default_detail)
    return staff_second_factor_verify(user=user, code=code).refusal


class TokenCreate(APIView):
    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    throttle_classes = [SignInThrottle]

    @extend_schema(
        operation_id="auth_token_create",
        summary="Get a token",
        description=(
            "Signs in with email and password (and the second factor) and returns a token "
            "that expires. Wrong tries count toward the same pause as the sign-in page."
        ),
        request=TokenRequest,
        responses={
            201: NewToken,
            400: OpenApiResponse(
                response=ErrorOut, description="Refused: the body, the sign-in, or the code."
            ),
            429: OpenApiResponse(
                response=ErrorOut,
                description="Too many tries from this address: wait for Retry-After seconds.",
            ),
        },
        parameters=[RETRY_AFTER],
        auth=[],
    )
    def post(self, request: Request) -> Response:
        body = TokenRequest(data=request.data)
        body.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=body.validated_data["email"],
            password=body.validated_data["password"],
        )
        if not isinstance(user, User):
            raise SignInRefused
        refusal = _second_factor_refusal(user=user, code=body.validated_data.get("code", ""))
        if refusal:
            raise CodeRefused(refusal)
        # As a sign-in: axes clears this account's count, and the last sign-in is recorded.
        user_logged_in.send(sender=User, request=request._request, user=user)
        instance, token = AuthToken.objects.create(user=user, expiry=knox_settings.TOKEN_TTL)
        return Response(
            NewToken({"id": instance.token_key, "token": token, "expiry": instance.expiry}).data,
            status=status.HTTP_201_CREATED,
        )


class TokenList(APIView):
    @extend_schema(
        operation_id="auth_tokens_list",
        summary="Your tokens",
        description="The tokens you hold that have not expired or been revoked.",
        responses={200: TokenOut(many=True)},
    )
    def get(self, request: Request) -> Response:
        tokens = AuthToken.objects.filter(user=request.user, expiry__gt=timezone.now()).order_by(
            "-created"
        )
        return Response(TokenOut(tokens, many=True, context={"used": request.auth}).data)


class TokenRevoke(APIView):
    @extend_schema(
        operation_id="auth_token_revoke",
        summary="Revoke one of your tokens",
        description="It stops working at once. Another person's token is not found.",
        responses={204: None, 404: OpenApiResponse(description="No such token of yours.")},
    )
    def delete(self, request: Request, token_id: str) -> Response:
        if len(token_id) > CONSTANTS.TOKEN_KEY_LENGTH + CONSTANTS.MAXIMUM_TOKEN_PREFIX_LENGTH:
            raise NotFound
        deleted, _rows = AuthToken.objects.filter(user=request.user, token_key=token_id).delete()
        if not deleted:
            raise NotFound
        return Response(status=status.HTTP_204_NO_CONTENT)
