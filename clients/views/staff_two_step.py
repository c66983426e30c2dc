"""The admin's sign-in in two steps: nobody is signed in until the second is done.

Hand-written on django-otp's devices and login() because its admin form asks for the password
and the code on one page, with no first-time set-up and no recovery codes.
"""

import time
from base64 import b32encode
from typing import Any

from django import forms
from django.contrib.admin import AdminSite
from django.contrib.auth import login, logout
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from django_otp import login as otp_login
from django_otp.middleware import OTPMiddleware
from django_otp.models import Device

from clients import lockout, selectors, services
from clients.middleware import start_staff_session
from clients.services.staff_two_step import (
    has_staff_second_factor,
    staff_second_factor_enrol,
    staff_second_factor_verify,
)
from clients.two_step import qr_svg, setup_uri
from practice.models import User
from practice.requests import acting_user, parse_id

MODEL_BACKEND = "clients.backends.PersonBackend"
# Ten minutes: long enough to fetch a phone and scan.
PENDING_STAFF_SIGN_IN = "practice:pending_staff_sign_in"
PENDING_MAX_SECONDS = 600


class StaffCodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code from your authenticator app, or a recovery code"),
        max_length=32,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "spellcheck": "false", "autofocus": True}
        ),
        error_messages={
            "required": gettext_lazy("Type the 6-digit code your app shows now."),
            "max_length": gettext_lazy(
                "A code is 6 digits, a recovery code 8 letters and numbers."
            ),
        },
    )


class StaffPasswordStepView(LoginView):
    def get_default_redirect_url(self) -> str:
        return reverse("admin:index")

    def form_valid(self, form: Any) -> HttpResponse:
        user: User = form.get_user()
        self.request.session[PENDING_STAFF_SIGN_IN] = {
            "user": user.pk,
            "at": time.time(),
            "next": self.get_success_url(),
        }
        if has_staff_second_factor(user=user):
            return redirect("admin:login_code")
        return redirect("admin:login_enrol")


def _pending_user(request: HttpRequest) -> User | None:
    pending = request.session.get(PENDING_STAFF_SIGN_IN)
    if not pending or time.time() - float(pending["at"]) > PENDING_MAX_SECONDS:
        request.session.pop(PENDING_STAFF_SIGN_IN, None)
        return None
    user = User.objects.filter(pk=pending["user"], is_active=True, is_staff=True).first()
    if user is None:
        request.session.pop(PENDING_STAFF_SIGN_IN, None)
    return user


def _sign_in(request: HttpRequest, user: User, device: Device) -> str:
    pending = request.session.pop(PENDING_STAFF_SIGN_IN)
    login(request, user, backend=MODEL_BACKEND)
    otp_login(request, device)
    # login() left request.user bare: wrapped, so this answer (the recovery codes) sees it verified.
    OTPMiddleware(lambda _request: None)(request)
    start_staff_session(request)
    next_url = str(pending.get("next") or "")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = reverse("admin:index")
    return next_url


def _page(
    request: HttpRequest, site: AdminSite, template: str, context: dict[str, Any], status: int
) -> HttpResponse:
    return render(
        request,
        template,
        {**site.each_context(request), **context},
        status=status,
    )


def _signed_out_start_again() -> HttpResponse:
    return redirect(f"{reverse('admin:login')}?ended=expired")


@require_http_methods(["GET", "POST"])
def login_code(request: HttpRequest, *, site: AdminSite) -> HttpResponse:
    user = _pending_user(request)
    if user is None:
        return _signed_out_start_again()
    if not has_staff_second_factor(user=user):
        return redirect("admin:login_enrol")
    form = StaffCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        result = staff_second_factor_verify(user=user, code=form.cleaned_data["code"])
        if result.device is not None:
            response = HttpResponseRedirect(_sign_in(request, user, result.device))
            lockout.device_cookie_set(response, request=request, user=user)
            return response
        form.add_error("code", result.refusal)
    return _page(
        request,
        site,
        "admin/login_code.html",
        {"form": form, "title": _("Second step")},
        status=400 if form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def enrol(request: HttpRequest, *, site: AdminSite) -> HttpResponse:
    """Only while no app is set up: one already there is never replaced on the password alone."""
    user = _pending_user(request)
    if user is None:
        return _signed_out_start_again()
    if has_staff_second_factor(user=user):
        return redirect("admin:login_code")
    device = selectors.unconfirmed_totp_device(user=user) or services.totp_device_start(user=user)
    form = StaffCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            totp, codes = staff_second_factor_enrol(
                user=user,
                token=form.cleaned_data["code"],
                device_id=parse_id(request.POST.get("device")),
            )
        except ValidationError as error:
            for message in error.message_dict.get("token", error.messages):
                form.add_error("code", message)
            device = selectors.unconfirmed_totp_device(user=user) or device
        else:
            next_url = _sign_in(request, user, totp)
            # Shown on this answer only, never again: a reload finds no page to show.
            response = _page(
                request,
                site,
                "admin/recovery_codes.html",
                {"codes": codes, "next_url": next_url, "title": _("Your recovery codes")},
                status=200,
            )
            lockout.device_cookie_set(response, request=request, user=user)
            return response
    return _page(
        request,
        site,
        "admin/login_enrol.html",
        {
            "form": form,
            "device": device,
            "qr": qr_svg(setup_uri(device)),
            "secret": b32encode(device.bin_key).decode(),
            "title": _("Set up your authenticator app"),
        },
        status=400 if form.errors else 200,
    )


@require_POST
def sign_out_everywhere(request: HttpRequest) -> HttpResponse:
    services.user_log_out_everywhere(user=acting_user(request))
    logout(request)
    return redirect(f"{reverse('admin:login')}?ended=everywhere")
