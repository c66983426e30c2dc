"""Who may call a route at all; which rows they reach is the selectors' business."""

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from practice.models import User
from practice.roles import is_acting_manager, is_acting_staff


class IsPracticeStaff(BasePermission):
    message = _("Only therapists and practice managers can do this.")

    def has_permission(self, request: Request, view: APIView) -> bool:
        return is_acting_staff(request.user)


class IsPracticeManager(BasePermission):
    message = _("Only the practice manager can do this.")

    def has_permission(self, request: Request, view: APIView) -> bool:
        return is_acting_manager(request.user)


def staff_user(request: Request) -> User:
    user = request.user
    assert isinstance(user, User)
    return user
