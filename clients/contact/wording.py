"""The contact profile and its changes in words, for both sides' pages."""

import datetime as dt
from dataclasses import dataclass

from django.utils.translation import gettext as _

from clients.contact import hours
from clients.contact.forms import DAYS
from clients.contact.models import PARTS, ContactChange, ContactProfile
from practice.models import User


@dataclass(frozen=True)
class ChangeLine:
    at: dt.datetime
    who: str
    what: str


def _who(change: ContactChange, viewer: User | None) -> str:
    """Who made the change, to ``viewer``: the client themselves, or None for staff."""
    for_client = viewer is not None and viewer.is_client
    if change.by == ContactChange.By.CLIENT:
        return _("You") if for_client else _("The client")
    name = change.actor.get_full_name() if change.actor is not None else ""
    if for_client and change.actor_id == change.client.therapist_id:
        return _("%(name)s, your therapist") % {"name": name}
    if for_client:
        return _("%(name)s, at the practice") % {"name": name} if name else _("The practice")
    return name or _("Staff")


def _what(change: ContactChange) -> str:
    if change.turned_off:
        return _("turned every message off")
    parts = ", ".join(str(PARTS.get(part, part)) for part in change.parts)
    if change.checked and not parts:
        return _("went through them together; nothing changed")
    if change.checked:
        return _("went through them together and changed: %(parts)s") % {"parts": parts}
    return _("changed: %(parts)s") % {"parts": parts}


def change_lines(changes: list[ContactChange], *, viewer: User | None) -> list[ChangeLine]:
    return [ChangeLine(at=c.at, who=_who(c, viewer), what=_what(c)) for c in changes]


def channels_in_words(profile: ContactProfile) -> str:
    channels = profile.safe_channels
    if not channels:
        return _("None: nothing is sent.")
    return ", ".join(str(channel.label) for channel in channels)


def hours_in_words(profile: ContactProfile) -> list[str]:
    """One line for a week that is any time or not chosen, else one line a day."""
    if not profile.hours_chosen:
        return [_("Not chosen yet: nothing is sent until they are.")]
    week = hours.read_week(profile.safe_hours)
    if all(day == [(0, hours.END_OF_DAY)] for day in week):
        return [_("Any time, every day")]
    lines = []
    for (_key, name), windows in zip(DAYS, week, strict=True):
        if windows == [(0, hours.END_OF_DAY)]:
            said = _("any time")
        elif not windows:
            said = _("not on this day")
        else:
            said = ", ".join(
                f"{hours.as_text(start)}–{hours.as_text(end % hours.END_OF_DAY)}"
                for start, end in windows
            )
        lines.append(f"{name}: {said}")
    return lines
