"""Work the therapist cancels (the admin's way to stop it, nothing is
deleted) keeps its place in the client's own progress once they sent for it:
the urge curve they drew over weeks is theirs, not the work's."""

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from tests.conftest import login, save_change_form
from tests.factories import AssignmentFactory, ExerciseFactory, daily_urge_log


def cancel_in_the_admin(cast, assignment):
    url = reverse("admin:homework_assignment_change", args=[assignment.pk])
    page = save_change_form(
        login(cast.tara),
        url,
        {
            "exercise": assignment.exercise_id,
            "instructions": assignment.instructions,
            "schedule": assignment.schedule,
            "starts_on": assignment.starts_on.isoformat(),
            "due_on": assignment.due_on.isoformat() if assignment.due_on else "",
            "ends_on": assignment.ends_on.isoformat() if assignment.ends_on else "",
            "no_contact_since": (
                assignment.no_contact_since.isoformat() if assignment.no_contact_since else ""
            ),
            "status": "cancelled",
        },
    )
    assert page.status_code == 302, page.context["adminform"].form.errors
    assignment.refresh_from_db()
    assert assignment.status == "cancelled"


def test_cancelled_work_the_client_sent_for_stays_on_their_progress_page(cast):
    start = timezone.localdate() - dt.timedelta(days=9)
    tracker = daily_urge_log(cast.alice, start=start, days=10, intensity=lambda day: 9 - day // 2)
    http = login(cast.alice.portal_user)
    before = http.get(reverse("homework:progress")).text
    assert "<svg" in before and tracker.exercise.title in before

    cancel_in_the_admin(cast, tracker)

    after = http.get(reverse("homework:progress")).text
    assert "<svg" in after and tracker.exercise.title in after


def test_cancelled_work_with_nothing_sent_is_not_on_the_progress_page(cast):
    nothing_sent = AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind="urge_log", title="Set by mistake"),
        status="cancelled",
    )
    page = login(cast.alice.portal_user).get(reverse("homework:progress")).text
    assert nothing_sent.exercise.title not in page
