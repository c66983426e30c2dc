"""A staff member's forgotten password: Django's reset views, with our templates and the portal's
form (the same neutral email, sent by a worker, and the same per-address limit)."""

from typing import Any, cast

from django.contrib.admin import AdminSite
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, path, reverse_lazy

from clients.forms import NeutralPasswordResetForm, NewPasswordForm


class _OnTheSite:
    """The admin site's header and title on a page opened signed out."""

    site: AdminSite | None = None

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)  # type: ignore[misc]
        site = cast(AdminSite, self.site)  # given by staff_password_reset_urls
        return {**site.each_context(self.request), **context}  # type: ignore[attr-defined]


class StaffPasswordResetView(_OnTheSite, auth_views.PasswordResetView):
    form_class = NeutralPasswordResetForm
    template_name = "admin/password_reset.html"
    success_url = reverse_lazy("admin:password_reset_sent")


class StaffPasswordResetSentView(_OnTheSite, auth_views.PasswordResetDoneView):
    template_name = "admin/password_reset_sent.html"


class StaffPasswordResetConfirmView(_OnTheSite, auth_views.PasswordResetConfirmView):
    template_name = "admin/password_reset_confirm.html"
    form_class = NewPasswordForm
    success_url = reverse_lazy("admin:password_reset_complete")


class StaffPasswordResetCompleteView(_OnTheSite, auth_views.PasswordResetCompleteView):
    template_name = "admin/password_reset_complete.html"


def staff_password_reset_urls(site: AdminSite) -> list[URLPattern]:
    return [
        path(
            "password/reset/",
            StaffPasswordResetView.as_view(site=site),
            name="password_reset",
        ),
        path(
            "password/reset/sent/",
            StaffPasswordResetSentView.as_view(site=site),
            name="password_reset_sent",
        ),
        path(
            "password/reset/done/",
            StaffPasswordResetCompleteView.as_view(site=site),
            name="password_reset_complete",
        ),
        path(
            "password/reset/<uidb64>/<token>/",
            StaffPasswordResetConfirmView.as_view(site=site),
            name="password_reset_confirm",
        ),
    ]
