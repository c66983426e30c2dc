"""Typed views of a request once we know who is asking."""

from django.http import HttpRequest

from practice.models import User


class AuthedRequest(HttpRequest):
    """A request whose user is signed in (after ``client_required``, or in the admin)."""

    user: User


def acting_user(request: HttpRequest) -> User:
    """The signed-in user behind an admin or portal request."""
    user = request.user
    if not isinstance(user, User):
        raise TypeError("This request has no signed-in user.")
    return user
