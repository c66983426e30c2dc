"""The admin home's new work, one row a client: flags and alerts first, private entries only
counted, nothing from another therapist's clients."""

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from homework import selectors
from homework.models import Alert
from homework.selectors.new_by_client import new_by_client
from tests.conftest import login
from tests.factories import ClientFactory, EntryFactory, daily_urge_log


def test_new_work_is_one_row_a_client_with_alerts_and_flags_first(cast):
    now = timezone.now()
    quiet = ClientFactory.create(therapist=cast.tara, display_name="Quiet")
    daily_urge_log(quiet, start=timezone.localdate() - dt.timedelta(days=3), days=3, intensity=int)
    EntryFactory.create(assignment=cast.alice_assignment, felt_unsafe=True)
    EntryFactory.create(assignment=cast.alice_assignment, private=True, felt_unsafe=True)
    home = selectors.staff_home(user=cast.tara, previous_visit=None, now=now)
    alice, other = home.new_by_client
    assert (alice.client, other.client) == (cast.alice, quiet)
    assert (alice.open_alerts, alice.felt_unsafe, alice.kept_private, alice.not_read) == (
        1,
        1,
        1,
        2,
    )
    assert [(kind.label, kind.count) for kind in alice.kinds] == [("Written record", 2)]
    assert [(kind.label, kind.count) for kind in other.kinds] == [("Urge log", 3)]
    assert (home.new_clients, home.new_count) == (2, 6)
    page = login(cast.tara).get(reverse("admin:index")).text
    assert page.count(reverse("admin:clients_client_since_last_session", args=[quiet.pk])) == 1
    assert "Bob" not in page


def test_past_the_rows_shown_the_home_says_how_many_clients_and_lists_every_entry(cast):
    for _ in range(3):
        EntryFactory.create(assignment__client__therapist=cast.tara)
    entries = selectors.new_entries(
        selectors.entries_for_user(user=cast.tara), since=timezone.now() - dt.timedelta(days=1)
    )
    rows, clients, count = new_by_client(entries, Alert.objects.none(), shown=2)
    assert (len(rows), clients, count) == (2, 4, 4)
