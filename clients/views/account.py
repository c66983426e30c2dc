"""The client's account page and what it holds."""

import time
from base64 import b32encode
from typing import Any

from django.contrib import messages
from django.contrib.auth import logout, update_session_auth_hash
from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)

from clients import selectors, services
from clients.decorators import client_required
from clients.forms import ChangePasswordForm, CodeForm, LanguageForm, PasswordConfirmForm
from clients.middleware import LAST_SEEN
from clients.two_step import qr_svg, setup_uri
from clients.views.sign_in import CLEAR_SITE_DATA
from practice.languages import in_language
from practice.refusals import form_refused
from practice.requests import AuthedRequest, parse_id


@require_safe
@client_required
def account(request: AuthedRequest) -> HttpResponse:
    return account_page(request)


@require_GET
@client_required(allow_archived=True)
def archived_page(request: AuthedRequest) -> HttpResponse:
    """The one portal page left to an archived client: what they wrote is theirs to download."""
    if selectors.client_for_portal_user(user=request.user) is not None:
        return redirect("homework:dashboard")  # restored: the whole portal is open again
    return account_page(request)


def account_page(
    request: AuthedRequest,
    *,
    remove_form: PasswordConfirmForm | None = None,
    codes_form: CodeForm | None = None,
    password_form: ChangePasswordForm | None = None,
    language_form: LanguageForm | None = None,
    extra_context: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    client = selectors.client_for_portal_user(user=request.user)
    closed = client is None
    return render(
        request,
        "clients/closed.html" if closed else "clients/account.html",
        {
            "two_step": selectors.has_two_step(user=request.user),
            "recovery_codes_left": services.recovery_codes_left(user=request.user),
            "remove_form": remove_form or PasswordConfirmForm(),
            "codes_form": codes_form or CodeForm(prefix="codes"),
            "password_form": password_form or ChangePasswordForm(request.user),
            "language_form": language_form
            or LanguageForm(initial={"language": request.LANGUAGE_CODE}),
            **(extra_context or {}),
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
@client_required
def two_step_setup(request: AuthedRequest) -> HttpResponse:
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
                _device, codes = services.two_step_turn_on(
                    user=request.user,
                    token=form.cleaned_data["token"],
                    device_id=parse_id(request.POST.get("device")),
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                # Shown on this answer only, never again: nothing keeps them to show.
                return render(request, "clients/recovery_codes.html", {"codes": codes})
    if device is None:
        return redirect("clients:account")
    uri = setup_uri(device)
    return form_refused(
        request,
        render(
            request,
            "clients/two_step_setup.html",
            {
                "form": form,
                "qr": qr_svg(uri),
                "setup_link": uri,
                "secret": device_secret(device),
                "device": device,
            },
            status=400 if form.errors else 200,
        ),
    )


def device_secret(device: Any) -> str:
    raw = b32encode(device.bin_key).decode()
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


@require_POST
@client_required
def two_step_remove(request: AuthedRequest) -> HttpResponse:
    form = PasswordConfirmForm(request.POST)
    if form.is_valid():
        try:
            services.totp_device_remove(
                request=request, user=request.user, password=form.cleaned_data["password"]
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Two-step sign-in is off."))
            return redirect("clients:account")
    return form_refused(request, account_page(request, remove_form=form, status=400))


@require_POST
@client_required
def recovery_codes_new(request: AuthedRequest) -> HttpResponse:
    form = CodeForm(request.POST, prefix="codes")
    if form.is_valid():
        try:
            codes = services.recovery_codes_renew(
                user=request.user, code=form.cleaned_data["token"]
            )
        except ValidationError as error:
            form.add_error("token", error.message_dict.get("code", error.messages))
        else:
            return render(request, "clients/recovery_codes.html", {"codes": codes, "new": True})
    return form_refused(request, account_page(request, codes_form=form, status=400))


@require_POST
@client_required(allow_archived=True)
def change_password(request: AuthedRequest) -> HttpResponse:
    """No email needed: it may be read by someone else."""
    form = ChangePasswordForm(request.user, request.POST)
    if form.is_valid():
        try:
            user = services.user_change_password(
                request=request,
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
@client_required
def change_language(request: AuthedRequest) -> HttpResponse:
    form = LanguageForm(request.POST)
    if form.is_valid():
        try:
            client = services.client_choose_language(
                actor=request.user, language=form.cleaned_data["language"]
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            with in_language(client.language):
                messages.success(
                    request, _("Your portal, emails and texts are now in this language.")
                )
            return redirect("clients:account")
    return form_refused(request, account_page(request, language_form=form, status=400))


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
    """For a page open from before a sign-in, so autosave carries on instead of losing words."""
    return JsonResponse({"token": get_token(request)})


@require_POST
@client_required(allow_archived=True)
def dismiss_exit_note(request: AuthedRequest) -> HttpResponse:
    services.user_dismiss_exit_note(user=request.user)
    if request.headers.get("Accept", "").startswith("application/json"):
        return HttpResponse(status=204)
    return redirect("homework:dashboard")
