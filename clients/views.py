"""Account pages of the portal: getting in (invitation, sign-in, reset, two-step)
and signing out (everywhere, idle). The quick exit and taking your records
with you need the homework, and live with it (homework.portal)."""

import logging
import time
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
)
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)

from clients import selectors, services
from clients.decorators import client_required, page_after_sign_in
from clients.forms import (
    ChangePasswordForm,
    CodeForm,
    NeutralPasswordResetForm,
    NewPasswordForm,
    PasswordConfirmForm,
    PortalSignInForm,
    SetPasswordForm,
)
from clients.middleware import LAST_SEEN, start_portal_session
from clients.two_step import qr_svg, setup_uri
from practice.models import User
from practice.refusals import form_refused
from practice.requests import AuthedRequest, parse_id

logger = logging.getLogger(__name__)

# Ask the browser to forget everything of ours it may hold: cached pages,
# cookies, storage. Shared devices are the norm, not the exception.
CLEAR_SITE_DATA = '"cache", "cookies", "storage"'
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"

# Sign-in waiting for its second step: who, since when, where to go next.
PENDING_SIGN_IN = "pending_sign_in"
PENDING_MAX_SECONDS = 300
# The invitation token moves from the link into the session, so the address
# bar (and history) holds a plain /welcome/ while the client sets a password.
INVITATION_KEY = "invitation"


def _signed_in(request: HttpRequest, user: User) -> None:
    login(request, user, backend=MODEL_BACKEND)
    if user.is_client:
        start_portal_session(request)


class PortalLoginView(auth_views.LoginView):
    """Email and password, then (only if the client chose it) a code from their app.

    A wrong email and a wrong password get the same answer.
    """

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
        _signed_in(self.request, user)
        return HttpResponseRedirect(self.get_success_url())


@require_http_methods(["GET", "POST"])
def login_code(request: HttpRequest) -> HttpResponse:
    pending = request.session.get(PENDING_SIGN_IN)
    if not pending or time.time() - float(pending["at"]) > PENDING_MAX_SECONDS:
        request.session.pop(PENDING_SIGN_IN, None)
        return redirect("clients:login")
    user = User.objects.filter(pk=pending["user"], is_active=True).first()
    if user is None:
        return redirect("clients:login")
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if services.totp_verify(user=user, token=form.cleaned_data["token"]):
            del request.session[PENDING_SIGN_IN]
            _signed_in(request, user)
            next_url = pending["next"]
            if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}):
                next_url = reverse(settings.LOGIN_REDIRECT_URL)
            return HttpResponseRedirect(next_url)
        form.add_error(
            "token", _("That code did not match. Codes change every 30 seconds: try the newest.")
        )
    return form_refused(
        request,
        render(
            request, "clients/login_code.html", {"form": form}, status=400 if form.errors else 200
        ),
    )


@csrf_exempt
@require_http_methods(["GET", "POST"])
def logout_view(request: HttpRequest) -> HttpResponse:
    """Sign out. The address followed or typed (a GET) signs out too, as the
    quick exit's does: refusing would leave the client signed in on a shared
    device. A forged GET can only sign someone out, which is harmless.

    No security-token check either: a page open from before a sign-in in
    another tab holds a stale token, and a refused sign-out leaves the
    session running. A forged post can do no more than the GET."""
    logout(request)
    response = redirect("clients:login")
    response["Clear-Site-Data"] = CLEAR_SITE_DATA
    return response


# -- invitations -------------------------------------------------------------------


def _invitation_refused(request: HttpRequest, reason: str) -> HttpResponse:
    request.session.pop(INVITATION_KEY, None)
    status = 404 if reason == services.InvitationRefused.UNKNOWN else 410
    return render(request, "clients/welcome_refused.html", {"reason": reason}, status=status)


@require_GET
def welcome(request: HttpRequest, token: str) -> HttpResponse:
    """The link from the invitation: check it, then carry on at a plain address."""
    if request.user.is_authenticated:
        logout(request)  # a shared device: never mix someone else's session in
    try:
        services.invitation_check(token=token)
    except services.InvitationRefused as refused:
        return _invitation_refused(request, refused.reason)
    request.session[INVITATION_KEY] = token
    return redirect("clients:welcome_password")


@require_http_methods(["GET", "POST"])
def welcome_password(request: HttpRequest) -> HttpResponse:
    token = request.session.get(INVITATION_KEY)
    if not token:
        return _invitation_refused(request, services.InvitationRefused.UNKNOWN)
    try:
        invitation = services.invitation_check(token=token)
    except services.InvitationRefused as refused:
        return _invitation_refused(request, refused.reason)
    form = SetPasswordForm(request.POST or None, initial={"email": invitation.client.contact_email})
    if request.method == "POST" and form.is_valid():
        words = {"email": form.cleaned_data["email"], "password": form.cleaned_data["password1"]}
        user: User | None = None
        try:
            user = services.invitation_accept(token=token, **words)
        except services.InvitationRefused as refused:
            # Used a moment ago by this same form, sent twice (a double click):
            # the first post signed in; this one, the one the browser shows, does too.
            user = services.invitation_accepted_just_now(token=token, **words)
            if user is None:
                return _invitation_refused(request, refused.reason)
        except ValidationError as error:
            # A taken email names its field; the password rules answer as a list.
            form.add_error(None if hasattr(error, "error_dict") else "password1", error)
        if user is not None:
            request.session.pop(INVITATION_KEY, None)
            _signed_in(request, user)
            messages.success(request, _("Welcome. Your notebook is ready."))
            return redirect("homework:dashboard")
    # The last day the link works, on the client's own calendar (as the email says it).
    with timezone.override(invitation.client.timezone):
        return form_refused(
            request,
            render(
                request,
                "clients/welcome.html",
                {"form": form, "expires_at": invitation.expires_at},
                status=400 if form.errors else 200,
            ),
        )


# -- password reset: Django's views, neutral pages and a discreet email ---------------


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


# -- the account page ---------------------------------------------------------------


@require_safe
@client_required
def account(request: AuthedRequest) -> HttpResponse:
    return account_page(request)


@require_GET
@client_required(allow_archived=True)
def notebook_closed(request: AuthedRequest) -> HttpResponse:
    """The one page of the portal left to a client their therapist archived:
    what they wrote is kept, and theirs to download."""
    if selectors.client_for_portal_user(user=request.user) is not None:
        return redirect("homework:dashboard")  # restored: the whole portal is open again
    return account_page(request)


def account_page(
    request: AuthedRequest,
    *,
    remove_form: PasswordConfirmForm | None = None,
    password_form: ChangePasswordForm | None = None,
    extra_context: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The account page, with whichever of its forms was refused; for a
    client their therapist archived, the closed notebook's page instead
    (the download, the password and signing out are all it keeps).

    The download's part of the page is drawn by homework, which knows what
    there is to download (homework.templatetags.portal_export); a choice it
    refused comes back through ``extra_context``."""
    closed = selectors.client_for_portal_user(user=request.user) is None
    return render(
        request,
        "clients/closed.html" if closed else "clients/account.html",
        {
            "two_step": selectors.has_two_step(user=request.user),
            "remove_form": remove_form or PasswordConfirmForm(),
            "password_form": password_form or ChangePasswordForm(request.user),
            **(extra_context or {}),
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
@client_required
def two_step_setup(request: AuthedRequest) -> HttpResponse:
    """Show the picture to scan (POST from the account page starts it) and take
    the first code, which turns two-step sign-in on."""
    device = selectors.unconfirmed_totp_device(user=request.user)
    form = CodeForm()
    if request.method == "POST" and "start" in request.POST:
        try:
            device = services.totp_device_start(user=request.user)
        except services.TwoStepAlreadyOn:
            messages.info(
                request,
                _(
                    "Two-step sign-in is already on. To use another app, turn it off first "
                    "(that asks for your password), then set it up again."
                ),
            )
            return redirect("clients:account")
    elif request.method == "POST":
        form = CodeForm(request.POST)
        if form.is_valid():
            try:
                services.totp_device_confirm(
                    user=request.user,
                    token=form.cleaned_data["token"],
                    device_id=parse_id(request.POST.get("device")),
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(
                    request, _("Two-step sign-in is on. You will be asked for a code each time.")
                )
                return redirect("clients:account")
    if device is None:
        return redirect("clients:account")
    uri = setup_uri(device)
    return form_refused(
        request,
        render(
            request,
            "clients/two_step_setup.html",
            {"form": form, "qr": qr_svg(uri), "secret": device_secret(device), "device": device},
            status=400 if form.errors else 200,
        ),
    )


def device_secret(device: Any) -> str:
    from base64 import b32encode

    raw = b32encode(device.bin_key).decode()
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


@require_POST
@client_required
def two_step_remove(request: AuthedRequest) -> HttpResponse:
    form = PasswordConfirmForm(request.POST)
    if form.is_valid():
        try:
            services.totp_device_remove(user=request.user, password=form.cleaned_data["password"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Two-step sign-in is off."))
            return redirect("clients:account")
    return form_refused(request, account_page(request, remove_form=form, status=400))


@require_POST
@client_required(allow_archived=True)
def change_password(request: AuthedRequest) -> HttpResponse:
    """A new password from inside, at once: no email needed (it may be read by
    someone else). Every other session ends; this one carries on.

    Only the current password is asked, two-step sign-in or not, as for
    turning two-step off: the person is already signed in past it.
    Wrong guesses are not throttled here, as sign-in's are not either."""
    form = ChangePasswordForm(request.user, request.POST)
    if form.is_valid():
        try:
            user = services.user_change_password(
                user=request.user,
                old_password=form.cleaned_data["old_password"],
                new_password=form.cleaned_data["new_password1"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            update_session_auth_hash(request, user)
            messages.success(
                request,
                _(
                    "Your password is changed. Anyone signed in with your old password, "
                    "on any device, has been signed out."
                ),
            )
            return redirect("clients:account")
    return form_refused(request, account_page(request, password_form=form, status=400))


@require_POST
@client_required(allow_archived=True)
def log_out_everywhere(request: AuthedRequest) -> HttpResponse:
    services.user_log_out_everywhere(user=request.user)
    logout(request)
    response = redirect(f"{reverse('clients:login')}?ended=everywhere")
    response["Clear-Site-Data"] = CLEAR_SITE_DATA
    return response


@require_POST
@client_required(allow_archived=True)
def stay_signed_in(request: AuthedRequest) -> HttpResponse:
    """The idle warning's "Stay signed in": any request counts; this one says so."""
    request.session[LAST_SEEN] = time.time()
    return HttpResponse(status=204)


@require_GET
@client_required(allow_archived=True)
def form_token(request: AuthedRequest) -> JsonResponse:
    """A fresh security token for a page still open from before a sign-in
    (here, or in another tab, which changes the token): autosave fetches it
    and carries on, instead of failing with the client's words unsaved."""
    return JsonResponse({"token": get_token(request)})


@require_POST
@client_required(allow_archived=True)
def dismiss_exit_note(request: AuthedRequest) -> HttpResponse:
    services.user_dismiss_exit_note(user=request.user)
    if request.headers.get("Accept", "").startswith("application/json"):
        return HttpResponse(status=204)
    return redirect("homework:dashboard")
