"""Homework's API routes, included by practice.api.urls under ``/api/v1/``."""

from django.urls import URLPattern, path

from homework.api import alerts, client, programs, staff
from homework.api.fhir import ClientFhirBundle
from homework.api.summary import ClientSummaryPdf

routes: list[URLPattern] = [
    # the client's own
    path("assignments/", client.AssignmentList.as_view(), name="my-assignments"),
    path(
        "assignments/<int:assignment_id>/",
        client.AssignmentDetail.as_view(),
        name="my-assignment",
    ),
    path(
        "assignments/<int:assignment_id>/entries/",
        client.AssignmentEntries.as_view(),
        name="my-assignment-entries",
    ),
    path("entries/<uuid:key>/", client.EntryDetail.as_view(), name="my-entry"),
    path("entries/<uuid:key>/notes/", client.EntryNotes.as_view(), name="my-entry-notes"),
    path("me/export/", client.MyExport.as_view(), name="my-export"),
    path("me/programs/", programs.MyPrograms.as_view(), name="my-programs"),
    # staff
    path(
        "clients/<int:client_id>/assignments/",
        staff.ClientAssignments.as_view(),
        name="client-assignments",
    ),
    path("clients/<int:client_id>/entries/", staff.ClientEntries.as_view(), name="client-entries"),
    path(
        "clients/<int:client_id>/entries/read/",
        staff.ClientEntriesRead.as_view(),
        name="client-entries-read",
    ),
    path("clients/<int:client_id>/alerts/", alerts.ClientAlerts.as_view(), name="client-alerts"),
    path(
        "alerts/<int:alert_id>/acknowledge/",
        alerts.AlertAcknowledge.as_view(),
        name="alert-acknowledge",
    ),
    path("entries/<uuid:key>/comments/", staff.EntryComments.as_view(), name="entry-comments"),
    path("exercises/", staff.Exercises.as_view(), name="exercises"),
    path("programs/", programs.Programs.as_view(), name="programs"),
    path("programs/<int:program_id>/", programs.ProgramDetail.as_view(), name="program"),
    path(
        "clients/<int:client_id>/programs/",
        programs.ClientPrograms.as_view(),
        name="client-programs",
    ),
    path(
        "client-programs/<int:client_program_id>/pause/",
        programs.ClientProgramPause.as_view(),
        name="client-program-pause",
    ),
    path(
        "client-programs/<int:client_program_id>/resume/",
        programs.ClientProgramResume.as_view(),
        name="client-program-resume",
    ),
    path(
        "client-programs/<int:client_program_id>/stop/",
        programs.ClientProgramStop.as_view(),
        name="client-program-stop",
    ),
    path(
        "client-programs/<int:client_program_id>/skip/",
        programs.ClientProgramSkip.as_view(),
        name="client-program-skip",
    ),
    path(
        "clients/<int:client_id>/summary.pdf",
        ClientSummaryPdf.as_view(),
        name="client-summary",
    ),
    path("clients/<int:client_id>/fhir/", ClientFhirBundle.as_view(), name="client-fhir"),
]
