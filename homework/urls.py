from django.urls import path

from homework import views
from homework.portal import export_views, quick_exit

app_name = "homework"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("do/<int:assignment_id>/", views.do_assignment, name="do"),
    path("do/<int:assignment_id>/save/", views.autosave, name="autosave"),
    path("entries/<uuid:key>/", views.entry_detail, name="entry"),
    path("entries/<uuid:key>/edit/", views.entry_edit, name="entry_edit"),
    path("entries/<uuid:key>/privacy/", views.entry_privacy, name="entry_privacy"),
    path("entries/<uuid:key>/notes/", views.entry_add_note, name="entry_add_note"),
    path("history/", views.history, name="history"),
    path("progress/", views.progress, name="progress"),
    # Among the account's addresses: the portal's own, which need the homework.
    path("exit/", quick_exit.quick_exit, name="quick_exit"),
    path("account/export.json", export_views.export_json, name="export_json"),
    path("account/export.pdf", export_views.export_pdf, name="export_pdf"),
]
