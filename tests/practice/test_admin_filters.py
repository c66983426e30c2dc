"""Admin lists filter only by what their sidebar offers: no hand-made queries
on a model's own fields, which could test a private entry's words or a
password hash one guess at a time."""

import pytest
from django.urls import reverse

from tests.conftest import login
from tests.factories import EntryFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "query",
    [
        "response__icontains=kind",
        "response__what_happened__icontains=kind",
        "felt_unsafe__exact=1",
        "discuss_in_session=1",
        "private__exact=1",
        "score__gte=5",
        "key=00000000-0000-0000-0000-000000000000",
    ],
)
def test_a_private_entry_cannot_be_probed_from_the_entry_list(cast, query):
    EntryFactory.create(
        assignment=cast.alice_assignment,
        private=True,
        felt_unsafe=True,
        response={"what_happened": "A kind message after three days."},
    )
    page = login(cast.tara).get(reverse("admin:homework_entry_changelist") + "?" + query)
    assert page.status_code == 400


@pytest.mark.parametrize(
    "query", ["password__startswith=a", "session_salt__startswith=a", "email__icontains=a"]
)
def test_a_manager_cannot_probe_accounts_by_hand_made_filters(cast, query):
    page = login(cast.morgan).get(reverse("admin:practice_user_changelist") + "?" + query)
    assert page.status_code == 400


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("homework_entry_changelist", "assignment__exercise__kind__exact=urge_log"),
        ("homework_entry_changelist", "submitted_at__year=2026&submitted_at__month=11"),
        ("homework_entry_changelist", "flag=unsafe"),
        ("homework_entry_changelist", "client={alice}"),
        ("homework_assignment_changelist", "status__exact=active"),
        ("homework_assignment_changelist", "exercise__kind__exact=written_record"),
        ("homework_exercise_changelist", "kind__exact=urge_log&is_active__exact=1"),
        ("clients_session_changelist", "starts_at__year=2026"),
        ("practice_user_changelist", "role__exact=therapist"),
    ],
)
def test_the_filters_a_list_offers_still_work(cast, name, query):
    user = cast.morgan if name.startswith("practice_") else cast.tara
    page = login(user).get(reverse(f"admin:{name}") + "?" + query.format(alice=cast.alice.pk))
    assert page.status_code == 200
