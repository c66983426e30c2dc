"""Help now: the client's own plan first (people to call as links, safe
places, the code word, warning signs), then the practice's own contact and
the crisis lines, each once on the page."""

import datetime as dt
import re

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clients.services import client_archive
from homework.models import Assignment, Entry
from practice.models import PracticeSettings
from practice.services import practice_settings_update
from tests.conftest import login
from tests.factories import RESPONSES, AssignmentFactory, EntryFactory

pytestmark = pytest.mark.django_db

URL = "/help-now/"
CRISIS = "Helpline (24 hours): 0808 2000 247\nIn danger now: 999"


@pytest.fixture
def lines(cast):
    PracticeSettings.objects.filter(pk=1).update(
        crisis_resources=CRISIS, practice_contact="Reception, weekdays 9 to 5: 020 7946 0000"
    )


def plan_work(client, **fields):
    return AssignmentFactory.create(
        client=client, exercise__kind="safety_plan", exercise__title="My plan", **fields
    )


def send_plan(assignment, *, days_ago=1.0, status=Entry.Status.SUBMITTED, private=False, **words):
    sent = timezone.now() - dt.timedelta(days=days_ago)
    return EntryFactory.create(
        assignment=assignment,
        response=RESPONSES["safety_plan"](**words),
        status=status,
        submitted_at=sent if status == Entry.Status.SUBMITTED else None,
        private=private,
    )


def main_of(html: str) -> str:
    return html[html.index('<main id="main"') : html.index("</main>")]


def test_the_clients_plan_comes_first_in_crisis_order_with_numbers_to_call(cast, lines):
    work = plan_work(cast.alice)
    send_plan(
        work,
        people_to_call="Jo: 07700 900123\nMy sister: 07700 900456",
        safe_places="Jo's flat.",
        code_word="pineapple",
        warning_signs="Going quiet.",
    )
    html = main_of(login(cast.alice.portal_user).get(URL).text)
    order = [
        html.index(text)
        for text in (
            "People you can call",
            '<a href="tel:07700900123">07700 900123</a>',
            '<a href="tel:07700900456">07700 900456</a>',
            "Places you can go",
            "Jo&#x27;s flat.",
            "Your code word",
            "pineapple",
            "Signs that things are getting more dangerous",
            "Going quiet.",
            "Reception, weekdays 9 to 5",
            '<a href="tel:08082000247">',
        )
    ]
    assert order == sorted(order)
    assert "You last changed your plan on" in html
    assert f'href="{reverse("homework:do", args=[work.pk])}"' in html
    assert "Change my plan" in html


def test_each_line_is_on_the_page_once_and_the_quick_exit_stays(cast, lines):
    """The footer's crisis lines are the body's on this page: not twice."""
    PracticeSettings.objects.filter(pk=1).update(
        practice_contact="Reception: 020 7946 0000\nIn danger now: 999"
    )
    for user in (cast.alice.portal_user, None):
        html = login(user).get(URL).text
        for href in ("tel:08082000247", "tel:999", "tel:02079460000"):
            assert html.count(f'href="{href}"') == 1, (user, href)
        assert 'id="quick-exit"' in html
        assert 'aria-current="page"' in html


def test_the_newest_sent_plan_is_shown_private_too_never_a_draft(cast, lines):
    work = plan_work(cast.alice)
    send_plan(work, days_ago=9, code_word="first-word")
    send_plan(work, days_ago=3, code_word="kept-for-me", private=True)
    send_plan(work, status=Entry.Status.DRAFT, code_word="still-typing")
    html = login(cast.alice.portal_user).get(URL).text
    assert "kept-for-me" in html
    assert "first-word" not in html and "still-typing" not in html


@pytest.mark.parametrize(
    ("work", "says", "link"),
    [
        ("open", "Whenever you feel ready", True),
        ("none", "your therapist can help you write it", False),
        ("ended", "your therapist can help you write it", False),
        ("only a draft", "Whenever you feel ready", True),
    ],
)
def test_without_a_plan_the_page_says_so_calmly(cast, lines, work, says, link):
    assignment = None
    if work != "none":
        assignment = plan_work(cast.alice)
    if work == "ended":
        assert assignment is not None
        Assignment.objects.filter(pk=assignment.pk).update(status=Assignment.Status.CANCELLED)
    if work == "only a draft":
        assert assignment is not None
        send_plan(assignment, status=Entry.Status.DRAFT, code_word="still-typing")
    html = main_of(login(cast.alice.portal_user).get(URL).text)
    assert "You haven't written a plan yet. That's all right." in html
    assert says in html
    assert "still-typing" not in html
    do_link = assignment is not None and reverse("homework:do", args=[assignment.pk]) in html
    assert do_link is link
    assert html.index("Your plan") < html.index("If you need someone now")


def test_only_the_clients_own_plan_and_no_plan_for_staff_or_visitors(cast, lines):
    send_plan(plan_work(cast.bob), code_word="bobs-word")
    assert "bobs-word" not in login(cast.alice.portal_user).get(URL).text
    for user in (cast.tara, cast.theo, cast.morgan, None):
        html = login(user).get(URL).text
        assert "bobs-word" not in html and "Your plan" not in html
        assert '<a href="tel:08082000247">' in html


def test_help_now_takes_only_reading_and_changes_nothing(cast, lines):
    send_plan(plan_work(cast.alice))
    before = list(Entry.objects.values_list("pk", "version", "updated_at"))
    response = login(cast.alice.portal_user).post(URL, {"code_word": "changed"})
    assert response.status_code == 405
    assert list(Entry.objects.values_list("pk", "version", "updated_at")) == before


def queries_for_help_now(user) -> int:
    http = login(user)
    http.get(URL)  # the practice settings are cached from here on
    with CaptureQueriesContext(connection) as captured:
        assert http.get(URL).status_code == 200
    return len(captured.captured_queries)


def test_help_now_queries_do_not_grow_with_plans(cast, lines):
    work = plan_work(cast.alice)
    send_plan(work)
    one = queries_for_help_now(cast.alice.portal_user)
    for days in range(2, 30):
        send_plan(work, days_ago=days)
    send_plan(plan_work(cast.alice))
    assert queries_for_help_now(cast.alice.portal_user) == one


def test_a_number_is_never_run_into_the_next_lines(cast, lines):
    send_plan(plan_work(cast.alice), people_to_call="07700 900123\n07700 900456")
    html = login(cast.alice.portal_user).get(URL).text
    assert re.findall(r'href="tel:(\d+)"', main_of(html))[:2] == ["07700900123", "07700900456"]


def test_an_archived_client_still_reaches_their_plan_but_not_the_work(cast, lines):
    work = plan_work(cast.alice)
    send_plan(work, code_word="still-mine")
    client_archive(actor=cast.tara, client=cast.alice)
    html = main_of(login(cast.alice.portal_user).get(URL).text)
    assert "still-mine" in html
    assert reverse("homework:do", args=[work.pk]) not in html


def test_only_the_manager_sets_the_practices_own_contact_and_help_now_shows_it(cast):
    with pytest.raises(PermissionDenied):
        practice_settings_update(actor=cast.tara, practice_contact="Tara's own: 01632 960111")
    assert PracticeSettings.objects.get(pk=1).practice_contact == ""
    practice_settings_update(actor=cast.morgan, practice_contact="Reception: 01632 960222")
    html = main_of(login(cast.alice.portal_user).get(URL).text)
    assert '<a href="tel:01632960222">01632 960222</a>' in html
    assert "01632 960111" not in html
