"""The invitation's link: check it, choose an address and password, confirm by email."""

from django.contrib import messages
from django.contrib.auth import logout
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from clients import lockout, services
from clients.forms import SetPasswordForm
from clients.views.sign_in import sign_in_user
from practice.refusals import form_refused

# The token moves into the session, so the address bar holds a plain /welcome/.
INVITATION_KEY = "invitation"
FINISH_KEY = "invitation-finish"


def _invitation_refused(request: HttpRequest, reason: str) -> HttpResponse:
    request.session.pop(INVITATION_KEY, None)
    request.session.pop(FINISH_KEY, None)
    status = 404 if reason == services.InvitationRefused.UNKNOWN else 410
    return render(request, "clients/welcome_refused.html", {"reason": reason}, status=status)


@require_GET
def welcome(request: HttpRequest, token: str) -> HttpResponse:
    try:
        services.invitation_check(token=token)
    except services.InvitationRefused as refused:
        return _invitation_refused(request, refused.reason)
    # Only for a link that works: a made-up link from elsewhere must not sign anyone out.
    if request.user.is_authenticated:
        logout(request)  # a shared device: never mix someone else's session in
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
        try:
            services.invitation_accept(
                token=token,
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except services.InvitationRefused as refused:
            return _invitation_refused(request, refused.reason)
        except ValidationError as error:
            form.add_error("password1", error)  # the password rules, as a list
        else:
            # The token stays in the session: a double click is answered as the first.
            return redirect("clients:welcome_sent")
    # The last day on the client's own calendar, as the email says it.
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


@require_GET
def welcome_sent(request: HttpRequest) -> HttpResponse:
    """The same page for every address: it says nothing of who has an account here."""
    return render(request, "clients/welcome_sent.html")


@require_GET
def welcome_finish(request: HttpRequest, token: str) -> HttpResponse:
    try:
        services.invitation_finish_check(token=token)
    except services.InvitationRefused as refused:
        return _invitation_refused(request, refused.reason)
    if request.user.is_authenticated:
        logout(request)  # only for a link that works, as in welcome
    request.session[FINISH_KEY] = token
    return redirect("clients:welcome_finish_confirm")


@require_http_methods(["GET", "POST"])
def welcome_finish_confirm(request: HttpRequest) -> HttpResponse:
    token = request.session.get(FINISH_KEY)
    if not token:
        return _invitation_refused(request, services.InvitationRefused.UNKNOWN)
    try:
        if request.method == "POST":
            user = services.invitation_finish(token=token)
        else:
            services.invitation_finish_check(token=token)
    except services.InvitationRefused as refused:
        return _invitation_refused(request, refused.reason)
    if request.method == "GET":
        return render(request, "clients/welcome_finish.html")
    request.session.pop(FINISH_KEY, None)
    sign_in_user(request, user)
    messages.success(request, _("Welcome. Your notebook is ready."))
    response = redirect("homework:dashboard")
    lockout.device_cookie_set(response, request=request, user=user)
    return response
