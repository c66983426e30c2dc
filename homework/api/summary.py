"""The session summary as a PDF, for staff: ``/api/v1/clients/{id}/summary.pdf``."""

from collections.abc import Mapping
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clients.models import AccessEvent, Client
from homework.selectors.period import MAX_PERIOD_DAYS, PeriodInvalid
from homework.summary.http import period_query_from, serve_summary
from homework.summary.selectors import client_for_summary
from practice.api.permissions import IsPracticeStaff, staff_user


class PdfRenderer(BaseRenderer):
    """Lets a caller ask for ``Accept: application/pdf``; the view sends the bytes."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        return data if isinstance(data, bytes) else b""


class ClientSummaryPdf(APIView):
    permission_classes = [IsAuthenticated, IsPracticeStaff]
    renderer_classes = [PdfRenderer, JSONRenderer]

    @extend_schema(
        operation_id="client_summary_pdf",
        summary="Session summary PDF",
        description=(
            "Everything the client shared since the last session (or between the chosen "
            "dates) on a page or two. Private entries and drafts are never included. "
            "Each download is recorded in the client's access log."
        ),
        parameters=[
            OpenApiParameter(
                "since", OpenApiTypes.DATE, description="First day (YYYY-MM-DD), inclusive."
            ),
            OpenApiParameter(
                "until",
                OpenApiTypes.DATE,
                description=f"Last day (YYYY-MM-DD), inclusive; at most {MAX_PERIOD_DAYS} days after since.",
            ),
            OpenApiParameter(
                "full_detail",
                OpenApiTypes.BOOL,
                description="Whole texts instead of excerpts, and the safety plan in full.",
            ),
            OpenApiParameter(
                "session",
                OpenApiTypes.INT,
                description=(
                    "One of the client's sessions, instead of dates: its summary, from the "
                    "session before it. Default: the next session."
                ),
            ),
        ],
        responses={
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, "The PDF."),
            400: OpenApiResponse(OpenApiTypes.OBJECT, "A parameter is malformed: named, with why."),
            403: OpenApiResponse(description="Not signed in, or not practice staff."),
            404: OpenApiResponse(description="No such client among yours."),
        },
    )
    def get(self, request: Request, client_id: int) -> HttpResponse:
        user = staff_user(request)
        try:
            client = client_for_summary(user=user, client_id=client_id)
        except Client.DoesNotExist:
            raise NotFound from None
        try:
            query = period_query_from(request.query_params, user=user, client=client)
            return serve_summary(
                user=user,
                client=client,
                query=query,
                action=AccessEvent.Action.EXPORTED,
            )
        except PeriodInvalid as invalid:  # malformed, or a session not this client's
            raise ValidationError(invalid.errors) from None

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        # Errors are JSON whatever the caller accepts: a PDF reader gets a readable 400.
        if isinstance(response, Response):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)
