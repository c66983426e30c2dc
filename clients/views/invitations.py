"""The invitation's link: check it, then set a password and sign in."""

from django.contrib import messages
from django.contrib.auth import logout
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from clients import services
from clients.forms import SetPasswordForm
from clients.views.sign_in import sign_in_user
from practice.models import User
from practice.refusals import form_refused

# The invitation token moves from the link into the session, so the address
# bar (and history) holds a plain /welcome/ while the client sets a password.
INVITATION_KEY = "invitation"


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
            sign_in_user(request, user)
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
