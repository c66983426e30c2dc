"""Signing in by password, and the signed-in person read with what every page needs."""

from typing import Any

from django.contrib.auth.backends import ModelBackend

from practice.models import User


class PersonBackend(ModelBackend):
    """The client record comes in the same query: its language is read on every page."""

    def get_user(self, user_id: Any) -> User | None:
        user = User.objects.select_related("client_profile").filter(pk=user_id).first()
        return user if user is not None and self.user_can_authenticate(user) else None
