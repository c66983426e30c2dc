"""The contact profile and its changes in words, for both sides' pages."""

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clients.contact import hours
from clients.contact.forms import DAYS
from clients.contact.models import PARTS, ContactChange, ContactProfile
from practice.models import User

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


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
    by_client = change.by == ContactChange.By.CLIENT
    if change.checked and not parts:
        return (
            _("confirmed them as they are")
            if by_client
            else _("went through them together; nothing changed")
        )
    if change.checked and not by_client:
        return _("went through them together and changed: %(parts)s") % {"parts": parts}
    return _("changed: %(parts)s") % {"parts": parts}


def change_lines(changes: list[ContactChange], *, viewer: User | None) -> list[ChangeLine]:
    return [ChangeLine(at=c.at, who=_who(c, viewer), what=_what(c)) for c in changes]


def channels_in_words(profile: ContactProfile) -> str:
    channels = profile.safe_channels
    if not channels:
        return _("None: nothing is sent.")
    return ", ".join(str(channel.label) for channel in channels)


# The spacing as it reads mid-sentence ("we may send you at most ...").
HOW_OFTEN: dict[int, "StrPromise"] = {
    ContactProfile.Spacing.DAILY: gettext_lazy("at most one message a day"),
    ContactProfile.Spacing.TWO_DAYS: gettext_lazy("at most one message every two days"),
    ContactProfile.Spacing.THREE_DAYS: gettext_lazy("at most one message every three days"),
    ContactProfile.Spacing.WEEKLY: gettext_lazy("at most one message a week"),
}


def _windows_in_words(windows: list[tuple[int, int]]) -> str:
    if windows == [(0, hours.END_OF_DAY)]:
        return _("any time")
    if not windows:
        return _("not at all")
    return ", ".join(
        f"{hours.as_text(start)}–{hours.as_text(end % hours.END_OF_DAY)}" for start, end in windows
    )


def week_in_words(week: hours.Week) -> str:
    """The week in one short phrase: every day alike, weekdays and the weekend, or day by day."""
    said = [_windows_in_words(windows) for windows in week]
    if len(set(said)) == 1:
        return _("every day, %(when)s") % {"when": said[0]}
    if len(set(said[:5])) == 1 and len(set(said[5:])) == 1:
        return _("on weekdays, %(weekdays)s; at the weekend, %(weekend)s") % {
            "weekdays": said[0],
            "weekend": said[5],
        }
    return "; ".join(f"{name}, {when}" for (_key, name), when in zip(DAYS, said, strict=True))


def days_in_words(numbers: list[int]) -> str:
    if numbers == list(range(hours.DAYS_IN_WEEK)):
        return _("every day")
    if numbers == list(range(5)):
        return _("on weekdays")
    if numbers == [5, 6]:
        return _("at the weekend")
    return _("on %(days)s") % {"days": ", ".join(str(DAYS[n][1]) for n in numbers)}


def reminder_waits(profile: ContactProfile) -> str | None:
    """When the reminder time falls outside some day's safe hours; None when it never does."""
    days = hours.days_outside(profile.safe_hours, at=profile.recurring_reminder_at)
    if not profile.safe_channels or not days:
        return None
    return _(
        "Your daily reminder at %(at)s is outside your safe times %(days)s, so on those days "
        "it waits for your next safe time."
    ) % {"at": profile.recurring_reminder_at.strftime("%H:%M"), "days": days_in_words(days)}


def reminder_waits_for_staff(profile: ContactProfile) -> str | None:
    """The same, for the therapist setting recurring work: the time and the hours, named."""
    days = hours.days_outside(profile.safe_hours, at=profile.recurring_reminder_at)
    if not profile.safe_channels or not days:
        return None
    return _(
        "Their daily reminder time, %(at)s, is outside the safe hours they chose (%(hours)s, "
        "%(zone)s) %(days)s: on those days the reminder is held until their next safe time. "
        "Go through it with them if another time would suit them better."
    ) % {
        "at": profile.recurring_reminder_at.strftime("%H:%M"),
        "hours": week_in_words(hours.read_week(profile.safe_hours)),
        "zone": profile.client.timezone,
        "days": days_in_words(days),
    }


def promise_in_words(profile: ContactProfile) -> str:
    """What the practice may send the client, where and when, in the second person."""
    channels = profile.safe_channels
    if not channels:
        return _(
            "Every message is off: right now we send you nothing at all. To get reminders, "
            "tick a way that is safe for you and choose your safe times below."
        )
    where = []
    if ContactProfile.Channel.EMAIL in channels:
        where.append(_("by email to %(address)s") % {"address": profile.email})
    if ContactProfile.Channel.TEXT in channels:
        where.append(
            _("by text message to %(number)s") % {"number": profile.phone.as_international}
        )
    return _(
        "Right now we may send you %(often)s, %(where)s, %(when)s (%(zone)s time). "
        "A reminder never says what it is about."
    ) % {
        "often": HOW_OFTEN.get(profile.days_between, HOW_OFTEN[ContactProfile.Spacing.DAILY]),
        "where": _(" or ").join(where),
        "when": week_in_words(hours.read_week(profile.safe_hours)),
        "zone": profile.client.timezone,
    }


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
