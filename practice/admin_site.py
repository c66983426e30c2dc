"""The admin site: django-otp's, opened only to staff verified by a second factor."""

import datetime as dt
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, URLResolver, path, reverse
from django.utils.translation import gettext as _

from clients.views import staff_two_step
from practice.admin_access import is_manager
from practice.models import User

if TYPE_CHECKING:  # django-otp is untyped: to the checker, its site is Django's
    from django.contrib.admin import AdminSite as OTPAdminSite
else:
    from django_otp.admin import OTPAdminSite

PREVIOUS_SIGN_IN = "practice:previous_sign_in"


class StaffLoginForm(AdminAuthenticationForm):
    """Notes the previous sign-in before Django overwrites ``last_login``."""

    def confirm_login_allowed(self, user: User) -> None:
        super().confirm_login_allowed(user)
        if self.request is not None:
            last = user.last_login
            self.request.session[PREVIOUS_SIGN_IN] = last.isoformat() if last else ""


def previous_sign_in(request: HttpRequest) -> dt.datetime | None:
    raw = request.session.get(PREVIOUS_SIGN_IN) or ""
    try:
        return dt.datetime.fromisoformat(raw) if raw else None
    except ValueError:
        return None


class PracticeAdminSite(OTPAdminSite):
    index_template = "admin/home.html"
    # Ours, not django-otp's: the code is asked for on a page of its own.
    login_template = "admin/login.html"
    # "View site" would lead staff to the clients' portal, which is not theirs.
    site_url = None
    login_form = StaffLoginForm

    def __init__(self, name: str = "admin") -> None:
        super().__init__(name)

    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if request.method == "GET" and self.has_permission(request):
            return HttpResponseRedirect(reverse("admin:index", current_app=self.name))
        context: dict[str, Any] = {
            **self.each_context(request),
            "title": _("Log in"),
            "subtitle": None,
            "app_path": request.get_full_path(),
            "username": request.user.get_username(),
            "ended": request.GET.get("ended", ""),
        }
        if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
            context[REDIRECT_FIELD_NAME] = reverse("admin:index", current_app=self.name)
        context.update(extra_context or {})
        request.current_app = self.name
        view = staff_two_step.StaffPasswordStepView.as_view(
            extra_context=context,
            authentication_form=self.login_form,
            template_name=self.login_template,
        )
        return cast(HttpResponse, view(request))

    def get_urls(self) -> list[URLResolver | URLPattern]:
        own: list[URLResolver | URLPattern] = [
            path(
                "login/code/",
                partial(staff_two_step.login_code, site=self),
                name="login_code",
            ),
            path("login/enrol/", partial(staff_two_step.enrol, site=self), name="login_enrol"),
            path(
                "sign-out-everywhere/",
                self.admin_view(staff_two_step.sign_out_everywhere),
                name="sign_out_everywhere",
            ),
        ]
        # Imported here: their modules register with this site.
        from clients.admin.staff import staff_urls
        from clients.admin.staff_account import staff_account_urls
        from clients.admin.staff_password_reset import staff_password_reset_urls

        return (
            own
            + staff_urls(self)
            + staff_account_urls(self)
            + staff_password_reset_urls(self)
            + super().get_urls()
        )

    def get_app_list(
        self, request: HttpRequest, app_label: str | None = None
    ) -> list[dict[str, Any]]:
        apps = super().get_app_list(request, app_label)
        if not is_manager(request):
            return apps
        for app in apps:
            if app["app_label"] == "practice":
                app["models"].insert(
                    0,
                    {
                        "name": _("Staff"),
                        "object_name": "Staff",
                        "admin_url": reverse("admin:staff", current_app=self.name),
                        "add_url": reverse("admin:staff_invite", current_app=self.name),
                        "view_only": False,
                        "perms": {"add": True, "change": True, "view": True, "delete": False},
                    },
                )
        return apps
