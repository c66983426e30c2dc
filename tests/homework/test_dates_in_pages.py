"""Dates on the portal's pages name their year when it is not this one
(practice.dates.calendar_day): a schedule runs up to two years, so "until
30 November" could be either. The urge curve's dates are tested beside its
page (tests/homework/test_portal_kinds.py)."""

import datetime as dt
import zoneinfo

import pytest
from django.urls import reverse
from django.utils import timezone

from clients.models import Client
from homework.models import Entry
from tests.conftest import login
from tests.factories import AssignmentFactory, EntryFactory, daily_assignment
from tests.helpers_access_log import a_look


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


# A December day of last year, so its year is written: Django's "M" writes "Dic" in Spanish,
# which Spanish does not.
LAST_YEAR = dt.datetime.now(dt.UTC).year - 1
DECEMBER_DAY = dt.datetime(LAST_YEAR, 12, 15, 12, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("language", "shown", "not_shown"),
    [("es", f"15 dic de {LAST_YEAR}, ", "15 Dic"), ("", f"15 Dec {LAST_YEAR}, ", "15 dic")],
)
def test_the_history_and_who_looked_write_months_in_the_clients_language(
    cast, language, shown, not_shown
):
    Client.objects.filter(pk=cast.alice.pk).update(language=language)
    Entry.objects.filter(pk=cast.alice_entry.pk).update(submitted_at=DECEMBER_DAY)
    a_look(cast.alice, cast.tara, at=DECEMBER_DAY)
    http = login(cast.alice.portal_user)
    for page in ("homework:history", "clients:who_looked"):
        text = http.get(reverse(page)).content.decode()
        assert shown in text, page
        assert not_shown not in text, page
