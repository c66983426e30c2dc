"""Two-step sign-in: an authenticator app, never SMS or email codes, with recovery codes."""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients import lockout
from clients.models import Client
from clients.selectors import clients_for_user
from clients.services.accounts import user_log_out_everywhere
from clients.services.staff_log import staff_change_record
from practice.models import User

RECOVERY_CODES = 10
RECOVERY_DEVICE_NAME = "recovery codes"


@dataclass(frozen=True)
class SecondFactorResult:
    device: Device | None
    refusal: str = ""


class TwoStepAlreadyOn(Exception):
    """Another app while two-step sign-in is on: it must be turned off first."""


@transaction.atomic
def totp_device_start(*, user: User) -> TOTPDevice:
    """Refused while on: anyone at a signed-in screen could swap in their own app."""
    if TOTPDevice.objects.filter(user=user, confirmed=True).exists():
        raise TwoStepAlreadyOn
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name="authenticator", confirmed=False)


@transaction.atomic
def totp_device_confirm(*, user: User, token: str, device_id: int | None = None) -> TOTPDevice:
    """A code from a picture replaced in another tab can never match: that is said."""
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
def two_step_turn_on(
    *, user: User, token: str, device_id: int | None
) -> tuple[TOTPDevice, list[str]]:
    """Together: two-step sign-in is never on without a way back in."""
    device = totp_device_confirm(user=user, token=token, device_id=device_id)
    return device, recovery_codes_issue(user=user)


@transaction.atomic
def recovery_codes_issue(*, user: User) -> list[str]:
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_DEVICE_NAME, confirmed=True)
    codes: list[str] = []
    while len(codes) < RECOVERY_CODES:
        code = StaticToken.random_token()
        if code not in codes:
            codes.append(code)
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


def recovery_code_typed(code: str) -> str:
    return "".join(code.split()).replace("-", "").lower()


@transaction.atomic
def recovery_code_verify(*, user: User, code: str) -> SecondFactorResult:
    """Commits even when refused: django-otp's count of wrong guesses must stay counted."""
    recovery = StaticDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
    if recovery is not None:
        allowed, _details = recovery.verify_is_allowed()
        if not allowed:
            return SecondFactorResult(None, _too_many_tries())
        if recovery.verify_token(recovery_code_typed(code)):
            return SecondFactorResult(recovery)
    return SecondFactorResult(
        None,
        _(
            "That recovery code did not work: it is wrong, or was already used (each "
            "works once). Try another from your list."
        ),
    )


def _too_many_tries() -> str:
    return _("Too many wrong codes in a row. Wait a minute, then try again.")


def recovery_codes_renew(*, user: User, code: str) -> list[str]:
    """Only the app's code: an old list found in a drawer must not buy a new one."""
    codes, refusal = _renew(user=user, typed="".join(code.split()))
    if refusal:
        raise ValidationError({"code": [refusal]})
    return codes


@transaction.atomic
def _renew(*, user: User, typed: str) -> tuple[list[str], str]:
    totp = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
    if totp is None:
        return [], _("Set up your authenticator app first.")
    allowed, _details = totp.verify_is_allowed()
    if not allowed:
        return [], _too_many_tries()
    if not (typed.isdigit() and totp.verify_token(typed)):
        return [], _(
            "That code did not work: it is wrong, too old, or was already used. "
            "Type the 6-digit code your app shows now."
        )
    return recovery_codes_issue(user=user), ""


def recovery_codes_left(*, user: User) -> int:
    return int(StaticToken.objects.filter(device__user=user, device__confirmed=True).count())


@transaction.atomic
def totp_verify(*, user: User, token: str) -> bool:
    device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
    if device is None:
        return False
    allowed, _details = device.verify_is_allowed()
    return bool(allowed) and bool(device.verify_token(_digits(token)))


def totp_device_remove(*, request: HttpRequest, user: User, password: str) -> None:
    """The password is asked again so a borrowed, unlocked screen cannot do it."""
    if lockout.password_check_refused(request=request, user=user):
        lockout.run_password_hasher(password)
    elif user.check_password(password):
        _two_step_remove_devices(user=user)
        return
    lockout.password_check_failed(request=request, user=user)
    raise ValidationError(
        {"password": [_("That password is not right."), str(lockout.NOT_RIGHT_WAY_BACK)]}
    )


@transaction.atomic
def _two_step_remove_devices(*, user: User) -> None:
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()


@transaction.atomic
def client_two_step_reset(*, actor: User, client_id: int) -> Client:
    """Sessions end everywhere too: a taken phone may still be signed in."""
    client = clients_for_user(user=actor).filter(pk=client_id).first()
    if client is None:
        raise PermissionDenied(_("This is not one of your clients."))
    # Locked: of two resets at once, the second finds nothing left to turn off.
    account = None
    if client.portal_user_id is not None:
        account = User.objects.select_for_update().filter(pk=client.portal_user_id).first()
    if account is None or not TOTPDevice.objects.filter(user=account, confirmed=True).exists():
        raise ValidationError(
            _("Two-step sign-in is not on for %(client)s: there is nothing to turn off.")
            % {"client": client.display_name}
        )
    _two_step_remove_devices(user=account)
    user_log_out_everywhere(user=account)
    account.two_step_reset_at = timezone.now()
    account.save(update_fields=["two_step_reset_at"])
    staff_change_record(
        actor=actor,
        target=client,
        message=_(
            "Two-step sign-in turned off (lost phone): they sign in with their password "
            "and are asked to set it up again."
        ),
    )
    return client


@transaction.atomic
def two_step_reset_notice_take(*, user: User) -> bool:
    return bool(
        User.objects.filter(pk=user.pk, two_step_reset_at__isnull=False).update(
            two_step_reset_at=None
        )
    )


def _digits(token: str) -> str:
    return "".join(ch for ch in token if ch.isdigit())[:8]
