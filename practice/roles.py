"""Only a manager may: the one guard, asked alike by every layer."""

from typing import TypeGuard

from django.core.exceptions import PermissionDenied
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from practice.models import User


def is_acting_manager(user: object) -> TypeGuard[User]:
    return isinstance(user, User) and user.is_active and user.is_manager


def is_acting_staff(user: object) -> TypeGuard[User]:
    return isinstance(user, User) and user.is_active and (user.is_therapist or user.is_manager)


def require_manager(user: object, *, refusal: str | Promise | None = None) -> User:
    if not is_acting_manager(user):
        raise PermissionDenied(refusal or _("Only the practice manager can do this."))
    return user
