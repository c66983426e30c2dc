from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from homework.portal.help_now import help_now
from practice import views
from practice.health import health

admin.site.site_header = _("Practice companion")
admin.site.site_title = _("Practice companion")
admin.site.index_title = _("Your practice")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("practice.api.urls")),
    path("help-now/", help_now, name="crisis"),
    path("favicon.ico", views.favicon),
    path("health/", health, name="health"),
    path("", include("clients.urls")),
    path("", include("homework.portal.urls")),
]

# Error pages keep the quick exit and the crisis lines.
handler500 = "practice.views.server_error"
