from django.urls import path

from homework import views

app_name = "homework"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("do/<int:assignment_id>/", views.do_assignment, name="do"),
    path("do/<int:assignment_id>/save/", views.autosave, name="autosave"),
    path("entries/<uuid:key>/", views.entry_detail, name="entry"),
    path("history/", views.history, name="history"),
    path("progress/", views.progress, name="progress"),
]
