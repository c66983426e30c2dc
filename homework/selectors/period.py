"""The period a summary covers; dates are the practice's calendar days (``settings.TIME_ZONE``)."""

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clients.models import Session
from clients.selectors import (
    NO_EARLIER_SESSION_WEEKS,
    SessionWindow,
    start_without_earlier_session,
)

# Long enough for the last twelve months, short enough that nobody renders a decade by accident.
MAX_PERIOD_DAYS = 400
DEFAULT_LOOKBACK_DAYS = 7 * NO_EARLIER_SESSION_WEEKS
# An earlier date is a slip of the keyboard, and year 1 would overflow the arithmetic below.
EARLIEST_DATE = dt.date(2000, 1, 1)

# ASCII digits only: "\d" also matches digits the date parser refuses.
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_TYPED_DATE = re.compile(r"[0-9]{1,4}[/.\-][0-9]{1,2}[/.\-][0-9]{1,4}")
_FORMAT_WORDS = {"%d": "DD", "%m": "MM", "%Y": "YYYY", "%y": "YY"}
_SESSION_ID = re.compile(r"[1-9][0-9]{0,17}")
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class PeriodInvalid(ValueError):
    def __init__(self, errors: Mapping[str, list[str]]) -> None:
        super().__init__(dict(errors))
        self.errors = dict(errors)

    def __str__(self) -> str:
        return "; ".join(f"{name}: {' '.join(msgs)}" for name, msgs in self.errors.items())


@dataclass(frozen=True)
class PeriodQuery:
    since: dt.date | None = None
    until: dt.date | None = None
    full_detail: bool = False
    session_id: int | None = None

    @property
    def chosen_dates(self) -> bool:
        return self.since is not None or self.until is not None


@dataclass(frozen=True)
class Period:
    start: dt.datetime  # inclusive
    end: dt.datetime  # exclusive
    since: dt.date
    until: dt.date
    session: Session | None
    chosen_dates: bool
    previous: Session | None = None

    def as_of(self, now: dt.datetime, *, zone: dt.tzinfo | None = None) -> dt.date:
        """A period ending at a session counts through the eve, so the batch and the print agree."""
        zone = zone or timezone.get_default_timezone()
        if self.chosen_dates:
            last = self.until
        elif self.session is not None:
            last = timezone.localdate(self.end, zone) - dt.timedelta(days=1)
        else:
            last = timezone.localdate(self.end - dt.timedelta(microseconds=1), zone)
        return min(last, timezone.localdate(now, zone))

    def days_on(self, zone: dt.tzinfo) -> tuple[dt.date, dt.date]:
        if self.chosen_dates:
            return self.since, self.until
        return timezone.localdate(self.start, zone), timezone.localdate(self.end, zone)

    @property
    def key(self) -> str:
        """No client data, stable across requests."""
        anchor = f"s{self.session.pk}" if self.session is not None else "dates"
        return f"{self.since:%Y%m%d}-{self.until:%Y%m%d}-{anchor}"


def key_is_for_a_session_from(key: str, day: dt.date) -> bool:
    parts = key.split("-")
    try:
        until = dt.datetime.strptime(parts[1], "%Y%m%d").date()
    except (IndexError, ValueError):
        return False
    return len(parts) == 3 and parts[2].startswith("s") and until >= day


def practice_midnight(day: dt.date) -> dt.datetime:
    return midnight_on(day, timezone.get_default_timezone())


def midnight_on(day: dt.date, zone: dt.tzinfo) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time()), zone)


def practice_date(moment: dt.datetime) -> dt.date:
    return timezone.localtime(moment, timezone.get_default_timezone()).date()


def latest_day(*, today: dt.date, next_session_at: dt.datetime | None) -> dt.date:
    """The date pickers and every reader of a period ask this, so they agree."""
    if next_session_at is None:
        return today
    return max(today, practice_date(next_session_at))


def admin_date_format() -> str:
    return str(formats.get_format("DATE_INPUT_FORMATS")[0])


def as_admin_date(day: dt.date | None) -> str:
    return day.strftime(admin_date_format()) if day is not None else ""


def _read_typed_date(value: str) -> dt.date | None:
    for pattern in formats.get_format("DATE_INPUT_FORMATS"):
        try:
            return dt.datetime.strptime(value, pattern).date()
        except ValueError:
            continue
    return None


def format_in_words() -> str:
    words = admin_date_format()
    for code, said in _FORMAT_WORDS.items():
        words = words.replace(code, said)
    return words


def kept_date(raw: str | None) -> str:
    """Never echoes back a long or strange string."""
    value = (raw or "").strip()
    return value if _ISO_DATE.fullmatch(value) or _TYPED_DATE.fullmatch(value) else ""


def _parse_date(
    name: str,
    raw: str | None,
    errors: dict[str, list[str]],
    *,
    today: dt.date,
    latest: dt.date,
) -> dt.date | None:
    if raw is None or raw.strip() == "":
        return None
    value = raw.strip()
    if _ISO_DATE.fullmatch(value):
        try:
            day = dt.date.fromisoformat(value)
        except ValueError:
            errors[name] = [_("That date does not exist. Please check the day and month.")]
            return None
    else:
        typed = _read_typed_date(value) if _TYPED_DATE.fullmatch(value) else None
        if typed is None:
            errors[name] = [
                _("Enter a date as %(format)s, for example %(example)s.")
                % {"format": format_in_words(), "example": as_admin_date(dt.date(2026, 3, 1))}
            ]
            return None
        day = typed
    if day > latest:
        if latest == today:
            errors[name] = [_("This is in the future. Choose today or earlier.")]
        else:
            errors[name] = [
                _("This is after the next session. Choose %(day)s or earlier.")
                % {"day": formats.date_format(latest, "LONG_DATE_FORMAT")}
            ]
        return None
    if day < EARLIEST_DATE:
        errors[name] = [_("This is too long ago. Choose a date from the year 2000 on.")]
        return None
    return day


def parse_period_query(
    data: Mapping[str, str | None], *, today: dt.date, latest: dt.date | None = None
) -> PeriodQuery:
    """Errors never repeat what was sent."""
    latest = latest or today
    errors: dict[str, list[str]] = {}
    since = _parse_date("since", data.get("since"), errors, today=today, latest=latest)
    until = _parse_date("until", data.get("until"), errors, today=today, latest=latest)
    raw_full = (data.get("full_detail") or "").strip().lower()
    if raw_full not in _TRUE | _FALSE:
        errors["full_detail"] = [_("Use true or false.")]
    raw_session = (data.get("session") or "").strip()
    if raw_session and not _SESSION_ID.fullmatch(raw_session):
        errors["session"] = [_("Choose a session from the list.")]
    elif raw_session and (since is not None or until is not None):
        errors["session"] = [_("Choose a session or dates, not both.")]
    if errors:
        raise PeriodInvalid(errors)
    if since is not None or until is not None:
        until = until or today
        since = since or until - dt.timedelta(days=DEFAULT_LOOKBACK_DAYS - 1)
        if until < since:
            raise PeriodInvalid(
                {"until": [_("The end date is before the start date. Choose a later end date.")]}
            )
        if (until - since).days + 1 > MAX_PERIOD_DAYS:
            raise PeriodInvalid(
                {
                    "until": [
                        ngettext(
                            "The period can be at most %(days)s day long. Move the start and end dates closer together.",
                            "The period can be at most %(days)s days long. Move the start and end dates closer together.",
                            MAX_PERIOD_DAYS,
                        )
                        % {"days": MAX_PERIOD_DAYS}
                    ]
                }
            )
    return PeriodQuery(
        since=since,
        until=until,
        full_detail=raw_full in _TRUE,
        session_id=int(raw_session) if raw_session else None,
    )


def period_between_sessions(
    *, target: Session | None, previous: Session | None, now: dt.datetime
) -> Period:
    end = target.starts_at if target is not None else now
    start = previous.starts_at if previous is not None else start_without_earlier_session(end)
    return Period(
        start=start,
        end=end,
        since=practice_date(start),
        until=practice_date(end),
        session=target,
        chosen_dates=False,
        previous=previous,
    )


def period_for_window(window: SessionWindow) -> Period:
    return Period(
        start=window.start,
        end=window.end,
        since=practice_date(window.start),
        until=practice_date(window.end),
        session=None,
        chosen_dates=False,
        previous=window.previous,
    )


def period_for_dates(*, since: dt.date, until: dt.date, session: Session | None) -> Period:
    return Period(
        start=practice_midnight(since),
        end=practice_midnight(until + dt.timedelta(days=1)),
        since=since,
        until=until,
        session=session,
        chosen_dates=True,
    )
