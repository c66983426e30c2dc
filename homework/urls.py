from django.urls import path

from homework import views

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
]
