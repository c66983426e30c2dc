"""The practice's admin site: Django's, with the previous sign-in noted for
"new since your last visit", and autocomplete results worded by each admin.

Its home page, what needs attention first, is the therapist's workspace's
(homework.workspace.site): the site used is that one (practice.apps).
"""

import datetime as dt
from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.db.models import Model
from django.http import HttpRequest

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

    def autocomplete_view(self, request: HttpRequest) -> Any:
        return LabelledAutocompleteView.as_view(admin_site=self)(request)
