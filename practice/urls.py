from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from practice import views

admin.site.site_header = "Practice companion"
admin.site.site_title = "Practice companion"
admin.site.index_title = "Your practice"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/v1/", include("homework.api")),
    path("help-now/", views.crisis, name="crisis"),
    path("favicon.ico", views.favicon),
    path("", include("clients.urls")),
    path("", include("homework.urls")),
]
