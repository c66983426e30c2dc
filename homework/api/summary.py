"""The session summary as a PDF, for staff: ``/api/v1/clients/{id}/summary.pdf``."""

from collections.abc import Mapping
from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request

from clients.models import AccessEvent
from homework.api.documents import ClientDocumentView
from homework.selectors.period import MAX_PERIOD_DAYS, PeriodInvalid
from homework.summary.http import serve_summary


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


class ClientSummaryPdf(ClientDocumentView):
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
        user, client = self.staff_and_client(request, client_id)
        try:
            return serve_summary(
                request.query_params, user=user, client=client, action=AccessEvent.Action.EXPORTED
            )
        except PeriodInvalid as invalid:  # malformed, or a session not this client's
            raise ValidationError(invalid.errors) from None
