from django.urls import path

from homework.portal import (
    doing,
    download_views,
    entry_pages,
    export_views,
    looking_back,
    quick_exit,
    todo,
)

app_name = "homework"

urlpatterns = [
    path("", todo.dashboard, name="dashboard"),
    path("do/<int:assignment_id>/", doing.do_assignment, name="do"),
    path("do/<int:assignment_id>/save/", doing.autosave, name="autosave"),
    path("entries/<uuid:key>/", entry_pages.entry_detail, name="entry"),
    path("entries/<uuid:key>/edit/", entry_pages.entry_edit, name="entry_edit"),
    path("entries/<uuid:key>/privacy/", entry_pages.entry_privacy, name="entry_privacy"),
    path("entries/<uuid:key>/notes/", entry_pages.entry_add_note, name="entry_add_note"),
    path("history/", looking_back.history, name="history"),
    path("progress/", looking_back.progress, name="progress"),
    # Among the account's addresses: the portal's own, which need the homework.
    path("exit/", quick_exit.quick_exit, name="quick_exit"),
    path("account/export.json", export_views.export_json, name="export_json"),
    path("account/export.pdf", export_views.export_pdf, name="export_pdf"),
    path("account/download/", download_views.download_ask, name="download_ask"),
    path("account/download/progress/", download_views.download_progress, name="download_progress"),
    path("account/download/status/", download_views.download_status, name="download_status"),
    path("account/download/<uuid:key>/", download_views.download_fetch, name="download_fetch"),
]
