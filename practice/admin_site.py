"""The practice's admin site: Django's, opened only with two factors
(clients.views.staff_two_step), with the previous sign-in noted for "new since
your last visit", and autocomplete results worded by each admin.

Its home page, what needs attention first, is the therapist's workspace's
(homework.workspace.site): the site used is that one (practice.apps).
"""

import datetime as dt
from functools import partial
from typing import Any, cast

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import URLPattern, URLResolver, path, reverse
from django.utils.translation import gettext as _

from clients.views import staff_two_step
from practice.admin_access import is_manager
from practice.models import User

# The session remembers when this person signed in before this time (see
# StaffLoginForm): "new since your last visit" is measured from there.
PREVIOUS_SIGN_IN = "practice:previous_sign_in"


class StaffLoginForm(AdminAuthenticationForm):
    """The admin's sign-in form, noting the previous sign-in before Django
    overwrites ``last_login`` with this one."""

    def confirm_login_allowed(self, user: User) -> None:
        super().confirm_login_allowed(user)
        if self.request is not None:
            last = user.last_login
            # login() keeps the session's data when it rotates the key.
            self.request.session[PREVIOUS_SIGN_IN] = last.isoformat() if last else ""


def previous_sign_in(request: HttpRequest) -> dt.datetime | None:
    raw = request.session.get(PREVIOUS_SIGN_IN) or ""
    try:
        return dt.datetime.fromisoformat(raw) if raw else None
    except ValueError:
        return None


class LabelledAutocompleteView(AutocompleteJsonView):
    """Autocomplete results worded by the ModelAdmin's ``autocomplete_label``, if it has one
    (the library picker shows each exercise's kind beside its title)."""

    def serialize_result(self, obj: Model, to_field_name: str) -> dict[str, str]:
        label = getattr(self.model_admin, "autocomplete_label", None)
        text = label(obj) if callable(label) else obj
        return {"id": str(getattr(obj, to_field_name)), "text": str(text)}


class PracticeAdminSite(admin.AdminSite):
    index_template = "admin/home.html"
    # "View site" would lead staff to the clients' portal, which is not theirs.
    site_url = None
    login_form = StaffLoginForm

    def has_permission(self, request: HttpRequest) -> bool:
        """Staff who gave their second factor this session (django-otp's OTPAdminSite rule)."""
        verified = getattr(request.user, "is_verified", None)
        return super().has_permission(request) and callable(verified) and bool(verified())

    def login(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Django's admin login, whose right password leads on to the second step."""
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
            template_name=self.login_template or "admin/login.html",
        )
        # LoginView answers with its page or a redirect: both HttpResponses.
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
        # The Staff pages and a staff member's own (clients.admin.staff*): imported
        # here, as the URLs are built, since their modules register with this site.
        from clients.admin.staff import staff_urls
        from clients.admin.staff_account import staff_account_urls

        return own + staff_urls(self) + staff_account_urls(self) + super().get_urls()

    def get_app_list(
        self, request: HttpRequest, app_label: str | None = None
    ) -> list[dict[str, Any]]:
        """Django's list, with the manager's Staff page among the practice's."""
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

    def autocomplete_view(self, request: HttpRequest) -> Any:
        return LabelledAutocompleteView.as_view(admin_site=self)(request)
