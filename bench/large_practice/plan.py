"""What each simulated client of the large practice does over their time in
therapy: their sessions and their work, as plain data (no database).

Every client draws from their own seeded ``random.Random``, so the same
client number gets the same history on every run. Three lengths of therapy:
a year (two clients in fifty, with a year of daily urge logs), a few months
(most), and three weeks (two in five).
"""

import datetime as dt
import random
import zoneinfo
from dataclasses import dataclass, field
from typing import Any

YEAR_DAYS = 365
SHORT_DAYS = 21
TIME_ZONES = ["Europe/London"] * 8 + ["Europe/Dublin", "America/New_York"]

RECORDS = "Keep the full picture"
URGES = "30 days of no contact"
LADDER = "One small boundary"
NETWORK = "Who is in my corner"
SAFETY_PLAN = "My safety plan"
CHECK_IN = "Weekly check-in: pull and clarity"
MEASURES = ("PHQ-9", "GAD-7")
DRAFTED = "Things that make me feel alive"
ONE_OFF_WORKSHEETS = (
    "Where do I abandon myself?",
    "Sitting with a hard feeling for ten minutes",
    "What I'm grieving",
    "Knowing is not the same as leaving",
    "The cycle, as I have lived it",
    "Before I reply",
)
READINGS = ("Knowing, and the pull back", "An urge is a wave", "People in your corner")
TITLES = (
    RECORDS,
    URGES,
    LADDER,
    NETWORK,
    SAFETY_PLAN,
    CHECK_IN,
    *MEASURES,
    DRAFTED,
    *ONE_OFF_WORKSHEETS,
    *READINGS,
)


@dataclass
class Sent:
    """One entry the client sent: when what it records happened, and what
    the response maker needs beyond that (a ladder's version, the urge
    curve's progress)."""

    at: dt.datetime
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Work:
    """One assignment and what the client sent for it (and maybe a draft)."""

    title: str
    starts_on: dt.date
    schedule: str = "once"
    due_on: dt.date | None = None
    ends_on: dt.date | None = None
    weekdays: list[int] = field(default_factory=list)
    no_contact_since: dt.date | None = None
    sent: list[Sent] = field(default_factory=list)
    draft_at: dt.datetime | None = None


@dataclass
class ClientPlan:
    number: int
    name: str
    timezone: str
    days: int
    sessions: list[dt.datetime]
    work: list[Work]
    has_contact_profile: bool


def seeded(seed: str) -> random.Random:
    """The same made-up history on every run: seeded, and never used for secrets."""
    return random.Random(seed)  # noqa: S311 (simulated data, not a secret)  # nosec B311


NAMES = ["Alex", "Sam", "Jordan", "Robin", "Casey", "Morgan", "Taylor", "Jamie", "Riley", "Ash"]
NAMES += ["Kit", "Noor", "Dana", "Eli", "Rowan", "Avery", "Quinn", "Remy", "Sasha", "Jules"]


def plan_client(number: int, index: int, *, now: dt.datetime) -> ClientPlan:
    """Client ``number`` (the ``index``-th of their therapist's)."""
    rng = seeded(f"scale-client-{number}")
    zone = rng.choice(TIME_ZONES)
    here = now.astimezone(zoneinfo.ZoneInfo(zone))
    if index % 25 == 0:
        days = YEAR_DAYS
    elif index % 5 in (1, 2):
        days = SHORT_DAYS
    else:
        days = rng.randint(60, 180)
    plan = ClientPlan(
        number=number,
        name=f"{NAMES[number % len(NAMES)]} {chr(65 + number // len(NAMES) % 26)}.",
        timezone=zone,
        days=days,
        sessions=_sessions(rng, here, days),
        work=[],
        has_contact_profile=rng.random() < 0.7,
    )
    planner = _Planner(rng, here, days)
    plan.work = planner.all_work()
    return plan


def _sessions(rng: random.Random, here: dt.datetime, days: int) -> list[dt.datetime]:
    """Weekly (or fortnightly) from the first day, and the next one to come."""
    every = rng.choice([7, 7, 14])
    first = here.replace(hour=rng.randint(9, 17), minute=0, second=0, microsecond=0)
    first -= dt.timedelta(days=days)
    sessions = []
    at = first
    while at <= here:
        sessions.append(at)
        at += dt.timedelta(days=every)
    sessions.append(at)
    return sessions


class _Planner:
    def __init__(self, rng: random.Random, here: dt.datetime, days: int) -> None:
        self.rng = rng
        self.here = here
        self.today = here.date()
        self.start = self.today - dt.timedelta(days=days)
        self.days = days

    def moment(self, day: dt.date, *, hours: tuple[int, int] = (7, 22)) -> dt.datetime | None:
        """A moment of ``day`` at least an hour ago, or None if there is none."""
        at = self.here.replace(
            year=day.year,
            month=day.month,
            day=day.day,
            hour=self.rng.randint(*hours),
            minute=self.rng.randrange(0, 60, 5),
        )
        return at if at <= self.here - dt.timedelta(hours=1) else None

    def spread(self, first: dt.date, last: dt.date, count: int) -> list[dt.datetime]:
        """``count`` moments at random between two days, in order."""
        span = max((last - first).days, 0)
        found = [
            self.moment(first + dt.timedelta(days=self.rng.randint(0, span))) for _ in range(count)
        ]
        return sorted(at for at in found if at is not None)

    def all_work(self) -> list[Work]:
        rng = self.rng
        long = self.days == YEAR_DAYS
        short = self.days == SHORT_DAYS
        work = [self.records(every=12 if long else 10), self.check_in(miss=0.25)]
        if long or (not short and rng.random() < 0.25) or (short and rng.random() < 0.4):
            work.append(self.urges(long=long))
        if long or (not short and rng.random() < 0.5):
            work += [self.measure(title) for title in MEASURES]
        ladder_versions = 5 if long else 2 if not short else rng.randint(0, 1)
        if ladder_versions:
            work.append(self.versions(LADDER, ladder_versions))
        map_versions = 3 if long else rng.randint(0, 2)
        if map_versions:
            work.append(self.versions(NETWORK, map_versions))
        if long or rng.random() < 0.4:
            work.append(self.versions(SAFETY_PLAN, rng.randint(1, 2)))
        for title in rng.sample(ONE_OFF_WORKSHEETS, rng.randint(0, 2 if short else 4)):
            work.append(self.one_off(title))
        if long or rng.random() < 0.5:
            work.append(self.reading(rng.choice(READINGS), sent=True))
        if long or rng.random() < 0.3:
            work.append(self.reading(rng.choice(READINGS), sent=False))
        if long or rng.random() < 0.5:
            work.append(self.drafted())
        if rng.random() < 0.2:
            work[0].draft_at = self.here - dt.timedelta(minutes=rng.randint(5, 300))
        return [w for w in work if w.sent or w.draft_at or w.title in (CHECK_IN, RECORDS)]

    def records(self, *, every: int) -> Work:
        count = max(1, self.days // every + self.rng.randint(-1, 2))
        return Work(
            RECORDS,
            starts_on=self.start,
            due_on=self.today + dt.timedelta(days=7),
            sent=[Sent(at) for at in self.spread(self.start, self.today, count)],
        )

    def urges(self, *, long: bool) -> Work:
        """A daily urge log: all year for a long client, else a month (three weeks if short)."""
        rng = self.rng
        length = self.days if long else min(30, self.days)
        first = (
            self.start
            if long or self.days == SHORT_DAYS
            else self.start + dt.timedelta(days=rng.randint(0, self.days - length))
        )
        sent = []
        for offset in range(length + 1):
            progress = offset / max(length, 1)
            # Two or so urges a day at first, easing to one every other day or so.
            mean = 1.8 * (1 - progress) + 0.4
            for _ in range(int(mean + rng.random())):
                at = self.moment(first + dt.timedelta(days=offset))
                if at is not None:
                    sent.append(Sent(at, {"progress": progress}))
        sent.sort(key=lambda s: s.at)
        return Work(
            URGES,
            starts_on=first,
            schedule="daily",
            ends_on=first + dt.timedelta(days=length + 29 if long else 29),
            no_contact_since=first,
            sent=sent,
        )

    def check_in(self, *, miss: float) -> Work:
        weekday = self.rng.randint(0, 6)
        work = Work(CHECK_IN, starts_on=self.start, schedule="weekly", weekdays=[weekday])
        day = self.start + dt.timedelta(days=(weekday - self.start.weekday()) % 7)
        while day <= self.today:
            if self.rng.random() > miss and (at := self.moment(day, hours=(17, 22))):
                work.sent.append(Sent(at))
            day += dt.timedelta(days=7)
        return work

    def measure(self, title: str) -> Work:
        weekday = self.rng.randint(0, 6)
        work = Work(title, starts_on=self.start, schedule="fortnightly", weekdays=[weekday])
        day = self.start + dt.timedelta(days=(weekday - self.start.weekday()) % 7)
        while day <= self.today:
            if self.rng.random() > 0.2 and (at := self.moment(day)):
                work.sent.append(Sent(at))
            day += dt.timedelta(days=14)
        return work

    def versions(self, title: str, count: int) -> Work:
        """Work sent again as it grows (a ladder, a map, a plan)."""
        moments = self.spread(self.start, self.today, count)
        return Work(
            title,
            starts_on=self.start,
            due_on=self.today + dt.timedelta(days=7),
            sent=[Sent(at, {"version": version}) for version, at in enumerate(moments)],
        )

    def one_off(self, title: str) -> Work:
        starts = self.start + dt.timedelta(days=self.rng.randint(0, max(self.days - 7, 0)))
        due = starts + dt.timedelta(days=7)
        last = min(due, self.today)
        sent = [Sent(at) for at in self.spread(starts, last, 1)] if self.rng.random() < 0.85 else []
        return Work(title, starts_on=starts, due_on=due, sent=sent)

    def reading(self, title: str, *, sent: bool) -> Work:
        """A reading set this week: read, or still on To do with a reflection begun."""
        starts = self.today - dt.timedelta(days=self.rng.randint(2, 5))
        work = Work(title, starts_on=starts, due_on=starts + dt.timedelta(days=7))
        if sent:
            work.sent = [
                Sent(at) for at in self.spread(starts, self.today - dt.timedelta(days=1), 1)
            ]
        else:
            work.draft_at = self.here - dt.timedelta(minutes=self.rng.randint(5, 300))
        return work

    def drafted(self) -> Work:
        """Work set two days ago that the client has begun and not sent."""
        return Work(
            DRAFTED,
            starts_on=self.today - dt.timedelta(days=2),
            due_on=self.today + dt.timedelta(days=5),
            draft_at=self.here - dt.timedelta(minutes=self.rng.randint(5, 600)),
        )
