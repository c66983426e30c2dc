"""The staff's second factor: an authenticator app, with single-use recovery codes."""

from django.db import transaction
from django.utils.translation import gettext as _
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients.services.two_step import (
    RECOVERY_CODES,
    RECOVERY_DEVICE_NAME,
    SecondFactorResult,
    recovery_code_typed,
    recovery_code_verify,
    recovery_codes_issue,
    recovery_codes_renew,
    two_step_turn_on,
)
from practice.models import User

__all__ = [
    "RECOVERY_CODES",
    "RECOVERY_DEVICE_NAME",
    "SecondFactorResult",
    "has_staff_second_factor",
    "recovery_codes_issue",
    "recovery_codes_renew",
    "staff_second_factor_enrol",
    "staff_second_factor_verify",
]


def has_staff_second_factor(*, user: User) -> bool:
    return bool(TOTPDevice.objects.filter(user=user, confirmed=True).exists())


@transaction.atomic
def staff_second_factor_enrol(
    *, user: User, token: str, device_id: int | None
) -> tuple[TOTPDevice, list[str]]:
    return two_step_turn_on(user=user, token=token, device_id=device_id)


@transaction.atomic
def staff_second_factor_verify(*, user: User, code: str) -> SecondFactorResult:
    """Locked, so two tabs sending the same code at once cannot both get in."""
    typed = recovery_code_typed(code)
    if typed.isdigit():
        totp = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
        if totp is None:
            return SecondFactorResult(None, _("Set up your authenticator app first."))
        allowed, _details = totp.verify_is_allowed()
        if not allowed:
            return SecondFactorResult(None, _too_many_tries())
        if totp.verify_token(typed):
            return SecondFactorResult(totp)
        return SecondFactorResult(
            None,
            _(
                "That code did not work: it is wrong, too old, or was already used to sign in. "
                "Wait for the next code your app shows (they change every 30 seconds) and "
                "type that one."
            ),
        )
    return recovery_code_verify(user=user, code=typed)


def _too_many_tries() -> str:
    return _("Too many wrong codes in a row. Wait a minute, then try the newest code.")
