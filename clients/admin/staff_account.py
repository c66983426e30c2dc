"""A staff member's own pages beside the admin."""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.admin import AdminSite
from django.contrib.auth import logout
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from clients.admin.staff import add_refusal
from clients.forms import PasswordTwiceForm
from clients.services import InvitationRefused
from clients.services.accounts import staff_choose_language
from clients.services.staff_invitations import staff_invitation_accept, staff_invitation_check
from clients.services.staff_two_step import recovery_codes_renew
from practice.languages import LanguageSelect, in_language, language_choices
from practice.refusals import form_refused
from practice.requests import acting_user

STAFF_INVITATION_KEY = "clients.staff_invitation"


class AppCodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code from your authenticator app"),
        max_length=32,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}
        ),
        error_messages={"required": gettext_lazy("Type the 6-digit code your app shows now.")},
    )


def _page(
    request: HttpRequest, site: AdminSite, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    response = TemplateResponse(
        request, template, {**site.each_context(request), **context}, status=status
    )
    add_never_cache_headers(response)
    return form_refused(request, response)


def _refused(request: HttpRequest, site: AdminSite, reason: str) -> HttpResponse:
    request.session.pop(STAFF_INVITATION_KEY, None)
    status = 404 if reason == InvitationRefused.UNKNOWN else 410
    return _page(
        request, site, "admin/staff/welcome_refused.html", {"reason": reason, "title": ""}, status
    )


@require_GET
def staff_welcome(request: HttpRequest, token: str, *, site: AdminSite) -> HttpResponse:
    """The link from the invitation: checked, then carried on at a plain address."""
    try:
        staff_invitation_check(token=token)
    except InvitationRefused as refused:
        return _refused(request, site, refused.reason)
    # Only for a link that works.
    if request.user.is_authenticated:
        logout(request)  # a shared screen: never mix someone else's session in
    request.session[STAFF_INVITATION_KEY] = token
    return redirect("admin:staff_welcome_password")


@require_http_methods(["GET", "POST"])
def staff_welcome_password(request: HttpRequest, *, site: AdminSite) -> HttpResponse:
    token = request.session.get(STAFF_INVITATION_KEY)
    if not token:
        return _refused(request, site, InvitationRefused.UNKNOWN)
    try:
        invitation = staff_invitation_check(token=token)
    except InvitationRefused as refused:
        return _refused(request, site, refused.reason)
    form = PasswordTwiceForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            staff_invitation_accept(token=token, password=form.cleaned_data["password1"])
        except InvitationRefused as refused:
            return _refused(request, site, refused.reason)
        except ValidationError as error:
            add_refusal(form, error)  # the password rules on the password; a taken address above
        else:
            request.session.pop(STAFF_INVITATION_KEY, None)
            messages.success(
                request,
                _(
                    "Your password is set. Sign in with it: you will then set up your "
                    "authenticator app."
                ),
            )
            return redirect("admin:login")
    return _page(
        request,
        site,
        "admin/staff/welcome.html",
        {"form": form, "invitation": invitation, "title": _("Welcome")},
        status=400 if form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def recovery_codes(request: HttpRequest, *, site: AdminSite) -> HttpResponse:
    """New recovery codes, once a code from the app is given; shown on this answer only."""
    form = AppCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            codes = recovery_codes_renew(user=acting_user(request), code=form.cleaned_data["code"])
        except ValidationError as refused:
            add_refusal(form, refused)
        else:
            return _page(
                request,
                site,
                "admin/staff/recovery_codes.html",
                {"codes": codes, "title": _("Your new recovery codes")},
            )
    return _page(
        request,
        site,
        "admin/staff/recovery_codes.html",
        {"form": form, "title": _("New recovery codes")},
        status=400 if form.errors else 200,
    )


class StaffLanguageForm(forms.Form):
    language = forms.ChoiceField(
        label=gettext_lazy("Language"),
        widget=LanguageSelect,
        error_messages={
            "invalid_choice": gettext_lazy("Choose one of the languages offered here.")
        },
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = language_choices()  # type: ignore[attr-defined]


@require_http_methods(["GET", "POST"])
def staff_language(request: HttpRequest, *, site: AdminSite) -> HttpResponse:
    """A staff member's own language: the admin, their emails and the summaries they print."""
    user = acting_user(request)
    form = StaffLanguageForm(request.POST or None, initial={"language": user.language})
    if request.method == "POST" and form.is_valid():
        try:
            user = staff_choose_language(actor=user, language=form.cleaned_data["language"])
        except ValidationError as refused:
            add_refusal(form, refused)
        else:
            with in_language(user.language):
                messages.success(request, _("Your language is saved."))
            return redirect("admin:index")
    return _page(
        request,
        site,
        "admin/staff/language.html",
        {"form": form, "title": _("Your language")},
        status=400 if form.errors else 200,
    )


def staff_account_urls(site: AdminSite) -> list[URLPattern]:
    def bound(function: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        def view(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            return function(request, site=site, **kwargs)

        return view

    return [
        # Opened signed out, by someone with no account yet.
        path("welcome/<str:token>/", bound(staff_welcome), name="staff_welcome"),
        path("welcome/", bound(staff_welcome_password), name="staff_welcome_password"),
        path(
            "recovery-codes/",
            site.admin_view(bound(recovery_codes)),
            name="staff_recovery_codes",
        ),
        path("language/", site.admin_view(bound(staff_language)), name="staff_language"),
    ]
