"""Two-step sign-in: an authenticator app, never SMS or email codes."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients import lockout
from practice.models import User


class TwoStepAlreadyOn(Exception):
    """Setting up another app while two-step sign-in is on: it must be turned off first."""


@transaction.atomic
def totp_device_start(*, user: User) -> TOTPDevice:
    """A new, unconfirmed authenticator for ``user`` (replacing an unfinished one).

    Refused while two-step sign-in is on: otherwise anyone at an unlocked,
    signed-in screen could swap the client's app for their own without the
    password. Turning it off asks for the password; then it can be set up again.
    """
    if TOTPDevice.objects.filter(user=user, confirmed=True).exists():
        raise TwoStepAlreadyOn
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name="authenticator", confirmed=False)


@transaction.atomic
def totp_device_confirm(*, user: User, token: str, device_id: int | None = None) -> TOTPDevice:
    """Turn two-step sign-in on, once the app shows a code that matches.

    ``device_id`` is the picture the page showed. Set-up started again in
    another tab replaces it, and a code from the app that scanned the old
    picture can never match the new one: that is said, not "try the newest".
    """
    device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False).last()
    if device is None or TOTPDevice.objects.filter(user=user, confirmed=True).exists():
        raise ValidationError({"token": [_("Start again: scan the new picture first.")]})
    if device_id is not None and device.pk != device_id:
        raise ValidationError(
            {
                "token": [
                    _(
                        "That picture was replaced by a newer one, from another tab or window. "
                        "Scan the picture on this page now (you can delete the earlier one from "
                        "your app), then type the code it shows."
                    )
                ]
            }
        )
    if not device.verify_token(_digits(token)):
        raise ValidationError(
            {
                "token": [
                    _("That code did not match. Codes change every 30 seconds: try the newest.")
                ]
            }
        )
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    return device


@transaction.atomic
def totp_verify(*, user: User, token: str) -> bool:
    """Check a sign-in code. Throttled by django-otp after wrong guesses."""
    device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
    if device is None:
        return False
    allowed, _details = device.verify_is_allowed()
    return bool(allowed) and bool(device.verify_token(_digits(token)))


def totp_device_remove(*, request: HttpRequest, user: User, password: str) -> None:
    """Turn two-step sign-in off; the password is asked again so a borrowed,
    unlocked screen cannot do it. A wrong one counts as a failed sign-in
    (clients.lockout); while checks pause, the right one is refused too, in
    the same words and time."""
    if lockout.password_check_refused(request=request, user=user):
        lockout.spend_a_password_check(password)
    elif user.check_password(password):
        TOTPDevice.objects.filter(user=user).delete()
        return
    lockout.password_check_failed(request=request, user=user)
    raise ValidationError(
        {"password": [_("That password is not right."), str(lockout.NOT_RIGHT_WAY_BACK)]}
    )


def _digits(token: str) -> str:
    return "".join(ch for ch in token if ch.isdigit())[:8]
