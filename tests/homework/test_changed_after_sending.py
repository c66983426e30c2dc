"""A sent entry the client changed later: the therapist sees when, beside when it was sent.

The client may change a sent entry until the therapist has read it; an
excerpt in a list or a summary printed in between may already have been
read. Only a change to what the therapist could read counts (not a save
with nothing changed, a draft, or an edit while the entry was private), and
a private entry shows nothing of it.
"""

import datetime as dt
import io

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from homework import services
from homework.kinds import all_kinds, get_kind
from homework.kinds.values import SummaryScope
from homework.models import Entry
from homework.selectors.period import period_for_dates
from homework.services import Flags
from homework.summary import render, selectors
from practice.dates import calendar_day
from tests.conftest import login
from tests.factories import RESPONSES, written_record
from tests.helpers_summary import summary_document

from .test_kind_summaries import entries_of


def edit(entry: Entry, *, flags: Flags | None = None, **overrides: object) -> Entry:
    entry.refresh_from_db()
    user = entry.assignment.client.portal_user
    assert user is not None
    return services.entry_edit(
        user=user,
        key=entry.key,
        base_version=entry.version,
        data={**entry.response, **overrides},
        flags=flags or Flags(),
    )


def changed_on(entry: Entry, date_format: str = "j M") -> str:
    assert entry.changed_at is not None
    return calendar_day(entry.changed_at, date_format)


def changed_mark(entry: Entry) -> str:
    return f"changed {changed_on(entry)}"


def changed_earlier(entry: Entry, *, days: int = 1, private: bool = False) -> Entry:
    """Sent three days ago, changed ``days`` ago (as entry_edit would have marked it)."""
    now = timezone.now()
    sent = now - dt.timedelta(days=3)
    Entry.objects.filter(pk=entry.pk).update(
        submitted_at=sent,
        shared_at=None if private else sent,
        private=private,
        changed_at=now - dt.timedelta(days=days),
    )
    entry.refresh_from_db()
    return entry


# -- what counts as a change ----------------------------------------------------------


def test_changing_a_shared_entrys_words_records_when(cast):
    entry = edit(cast.alice_entry, what_happened="Now I remember more.")
    assert entry.changed_at is not None
    assert abs(entry.changed_at - timezone.now()) < dt.timedelta(minutes=1)


def test_changing_only_a_flag_is_a_change_too(cast):
    entry = edit(cast.alice_entry, flags=Flags(discuss_in_session=True))
    assert entry.changed_at is not None


def test_saving_an_edit_with_nothing_changed_is_not_a_change(cast):
    entry = edit(cast.alice_entry)
    assert entry.version == 2
    assert entry.changed_at is None


def test_drafts_and_first_sending_are_not_changes(cast):
    entry = cast.alice_entry
    assert entry.changed_at is None
    assert entry.updated_at is not None  # updated_at moves on every save; it cannot tell


def test_an_edit_while_private_is_not_a_change_the_therapist_could_see(cast):
    entry = cast.alice_entry
    Entry.objects.filter(pk=entry.pk).update(private=True, shared_at=None)
    entry = edit(entry, flags=Flags(private=True), what_happened="Only for me, for now.")
    assert entry.changed_at is None
    # Shared later: the therapist reads it first as it is then, so not "changed".
    entry = edit(entry, flags=Flags(private=False))
    assert entry.changed_at is None
    assert entry.shared_at is not None


def test_making_an_entry_private_or_sharing_it_is_not_a_change(cast):
    entry = cast.alice_entry
    user = cast.alice.portal_user
    services.entry_set_private(user=user, key=entry.key, private=True)
    services.entry_set_private(user=user, key=entry.key, private=False)
    entry.refresh_from_db()
    assert entry.changed_at is None


def test_the_portal_edit_page_records_the_change(cast):
    http = login(cast.alice.portal_user)
    entry = cast.alice_entry
    form = {
        "key": str(entry.key),
        "version": str(entry.version),
        **{f"r-{k}": str(v) for k, v in written_record(what_happened="Said better.").items()},
    }
    assert http.post(reverse("homework:entry_edit", args=[entry.key]), form).status_code == 302
    entry.refresh_from_db()
    assert entry.changed_at is not None


@pytest.mark.parametrize("private", [False, True])
def test_the_edit_page_tells_the_client_their_therapist_will_see_the_date(cast, private):
    """Open with them: a change to what was shared shows, so the page says so
    (and says nothing of it for a private entry, whose changes show nowhere)."""
    Entry.objects.filter(pk=cast.alice_entry.pk).update(private=private)
    page = login(cast.alice.portal_user).get(
        reverse("homework:entry_edit", args=[cast.alice_entry.key])
    )
    assert page.status_code == 200
    assert ("will see the date you changed it." in page.text) is not private


# -- the client's own pages -------------------------------------------------------


def test_the_client_sees_when_they_changed_a_sent_entry_as_their_therapist_does(cast):
    """The edit page says they "will see the date you changed it": the
    client's own page, and their download, show that same date."""
    changed = changed_earlier(cast.alice_entry)
    http = login(cast.alice.portal_user)
    page = http.get(reverse("homework:entry", args=[changed.key]))
    assert page.status_code == 200 and changed_mark(changed) in page.text
    download = http.get(reverse("homework:export_pdf"))
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(download.content)).pages)
    assert changed_mark(changed) in text


def test_the_client_sees_no_change_mark_on_an_entry_never_changed(cast):
    page = login(cast.alice.portal_user).get(reverse("homework:entry", args=[cast.alice_entry.key]))
    sent_line = page.text.split('<p class="muted">', 1)[1].split("</p>", 1)[0]
    assert "Sent " in sent_line and "changed" not in sent_line


# -- the admin --------------------------------------------------------------------


def test_entry_list_says_when_a_sent_entry_was_changed(cast):
    changed = changed_earlier(cast.alice_entry)
    page = login(cast.tara).get(reverse("admin:homework_entry_changelist"))
    assert changed_mark(changed) in page.text
    assert page.text.count("changed ") == 1


def test_entry_list_shows_no_change_for_an_entry_never_changed(cast):
    page = login(cast.tara).get(reverse("admin:homework_entry_changelist"))
    assert "changed " not in page.text


def test_entry_list_says_nothing_of_a_private_entrys_change(cast):
    changed_earlier(cast.alice_entry, private=True)
    page = login(cast.tara).get(reverse("admin:homework_entry_changelist"))
    assert "changed " not in page.text


def test_entry_page_says_when_it_was_sent_and_when_it_was_changed(cast):
    changed = changed_earlier(cast.alice_entry)
    page = login(cast.tara).get(reverse("admin:homework_entry_change", args=[changed.pk]))
    assert page.status_code == 200
    assert changed_mark(changed) in page.text


def test_private_entry_page_says_nothing_of_its_change(cast):
    changed = changed_earlier(cast.alice_entry, private=True)
    page = login(cast.tara).get(reverse("admin:homework_entry_change", args=[changed.pk]))
    assert "changed " not in page.text


def test_since_last_session_says_which_entries_were_changed(cast):
    changed = changed_earlier(cast.alice_entry)
    page = login(cast.tara).get(
        reverse("admin:clients_client_since_last_session", args=[cast.alice.pk])
    )
    assert page.status_code == 200
    assert changed_mark(changed) in page.text


def test_admin_home_says_which_new_entries_were_changed_but_not_private_ones(cast):
    changed = changed_earlier(cast.alice_entry)
    Entry.objects.filter(pk=changed.pk).update(felt_unsafe=True)
    page = login(cast.tara).get(reverse("admin:index"))
    assert changed_mark(changed) in page.text
    changed_earlier(cast.alice_entry, private=True)
    assert "changed " not in login(cast.tara).get(reverse("admin:index")).text


# -- the session summary ------------------------------------------------------------


def summary_html(cast, *, full_detail: bool = False) -> str:
    today = timezone.localdate()
    period = period_for_dates(since=today - dt.timedelta(days=21), until=today, session=None)
    return summary_document(cast, period, full_detail=full_detail).html


def test_summary_marks_a_changed_record_and_its_flag_once_each(cast):
    changed = changed_earlier(cast.alice_entry)
    Entry.objects.filter(pk=changed.pk).update(felt_unsafe=True)
    html = summary_html(cast)
    # Once beside the flag at the top, once beside the record in its section.
    assert html.count(changed_mark(changed)) == 2


def test_summary_marks_nothing_when_nothing_was_changed(cast):
    Entry.objects.filter(pk=cast.alice_entry.pk).update(felt_unsafe=True)
    assert "changed " not in summary_html(cast, full_detail=True)


def test_summary_adds_no_element_for_the_mark(cast):
    Entry.objects.filter(pk=cast.alice_entry.pk).update(felt_unsafe=True)
    before = summary_html(cast)
    changed_earlier(cast.alice_entry)
    after = summary_html(cast)
    assert after.count("<") == before.count("<")


@pytest.mark.clock
@pytest.mark.parametrize("kind", all_kinds(), ids=lambda kind: kind.slug)
def test_each_kinds_summary_marks_a_changed_entry_where_it_dates_it(cast, kind):
    (entry,) = entries_of(cast, kind.slug, [RESPONSES[kind.slug]()])
    changed = changed_earlier(entry)
    html = render_to_string(
        kind.summary_template, kind.summary_context([changed], SummaryScope(full_detail=True))
    )
    if kind.slug == "safety_plan":
        # "In place, last changed ..." is the change's date: that is when it last changed.
        assert f"last changed {changed_on(changed, 'j M Y')}" in html
    else:
        assert changed_mark(changed) in html


def test_a_summary_with_changed_entries_renders_without_a_query(cast, django_assert_num_queries):
    for days in (1, 2):
        changed_earlier(
            Entry.objects.create(
                **{
                    field.name: getattr(cast.alice_entry, field.name)
                    for field in Entry._meta.concrete_fields
                    if field.name not in ("id", "key")
                }
            ),
            days=days,
        )
    today = timezone.localdate()
    period = period_for_dates(since=today - dt.timedelta(days=7), until=today, session=None)
    data = selectors.summary_data(
        user=cast.tara, client=cast.alice, period=period, full_detail=True, now=timezone.now()
    )
    with django_assert_num_queries(0):
        html = render.summary_document(data).html
    assert "changed " in html


def test_the_safety_plan_says_when_it_was_last_updated_not_first_sent(cast):
    kind = get_kind("safety_plan")
    (entry,) = entries_of(cast, "safety_plan", [RESPONSES["safety_plan"]()])
    changed = changed_earlier(entry)
    html = render_to_string(kind.summary_template, kind.summary_context([changed]))
    assert changed.submitted_at is not None
    assert changed_on(changed, "j M Y") in html
    assert calendar_day(changed.submitted_at, "j M Y") not in html
