"""Reads of contact profiles, scoped by who asks. The reminders' scan reads
``profiles_with_a_safe_channel`` (system use)."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import timezone

from clients.contact import hours
from clients.contact.models import ContactChange, ContactProfile
from clients.models import Client
from clients.selectors import client_for_portal_user, clients_for_user
from practice.models import User
from practice.selectors import practice_settings

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Changes shown beside the profile, on either side: the latest few.
CHANGES_SHOWN = 5


def contact_profile_of(client: Client) -> ContactProfile:
    """The client's profile, or an unsaved default with every channel off."""
    try:
        return client.contact_profile
    except ContactProfile.DoesNotExist:
        return ContactProfile(client=client)


def client_contact_for_portal(*, user: User, include_archived: bool = False) -> Client | None:
    """The client signed in as ``user``, with their profile joined."""
    client = client_for_portal_user(user=user, include_archived=include_archived)
    if client is None:
        return None
    return Client.objects.select_related("contact_profile").get(pk=client.pk)


def client_contact_for_staff(*, user: User, client_id: int) -> Client | None:
    """A client ``user`` may see, with their profile joined; None for anyone else's."""
    return (
        clients_for_user(user=user)
        .select_related("contact_profile", "therapist")
        .filter(pk=client_id)
        .first()
    )


def contact_changes(*, client: Client, limit: int = CHANGES_SHOWN) -> list[ContactChange]:
    """The latest changes to ``client``'s profile, newest first, with who made them."""
    return list(
        client.contact_changes.select_related("actor", "client").order_by("-at", "-pk")[:limit]
    )


@dataclass(frozen=True)
class Recheck:
    """When the profile was last confirmed, and whether it is time to go through it again."""

    checked_on: dt.date | None
    by_client: bool  # confirmed by the client's own save in the portal
    weeks: int
    due: bool


def contact_recheck(profile: ContactProfile, *, today: dt.date | None = None) -> Recheck:
    weeks = practice_settings().contact_recheck_weeks
    today = today or timezone.localdate()
    return Recheck(
        checked_on=profile.checked_on,
        by_client=profile.checked_by == ContactProfile.CheckedBy.CLIENT,
        weeks=weeks,
        due=profile.recheck_due(today=today, weeks=weeks),
    )


def profiles_with_a_safe_channel() -> QuerySet[ContactProfile]:
    """Profiles naming at least one safe channel and the hours it may be used, of active clients."""
    return (
        ContactProfile.objects.filter(client__status=Client.Status.ACTIVE)
        .exclude(email_is_safe=False, text_is_safe=False)
        .exclude(safe_hours=hours.no_hours_chosen())
        .select_related("client")
    )


def contact_export(profile: ContactProfile) -> dict[str, object]:
    """The profile as the client's own export holds it (their own address and number)."""
    return {
        "email_is_safe": profile.email_is_safe,
        "email": profile.email,
        "text_messages_are_safe": profile.text_is_safe,
        "mobile_number": str(profile.phone or ""),
        "safe_hours": (
            dict(zip(WEEKDAYS, profile.safe_hours, strict=True)) if profile.hours_chosen else None
        ),
        "at_most_one_message_every_days": profile.days_between,
        "daily_reminder_at": profile.recurring_reminder_at.strftime("%H:%M"),
        "last_checked_on": profile.checked_on.isoformat() if profile.checked_on else None,
        "last_checked_by": profile.checked_by or None,
    }
