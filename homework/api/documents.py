"""The shape the API's document views share (the summary PDF, the measures as FHIR): one client of
the staff member's, a 404 for anyone else's, and errors in the API's one JSON shape whatever the
caller asked for."""

from typing import Any

from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clients.models import Client
from homework.summary.selectors import client_for_summary
from practice.api.permissions import IsPracticeStaff, staff_user
from practice.models import User


class ClientDocumentView(APIView):
    permission_classes = [IsAuthenticated, IsPracticeStaff]

    def staff_and_client(self, request: Request, client_id: int) -> tuple[User, Client]:
        """Client.DoesNotExist (the API's 404) for a client not among the user's."""
        user = staff_user(request)
        return user, client_for_summary(user=user, client_id=client_id)

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        # A PDF reader or an EHR asking for FHIR still gets a readable error.
        if isinstance(response, Response) and response.status_code >= 400:
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)
