"""Dates on the portal's pages name their year when it is not this one
(practice.dates.calendar_day): a schedule runs up to two years, so "until
30 November" could be either. The urge curve's dates are tested beside its
page (tests/homework/test_portal_kinds.py)."""

import datetime as dt
import zoneinfo

from django.urls import reverse
from django.utils import timezone

from homework.models import Entry
from tests.conftest import login
from tests.factories import AssignmentFactory, EntryFactory, daily_assignment


def test_the_home_page_names_the_year_of_an_old_draft_and_a_far_end_date(cast):
    ends = timezone.localdate().replace(month=1, day=1) + dt.timedelta(days=400)  # next year
    daily_assignment(cast.alice, starts_on=timezone.localdate(), ends_on=ends)
    draft = EntryFactory.create(
        assignment=AssignmentFactory.create(client=cast.alice),
        status=Entry.Status.DRAFT,
        submitted_at=None,
    )
    saved = timezone.now() - dt.timedelta(days=400)
    Entry.objects.filter(pk=draft.pk).update(updated_at=saved)
    page = login(cast.alice.portal_user).get(reverse("homework:dashboard")).text
    saved_day = timezone.localtime(saved, zoneinfo.ZoneInfo(cast.alice.timezone))
    assert f"{saved_day.day} {saved_day:%b %Y}" in page
    assert f"{ends:%A} {ends.day} {ends:%B %Y}" in page
