"""A signed-in person's account: password, sessions on every device, the exit note."""

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from knox.models import AuthToken

from clients import lockout
from clients.services.discreet_email import EmailNotSent, send_discreet_email
from practice.models import User, new_session_salt


@transaction.atomic
def user_log_out_everywhere(*, user: User) -> User:
    """End every session of ``user`` on every device (their auth hash
    changes), and every API token they hold."""
    user.session_salt = new_session_salt()
    user.save(update_fields=["session_salt"])
    api_tokens_revoke_all(user=user)
    return user


def api_tokens_revoke_all(*, user: User) -> int:
    """Revoke every API token of ``user`` (a token is a signed-in device too);
    returns how many."""
    return int(AuthToken.objects.filter(user=user).delete()[0])


class _CurrentPasswordNotRight(Exception):
    """Raised inside the change's transaction, so that the failure is counted after it."""


def current_password_not_right() -> ValidationError:
    """The one answer to a wrong current password, and to any while checks pause."""
    return ValidationError(
        {"old_password": [_("That password is not right."), str(lockout.NOT_RIGHT_WAY_BACK)]}
    )


def user_change_password(
    *, request: HttpRequest, user: User, old_password: str, new_password: str
) -> User:
    """Change a signed-in person's password, asking for the current one.

    Every session of ``user`` ends, on every device: the session auth hash
    covers the password (User._get_session_auth_hash). A reset link already
    emailed stops working too (its token covers the password). The caller
    keeps its own session with ``update_session_auth_hash``.

    A wrong current password counts as a failed sign-in (clients.lockout),
    from ``request``'s address: someone at a borrowed, signed-in screen
    cannot guess it without end. While checks pause, even the right one is
    refused, in the same words and time as a wrong one.
    """
    if lockout.password_check_refused(request=request, user=user):
        lockout.spend_a_password_check(old_password)
        lockout.password_check_failed(request=request, user=user)
        raise current_password_not_right()
    try:
        return _change_password(user=user, old_password=old_password, new_password=new_password)
    except _CurrentPasswordNotRight:
        lockout.password_check_failed(request=request, user=user)
        raise current_password_not_right() from None


@transaction.atomic
def _change_password(*, user: User, old_password: str, new_password: str) -> User:
    """The row is locked, so two changes sent at once (a double click) are
    taken one after the other: the second finds the password changed and is
    refused, as a replay with the old password always is. Its page is the
    one the browser shows, so it says the change is done rather than "not
    right", which would send the person back to a password that no longer
    works. Checked here even when a form has checked it: this is the one
    way a password changes.
    """
    user = User.objects.select_for_update().get(pk=user.pk)
    if not user.check_password(old_password):
        if user.check_password(new_password):
            raise ValidationError(
                {
                    "old_password": [
                        _(
                            "That is already your password: the change is done. "
                            "Use your new password from now on."
                        )
                    ]
                }
            )
        raise _CurrentPasswordNotRight
    try:
        validate_password(new_password, user=user)
    except ValidationError as error:
        raise ValidationError({"new_password2": error.error_list}) from error
    user.set_password(new_password)
    user.save(update_fields=["password"])
    api_tokens_revoke_all(user=user)  # as every other session ends
    return user


@transaction.atomic
def user_dismiss_exit_note(*, user: User) -> User:
    if user.exit_note_dismissed_at is None:
        user.exit_note_dismissed_at = timezone.now()
        user.save(update_fields=["exit_note_dismissed_at"])
    return user


def user_send_password_reset(*, user_id: int) -> bool:
    """Email a password-reset link, discreetly. The token is made here, at send
    time, so it never waits in the task queue. False when there is no one to
    send it to; EmailNotSent when the mail server failed."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.has_usable_password():
        return False
    path = reverse(
        "clients:password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    if not send_discreet_email(
        to=user.email,
        template="clients/email/password-reset",
        context={"url": settings.SITE_URL + path},
    ):
        raise EmailNotSent(user_id)
    return True
