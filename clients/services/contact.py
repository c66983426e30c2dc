"""Writes to a client's contact profile, each logged (never the address) for the other side."""

import datetime as dt
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clients.contact.models import ContactChange, ContactProfile
from clients.models import Client, validate_timezone
from clients.selectors import clients_for_user
from practice.models import User
from practice.roles import is_acting_staff

# Not even that it is a client's: that would tell them who else comes here.
CLIENT_TAKEN = {
    "email": gettext_lazy(
        "This address cannot be used for your reminders. Please use another one, or ask "
        "your therapist."
    ),
    "phone": gettext_lazy(
        "This number cannot be used for your reminders. Please use another one, or ask "
        "your therapist."
    ),
}
STAFF_TAKEN = {
    "email": gettext_lazy(
        "This address is on another client's contact profile. Messages never go to an "
        "address another client gave: use one only this client reads."
    ),
    "phone": gettext_lazy(
        "This number is on another client's contact profile. Messages never go to a "
        "number another client gave: use one only this client reads."
    ),
}


def _as_staff(actor: User, client: Client) -> bool:
    if not (actor.is_authenticated and actor.is_active):
        raise PermissionDenied(_("This is not a profile you may change."))
    if is_acting_staff(actor):
        if clients_for_user(user=actor).filter(pk=client.pk).exists():
            return True
    elif client.portal_user_id == actor.pk and client.status != Client.Status.ERASED:
        return False
    raise PermissionDenied(_("This is not a profile you may change."))


def _locked(actor: User, client: Client, *, as_staff: bool) -> tuple[Client, ContactProfile]:
    """Asked again under the lock: an erasure or move this save queued behind changed it."""
    rows = clients_for_user(user=actor) if as_staff else Client.objects.filter(portal_user=actor)
    locked = (
        rows.exclude(status=Client.Status.ERASED).select_for_update().filter(pk=client.pk).first()
    )
    if locked is None:
        raise PermissionDenied(_("This is not a profile you may change."))
    profile = ContactProfile.objects.filter(client=locked).first()
    return locked, profile or ContactProfile(client=locked)


def _changed_parts(before: dict[str, Any], after: ContactProfile) -> list[str]:
    parts = []
    for channel, field in (("email", "email_is_safe"), ("text", "text_is_safe")):
        if before[field] != getattr(after, field):
            parts.append(f"{channel}_{'on' if getattr(after, field) else 'off'}")
    for field in ("email", "phone", "safe_hours", "days_between", "recurring_reminder_at"):
        if before[field] != getattr(after, field):
            parts.append(field)
    return parts


def _snapshot(profile: ContactProfile) -> dict[str, Any]:
    return {
        name: getattr(profile, name)
        for name in (
            "email_is_safe",
            "text_is_safe",
            "email",
            "phone",
            "safe_hours",
            "days_between",
            "recurring_reminder_at",
        )
    }


def _refuse_taken(profile: ContactProfile, *, as_staff: bool) -> None:
    words = STAFF_TAKEN if as_staff else CLIENT_TAKEN
    others = ContactProfile.objects.exclude(client_id=profile.client_id)
    errors = {}
    if profile.email and others.filter(email__iexact=profile.email).exists():
        errors["email"] = words["email"]
    if profile.phone and others.filter(phone=str(profile.phone)).exists():
        errors["phone"] = words["phone"]
    if errors:
        raise ValidationError(errors)


# PostgreSQL names the constraint, SQLite the table and column.
TAKEN_SIGNS = {
    "email": ("contact_email_one_client", "clients_contactprofile.email"),
    "phone": ("contact_phone_one_client", "clients_contactprofile.phone"),
}


def _save_or_refuse_taken(profile: ContactProfile, *, as_staff: bool) -> None:
    """Two saves at once: the other may commit after _refuse_taken looked."""
    try:
        with transaction.atomic():
            profile.save()
    except IntegrityError as clash:
        words = STAFF_TAKEN if as_staff else CLIENT_TAKEN
        fields = [f for f, signs in TAKEN_SIGNS.items() if any(s in str(clash) for s in signs)]
        if not fields:
            raise
        raise ValidationError({field: words[field] for field in fields}) from None


def _record_change(
    client: Client, actor: User, *, as_staff: bool, parts: list[str], at: dt.datetime, **what: bool
) -> None:
    ContactChange.objects.create(
        client=client,
        actor=actor,
        by=ContactChange.By.STAFF if as_staff else ContactChange.By.CLIENT,
        parts=parts,
        at=at,
        **what,
    )


@transaction.atomic
def contact_profile_update(
    *,
    actor: User,
    client: Client,
    email_is_safe: bool,
    email: str,
    text_is_safe: bool,
    phone: Any,
    safe_hours: list[list[list[str]]],
    days_between: int,
    recurring_reminder_at: dt.time,
    time_zone: str | None = None,
) -> ContactProfile:
    """Even a save that changes nothing is their word that it is right: it confirms."""
    as_staff = _as_staff(actor, client)
    client, profile = _locked(actor, client, as_staff=as_staff)
    before = _snapshot(profile)
    profile.email_is_safe, profile.text_is_safe = email_is_safe, text_is_safe
    profile.email = email.strip().lower()
    profile.phone = phone or ""
    profile.safe_hours = safe_hours
    profile.days_between = days_between
    profile.recurring_reminder_at = recurring_reminder_at
    _refuse_taken(profile, as_staff=as_staff)
    profile.full_clean(exclude=["client"], validate_unique=False, validate_constraints=True)
    parts = _changed_parts(before, profile)
    if time_zone is not None and time_zone != client.timezone:
        try:
            validate_timezone(time_zone)
        except ValidationError as refused:
            raise ValidationError({"time_zone": refused.messages}) from None
        client.timezone = time_zone
        client.save(update_fields=["timezone"])
        parts.append("timezone")
    now = timezone.now()
    if parts:
        profile.changed_at = now
    profile.checked_on = timezone.localdate(now)
    profile.checked_by = (
        ContactProfile.CheckedBy.STAFF if as_staff else ContactProfile.CheckedBy.CLIENT
    )
    _save_or_refuse_taken(profile, as_staff=as_staff)
    _record_change(client, actor, as_staff=as_staff, parts=parts, at=now, checked=True)
    return profile


@transaction.atomic
def contact_profile_turn_off(*, actor: User, client: Client) -> ContactProfile:
    """Open to an archived client too: saying stop always works."""
    as_staff = _as_staff(actor, client)
    client, profile = _locked(actor, client, as_staff=as_staff)
    parts = [f"{name}_off" for name in ("email", "text") if getattr(profile, f"{name}_is_safe")]
    if not parts:
        return profile
    profile.email_is_safe = profile.text_is_safe = False
    now = timezone.now()
    profile.changed_at = now
    profile.save(update_fields=["email_is_safe", "text_is_safe", "changed_at"])
    _record_change(client, actor, as_staff=as_staff, parts=parts, at=now, turned_off=True)
    return profile


def contact_profile_erase(*, client: Client) -> None:
    ContactChange.objects.filter(client=client).delete()
    ContactProfile.objects.filter(client=client).delete()
