"""A client reading their own records logs no look: the access log is of the practice's looks."""

import uuid
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clients.api.permissions import IsPortalClient, portal_user
from homework import export, selectors, services
from homework.api.serializers import (
    AssignmentOut,
    EntryIn,
    EntryOut,
    EntryPatch,
    EntryWithNotesOut,
    NoteIn,
    NoteOut,
)
from homework.kinds import ResponseInvalid, get_kind
from homework.models import Entry
from homework.services import EntryConflict, EntryLocked, Flags
from practice.api.errors import Conflict, PreconditionFailed
from practice.api.idempotency import IDEMPOTENCY_KEY_HEADER, idempotent
from practice.api.preconditions import IF_MATCH_HEADER, version_from_if_match, with_etag
from practice.api.views import ListingView


class EntryRead(Conflict):
    default_code = "entry_read"
    default_detail = _(
        "Your therapist has marked this entry as read, so it stays as it is. You can add a note to it."
    )


class DraftOpen(Conflict):
    default_code = "draft_open"
    default_detail = _(
        "A draft of this work is already open: carry that one on (PATCH it) or send it."
    )


class ClientView(ListingView):
    permission_classes = [IsAuthenticated, IsPortalClient]


class AssignmentList(ClientView):
    serializer_class = AssignmentOut

    @extend_schema(
        operation_id="my_assignments",
        summary="Your assignments, open work first",
        responses=AssignmentOut(many=True),
    )
    def get(self, request: Request) -> Response:
        assignments = selectors.assignments_for_client_api(user=portal_user(request))
        return self.page_of(assignments)


class AssignmentDetail(ClientView):
    serializer_class = AssignmentOut

    @extend_schema(operation_id="my_assignment", summary="One of your assignments")
    def get(self, request: Request, assignment_id: int) -> Response:
        user = portal_user(request)
        assignment = selectors.assignments_for_client_api(user=user).get(pk=assignment_id)
        return Response(AssignmentOut(assignment).data)


def _flags(data: dict[str, Any], entry: Entry | None = None) -> Flags:
    def flag(name: str) -> bool:
        return bool(data.get(name, getattr(entry, name, False)))

    return Flags(
        discuss_in_session=flag("discuss_in_session"),
        felt_unsafe=flag("felt_unsafe"),
        private=flag("private"),
    )


def _response_refused(refused: ResponseInvalid) -> ValidationError:
    return ValidationError({"response": refused.errors})


class AssignmentEntries(ClientView):
    serializer_class = EntryOut

    @extend_schema(
        operation_id="my_entries",
        summary="Your entries of one assignment",
        responses=EntryOut(many=True),
    )
    def get(self, request: Request, assignment_id: int) -> Response:
        user = portal_user(request)
        assignment = selectors.assignments_for_client_api(user=user).get(pk=assignment_id)
        entries = selectors.entries_for_client_api(user=user, assignment=assignment)
        return self.page_of(entries)

    @extend_schema(
        operation_id="my_entry_create",
        summary="Start a draft, or send an entry",
        request=EntryIn,
        parameters=[IDEMPOTENCY_KEY_HEADER],
        responses={201: EntryOut},
    )
    @idempotent
    def post(self, request: Request, assignment_id: int) -> Response:
        user = portal_user(request)
        # Someone else's (or no) assignment is a 404 whatever the body says.
        selectors.portal_assignment(user=user, assignment_id=assignment_id, for_writing=True)
        body = EntryIn(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        write = (
            services.entry_submit
            if data["status"] == Entry.Status.SUBMITTED
            else services.entry_save_draft
        )
        try:
            entry = write(
                user=user,
                assignment_id=assignment_id,
                key=uuid.uuid4(),
                base_version=0,
                data=data["response"],
                flags=_flags(data),
            )
        except ResponseInvalid as refused:
            raise _response_refused(refused) from None
        except EntryConflict:
            raise DraftOpen from None
        response = Response(EntryOut(entry).data, status=status.HTTP_201_CREATED)
        response["Location"] = f"/api/v1/entries/{entry.key}/"
        return with_etag(response, entry.version)


class EntryDetail(ClientView):
    serializer_class = EntryWithNotesOut

    @extend_schema(operation_id="my_entry", summary="One of your entries, with notes and comments")
    def get(self, request: Request, key: uuid.UUID) -> Response:
        entry = selectors.portal_entry_with_notes(user=portal_user(request), key=key)
        return with_etag(Response(EntryWithNotesOut(entry).data), entry.version)

    @extend_schema(
        operation_id="my_entry_update",
        summary="Change a draft, send it, change a sent entry, or keep it private",
        description=(
            "As the portal allows: a draft can be changed and sent; a sent entry can be "
            "changed until your therapist marks it as read (then add a note), and kept private "
            "or shared. What you leave out stays as it is."
        ),
        request=EntryPatch,
        parameters=[IF_MATCH_HEADER],
        responses={200: EntryOut, 409: OpenApiResponse(OpenApiTypes.OBJECT)},
    )
    def patch(self, request: Request, key: uuid.UUID) -> Response:
        user = portal_user(request)
        entry = selectors.portal_entry_with_notes(user=user, key=key)  # first: 404 if not theirs
        base = version_from_if_match(request)
        body = EntryPatch(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            entry = _change(user, entry, base, data)
        except ResponseInvalid as refused:
            raise _response_refused(refused) from None
        except EntryConflict:
            raise PreconditionFailed from None
        except EntryLocked:
            raise EntryRead from None
        return with_etag(Response(EntryOut(entry).data), entry.version)


def _change(user: Any, entry: Entry, base: int, data: dict[str, Any]) -> Entry:
    kind = get_kind(entry.assignment.exercise.kind)
    response = data.get("response", kind.response_of(entry))
    flags = _flags(data, entry)
    to = data.get("status", entry.status)
    if not entry.is_submitted:
        write = services.entry_submit if to == Entry.Status.SUBMITTED else services.entry_save_draft
        return write(
            user=user,
            assignment_id=entry.assignment_id,
            key=entry.key,
            base_version=base,
            data=response,
            flags=flags,
        )
    if to == Entry.Status.DRAFT:
        raise Conflict(_("A sent entry cannot become a draft again."), code="already_sent")
    if {"response", "discuss_in_session", "felt_unsafe"} & set(data):
        return services.entry_edit(
            user=user, key=entry.key, base_version=base, data=response, flags=flags
        )
    with transaction.atomic():
        # entry_set_private checks no version: the check is made here, under the row's lock.
        current = (
            Entry.objects.select_for_update().values_list("version", flat=True).get(pk=entry.pk)
        )
        if current != base:
            raise EntryConflict(entry)
        if "private" not in data:
            return entry
        return services.entry_set_private(user=user, key=entry.key, private=flags.private)


class EntryNotes(ClientView):
    serializer_class = NoteOut

    @extend_schema(
        operation_id="my_entry_note",
        summary="Add a note to a sent entry",
        request=NoteIn,
        parameters=[IDEMPOTENCY_KEY_HEADER],
        responses={201: NoteOut},
    )
    @idempotent
    def post(self, request: Request, key: uuid.UUID) -> Response:
        user = portal_user(request)
        selectors.portal_entry_with_notes(user=user, key=key)  # first: 404 if not theirs
        body = NoteIn(data=request.data)
        body.is_valid(raise_exception=True)
        note = services.entry_add_note(user=user, key=key, text=body.validated_data["text"])
        return Response(NoteOut(note).data, status=status.HTTP_201_CREATED)


class MyExport(ClientView):
    allow_archived = True  # the download stays theirs once the notebook is closed

    @extend_schema(
        operation_id="my_export",
        summary="Everything you wrote, as JSON",
        description="The same document as the portal's download (Settings → Download).",
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request) -> Response:
        return Response(export.export_json(user=portal_user(request)))
