"""Only a manager may: the one guard, asked alike by services, selectors,
admin pages and the API (practice.api.permissions.IsPracticeManager).

A role alone is not enough: a closed account keeps its role, so every
manager-only path asks for an active account too. tests/test_one_home.py
fails on a manager check written anywhere else.
"""

from typing import TypeGuard

from django.core.exceptions import PermissionDenied
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from practice.models import User


def is_acting_manager(user: object) -> TypeGuard[User]:
    """Whether ``user`` may act as the practice's manager now."""
    return isinstance(user, User) and user.is_active and user.is_manager


def is_acting_staff(user: object) -> TypeGuard[User]:
    """Whether ``user`` may act as staff now: a therapist, or the manager."""
    return isinstance(user, User) and user.is_active and (user.is_therapist or user.is_manager)


def require_manager(user: object, *, refusal: str | Promise | None = None) -> User:
    """``user``, if they may act as the manager; otherwise PermissionDenied
    with ``refusal`` (what only the manager does, in the caller's words)."""
    if not is_acting_manager(user):
        raise PermissionDenied(refusal or _("Only the practice manager can do this."))
    return user
