"""Who may call a route at all; which rows they reach is the selectors' business."""

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from practice.models import User


class IsPracticeStaff(BasePermission):
    """Therapists and practice managers; clients use their own routes."""

    message = _("Only therapists and practice managers can do this.")

    def has_permission(self, request: Request, view: APIView) -> bool:
        user = request.user
        return isinstance(user, User) and user.is_active and (user.is_therapist or user.is_manager)


def staff_user(request: Request) -> User:
    """The signed-in member of staff, once IsPracticeStaff has let only staff in."""
    user = request.user
    assert isinstance(user, User)  # IsPracticeStaff ran first: this only narrows the type
    return user
