"""The staff's second factor: an authenticator app, with single-use recovery codes.

Therapists and managers cannot open the admin without it (practice.admin_site).
The app's six digits are checked by django-otp, which refuses a code from a
step already used (``last_t``) and slows down wrong guesses; a recovery code
(django-otp's static tokens) is deleted as it is used, so each works once.
"""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients.services.two_step import totp_device_confirm
from practice.models import User

RECOVERY_CODES = 10
RECOVERY_DEVICE_NAME = "recovery codes"


@dataclass(frozen=True)
class SecondFactorResult:
    """The device that took the code, or why none did (worded for the person)."""

    device: Device | None
    refusal: str = ""


def has_staff_second_factor(*, user: User) -> bool:
    """Whether ``user`` has an authenticator app set up (recovery codes come with it)."""
    return bool(TOTPDevice.objects.filter(user=user, confirmed=True).exists())


@transaction.atomic
def recovery_codes_issue(*, user: User) -> list[str]:
    """New recovery codes for ``user``, replacing every earlier one.

    They are returned once, to be shown once: only the codes themselves are
    kept, and each is deleted as it is used.
    """
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_DEVICE_NAME, confirmed=True)
    codes: list[str] = []
    while len(codes) < RECOVERY_CODES:
        code = StaticToken.random_token()
        if code not in codes:
            codes.append(code)
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


@transaction.atomic
def staff_second_factor_enrol(
    *, user: User, token: str, device_id: int | None
) -> tuple[TOTPDevice, list[str]]:
    """Confirm the app being set up with its first code and issue recovery codes, together.

    ValidationError (on "token") when the code does not match or the picture
    was replaced; then nothing changes.
    """
    device = totp_device_confirm(user=user, token=token, device_id=device_id)
    return device, recovery_codes_issue(user=user)


@transaction.atomic
def staff_second_factor_verify(*, user: User, code: str) -> SecondFactorResult:
    """Check a staff member's second factor: six digits from the app, or a recovery code.

    The device rows are locked, so two tabs sending the same code at once
    cannot both get in: the second finds the step (or the recovery code)
    already used. A refused code changes nothing but django-otp's count of
    wrong guesses, which is what slows the next try.
    """
    typed = "".join(code.split()).replace("-", "").lower()
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
    recovery = StaticDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
    if recovery is not None:
        allowed, _details = recovery.verify_is_allowed()
        if not allowed:
            return SecondFactorResult(None, _too_many_tries())
        if recovery.verify_token(typed):
            return SecondFactorResult(recovery)
    return SecondFactorResult(
        None,
        _(
            "That recovery code did not work: it is wrong, or was already used (each "
            "works once). Try another from your list, or the code your app shows."
        ),
    )


def _too_many_tries() -> str:
    return _("Too many wrong codes in a row. Wait a minute, then try the newest code.")


def recovery_codes_renew(*, user: User, code: str) -> list[str]:
    """Ten new recovery codes for a signed-in staff member, once a code from
    their app proves the phone is in their hand; the old ones stop working.

    Only the app's code: a recovery code would let someone holding the old
    list (found in a drawer) swap it for one the owner has never seen.
    ValidationError (on "code") when refused, raised once the transaction has
    committed: django-otp's count of wrong guesses must stay counted.
    """
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
