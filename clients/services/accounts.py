"""A signed-in person's account: password, sessions on every device, the exit note."""

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from knox.models import AuthToken

from clients import lockout
from clients.languages import person_language
from clients.services.discreet_email import EmailNotSent, send_discreet_email
from practice.languages import is_offered
from practice.models import User, new_session_salt


@transaction.atomic
def user_log_out_everywhere(*, user: User) -> User:
    user.session_salt = new_session_salt()
    user.save(update_fields=["session_salt"])
    api_tokens_revoke_all(user=user)
    return user


def api_tokens_revoke_all(*, user: User) -> int:
    return int(AuthToken.objects.filter(user=user).delete()[0])


class _CurrentPasswordNotRight(Exception):
    """Raised inside the change's transaction, so that the failure is counted after it."""


def current_password_not_right() -> ValidationError:
    return ValidationError(
        {"old_password": [_("That password is not right."), str(lockout.NOT_RIGHT_WAY_BACK)]}
    )


def user_change_password(
    *, request: HttpRequest, user: User, old_password: str, new_password: str
) -> User:
    """A wrong current password counts as a failed sign-in: a borrowed screen cannot guess on."""
    if lockout.password_check_refused(request=request, user=user):
        lockout.run_password_hasher(old_password)
        lockout.password_check_failed(request=request, user=user)
        raise current_password_not_right()
    try:
        return _change_password(user=user, old_password=old_password, new_password=new_password)
    except _CurrentPasswordNotRight:
        lockout.password_check_failed(request=request, user=user)
        raise current_password_not_right() from None


@transaction.atomic
def _change_password(*, user: User, old_password: str, new_password: str) -> User:
    """Locked, so a double click's second post is told "done", not sent to a dead password."""
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
def staff_choose_language(*, actor: User, language: str) -> User:
    """Empty is the practice's language; a client's language is on their client record."""
    if actor.is_client:
        raise PermissionDenied(_("A client chooses their language in the portal's settings."))
    if language and not is_offered(language):
        raise ValidationError({"language": _("Choose one of the languages offered here.")})
    actor.language = language
    actor.save(update_fields=["language"])
    return actor


@transaction.atomic
def user_dismiss_exit_note(*, user: User) -> User:
    if user.exit_note_dismissed_at is None:
        user.exit_note_dismissed_at = timezone.now()
        user.save(update_fields=["exit_note_dismissed_at"])
    return user


def user_send_password_reset(*, user_id: int) -> bool:
    """The token is made at send time, so it never waits in the task queue."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.has_usable_password():
        return False
    # Each to their own sign-in: staff to the admin's, clients to the portal's.
    path = reverse(
        "clients:password_reset_confirm" if user.is_client else "admin:password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    if not send_discreet_email(
        to=user.email,
        template="clients/email/password-reset",
        context={"url": settings.SITE_URL + path},
        language=person_language(user),
    ):
        raise EmailNotSent(user_id)
    return True
