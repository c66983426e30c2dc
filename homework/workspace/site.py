"""The admin site with the therapist's home page, read through the scoped selectors: a therapist
sees their own clients, a manager the practice."""

from functools import partial
from typing import Any

from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import URLPattern, URLResolver, path
from django.utils import timezone

from homework.selectors import staff_home
from homework.workspace.alerts import alert_acknowledge_view, open_alerts_view
from homework.workspace.caseload import caseload_view
from practice.admin_site import PracticeAdminSite, previous_sign_in
from practice.requests import acting_user


class WorkspaceAdminSite(PracticeAdminSite):
    def index(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> TemplateResponse:
        home = staff_home(
            user=acting_user(request), previous_visit=previous_sign_in(request), now=timezone.now()
        )
        return super().index(request, {"home": home, **(extra_context or {})})

    def get_urls(self) -> list[URLResolver | URLPattern]:
        own: list[URLResolver | URLPattern] = [
            path("caseload/", self.admin_view(partial(caseload_view, site=self)), name="caseload"),
            path("alerts/", self.admin_view(partial(open_alerts_view, site=self)), name="alerts"),
            path(
                "alerts/<int:alert_id>/acknowledge/",
                self.admin_view(partial(alert_acknowledge_view, site=self)),
                name="alert_acknowledge",
            ),
        ]
        return own + super().get_urls()
