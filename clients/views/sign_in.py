"""Getting in and out of the portal: sign-in, signing out, and a forgotten password's reset."""

import time
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from clients import lockout, selectors, services
from clients.decorators import page_after_sign_in
from clients.forms import (
    CodeForm,
    NeutralPasswordResetForm,
    NewPasswordForm,
    PortalSignInForm,
    RecoveryCodeForm,
)
from clients.middleware import start_portal_session
from practice.models import User
from practice.refusals import form_refused

# Ask the browser to forget everything of ours: shared devices are the norm.
CLEAR_SITE_DATA = '"cache", "cookies", "storage"'
# Sign-out keeps the device cookie, keeping the next sign-in out of the per-address limit.
CLEAR_SITE_DATA_BUT_COOKIES = '"cache", "storage"'
MODEL_BACKEND = "clients.backends.PersonBackend"

PENDING_SIGN_IN = "pending_sign_in"
PENDING_MAX_SECONDS = 300


def sign_in_user(request: HttpRequest, user: User) -> None:
    login(request, user, backend=MODEL_BACKEND)
    if user.is_client:
        start_portal_session(request)


def signed_in(request: HttpRequest, user: User, next_url: str) -> HttpResponse:
    sign_in_user(request, user)
    if services.two_step_reset_notice_take(user=user):
        messages.warning(
            request,
            _(
                "Your therapist turned off two-step sign-in for you, so your password was "
                "enough this time. When you have your phone again, you can set it up again "
                "in Settings."
            ),
        )
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
        next_url = reverse(settings.LOGIN_REDIRECT_URL)
    response = HttpResponseRedirect(next_url)
    lockout.device_cookie_set(response, request=request, user=user)
    return response


class PortalLoginView(auth_views.LoginView):
    template_name = "clients/login.html"
    authentication_form = PortalSignInForm
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        # A "next" in the address still wins; the portal itself sends none.
        return page_after_sign_in(self.request) or super().get_default_redirect_url()

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["ended"] = self.request.GET.get("ended", "")
        return context

    def form_valid(self, form: Any) -> HttpResponse:
        user = form.get_user()
        if selectors.has_two_step(user=user):
            self.request.session[PENDING_SIGN_IN] = {
                "user": user.pk,
                "at": time.time(),
                "next": self.get_success_url(),
            }
            return redirect("clients:login_code")
        return signed_in(self.request, user, self.get_success_url())


def pending_sign_in(request: HttpRequest) -> tuple[User, str] | None:
    pending = request.session.get(PENDING_SIGN_IN)
    if not pending or time.time() - float(pending["at"]) > PENDING_MAX_SECONDS:
        request.session.pop(PENDING_SIGN_IN, None)
        return None
    user = User.objects.filter(pk=pending["user"], is_active=True).first()
    if user is None:
        return None
    return user, str(pending["next"])


@require_http_methods(["GET", "POST"])
def login_code(request: HttpRequest) -> HttpResponse:
    pending = pending_sign_in(request)
    if pending is None:
        return redirect("clients:login")
    user, next_url = pending
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if services.totp_verify(user=user, token=form.cleaned_data["token"]):
            del request.session[PENDING_SIGN_IN]
            return signed_in(request, user, next_url)
        form.add_error(
            "token", _("That code did not match. Codes change every 30 seconds: try the newest.")
        )
    return form_refused(
        request,
        render(
            request, "clients/login_code.html", {"form": form}, status=400 if form.errors else 200
        ),
    )


@require_http_methods(["GET", "POST"])
def login_lost_phone(request: HttpRequest) -> HttpResponse:
    pending = pending_sign_in(request)
    if pending is None:
        return redirect("clients:login")
    user, next_url = pending
    form = RecoveryCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        result = services.recovery_code_verify(user=user, code=form.cleaned_data["code"])
        if result.device is not None:
            del request.session[PENDING_SIGN_IN]
            response = signed_in(request, user, next_url)
            left = services.recovery_codes_left(user=user)
            messages.info(
                request,
                ngettext(
                    "You signed in with a recovery code; %(count)d is left.",
                    "You signed in with a recovery code; %(count)d are left.",
                    left,
                )
                % {"count": left}
                + " "
                + _(
                    "If your phone is gone for good, go to Settings: turn two-step sign-in "
                    "off, then set it up again on your new phone. That gives you new codes."
                ),
            )
            return response
        form.add_error("code", result.refusal)
    return form_refused(
        request,
        render(
            request,
            "clients/login_lost_phone.html",
            {"form": form},
            status=400 if form.errors else 200,
        ),
    )


@csrf_exempt
@require_http_methods(["GET", "POST"])
def logout_view(request: HttpRequest) -> HttpResponse:
    """No token check: a refused sign-out would leave a client signed in on a shared device."""
    logout(request)  # words the page carries are kept first (homework.portal.quick_exit)
    response = redirect("clients:login")
    response["Clear-Site-Data"] = CLEAR_SITE_DATA_BUT_COOKIES
    response.delete_cookie(
        settings.SESSION_COOKIE_NAME,
        path=settings.SESSION_COOKIE_PATH,
        domain=settings.SESSION_COOKIE_DOMAIN,
    )
    response.delete_cookie(
        settings.CSRF_COOKIE_NAME,
        path=settings.CSRF_COOKIE_PATH,
        domain=settings.CSRF_COOKIE_DOMAIN,
    )
    return response


class PortalPasswordResetView(auth_views.PasswordResetView):
    form_class = NeutralPasswordResetForm
    template_name = "clients/password_reset.html"
    success_url = reverse_lazy("clients:password_reset_sent")


class PortalPasswordResetSentView(auth_views.PasswordResetDoneView):
    template_name = "clients/password_reset_sent.html"


class PortalPasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "clients/password_reset_confirm.html"
    form_class = NewPasswordForm
    success_url = reverse_lazy("clients:password_reset_complete")


class PortalPasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "clients/password_reset_complete.html"
