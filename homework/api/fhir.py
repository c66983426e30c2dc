"""A client's standard measures as a FHIR R4 Bundle, for staff: ``/api/v1/clients/{id}/fhir/``."""

from typing import Any

from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from clients.models import AccessEvent
from homework.api.documents import ClientDocumentView
from homework.fhir.bundle import measures_bundle
from homework.selectors.measure_entries import measure_entries_for_staff
from homework.services import records_record_view

FHIR_JSON = "application/fhir+json"
# What the schema says of the body: FHIR's own JSON schema describes it in full.
BUNDLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        "A FHIR R4 Bundle (validated against the R4B models of fhir.resources, wire-compatible "
        "with R4 for these resources); its full JSON schema is FHIR's own: "
        "https://hl7.org/fhir/R4/fhir.schema.json, definitions/Bundle."
    ),
    "required": ["resourceType", "type"],
    "properties": {
        "resourceType": {"type": "string", "enum": ["Bundle"]},
        "type": {"type": "string", "enum": ["collection"]},
        "timestamp": {"type": "string", "format": "date-time"},
        "entry": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "fullUrl": {"type": "string"},
                    "resource": {"type": "object", "additionalProperties": True},
                },
            },
        },
    },
}


class FhirJSONRenderer(JSONRenderer):
    media_type = FHIR_JSON
    format = "fhir"


class ClientFhirBundle(ClientDocumentView):
    renderer_classes = [FhirJSONRenderer, JSONRenderer]

    @extend_schema(
        operation_id="client_measures_fhir",
        summary="A client's measures as FHIR",
        description=(
            "A Bundle of type collection: a Patient carrying only the practice's id for the "
            "client (no name), a Questionnaire for each standard measure they answered (each "
            "question's key is its linkId; answer options carry their published labels and "
            "points as ordinalValue), a QuestionnaireResponse for each one sent and shared, and "
            "an Observation (category survey, status final) for its total and each subscale, "
            "coded in LOINC where the measure names a published code. Drafts, private entries "
            "and every other exercise are never included. A client with no measures gets a "
            "Bundle with no entries. Each export that holds any answer is recorded in the "
            "client's access log."
        ),
        responses={
            (200, FHIR_JSON): OpenApiResponse(BUNDLE_SCHEMA, "The Bundle."),
            403: OpenApiResponse(description="Not signed in, or not practice staff."),
            404: OpenApiResponse(OpenApiTypes.OBJECT, "No such client among yours."),
        },
    )
    def get(self, request: Request, client_id: int) -> Response:
        user, client = self.staff_and_client(request, client_id)
        measures = measure_entries_for_staff(user=user, client=client)
        bundle = measures_bundle(client=client, measures=measures, now=timezone.now())
        if measures.entries:  # the one line: reading the responses would otherwise write its own
            records_record_view(
                actor=user,
                client=client,
                action=AccessEvent.Action.EXPORTED,
                what="Measures as FHIR",
            )
        return Response(bundle)
