"""The client's own entries after sending: history, changes, privacy, notes, export."""

import datetime as dt
import io
import json
import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from homework import export, services
from homework.models import Assignment, Entry, EntryComment, EntryNote
from homework.services import EntryLocked, Flags
from tests.conftest import login
from tests.factories import (
    AssignmentFactory,
    EntryFactory,
    ExerciseFactory,
    daily_urge_log,
    options_for,
    urge_log,
    worksheet,
    written_record,
)
from tests.helpers_entries import edit_form, quick_exit_with_draft, read_by_therapist

# -- changing a sent entry -----------------------------------------------------------


def test_client_changes_a_sent_entry_until_it_is_read(cast):
    http = login(cast.alice.portal_user)
    entry = cast.alice_entry
    url = reverse("homework:entry_edit", args=[entry.key])
    assert http.get(url).status_code == 200
    response = http.post(url, edit_form(entry, what_happened="Now I remember more."))
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.response["what_happened"] == "Now I remember more."
    assert entry.version == 2 and entry.is_submitted


def test_read_entry_cannot_be_changed_but_takes_a_note(cast):
    http = login(cast.alice.portal_user)
    entry = cast.alice_entry
    read_by_therapist(entry)
    before = entry.response
    page = http.get(reverse("homework:entry", args=[entry.key]))
    assert reverse("homework:entry_edit", args=[entry.key]) not in page.text
    assert http.get(reverse("homework:entry_edit", args=[entry.key])).status_code == 302
    posted = http.post(
        reverse("homework:entry_edit", args=[entry.key]),
        edit_form(entry, what_happened="Now I remember more."),
    )
    # The entry stays; the words just typed wait in the note form, not lost.
    assert posted.status_code == 409
    assert posted.context["note_form"].initial["text"] == "Now I remember more."
    assert "Now I remember more." in posted.text
    entry.refresh_from_db()
    assert entry.response == before
    with pytest.raises(EntryLocked):
        services.entry_edit(
            user=cast.alice.portal_user,
            key=entry.key,
            base_version=entry.version,
            data=written_record(),
            flags=Flags(),
        )
    noted = http.post(
        reverse("homework:entry_add_note", args=[entry.key]), {"text": "One more thing."}
    )
    assert noted.status_code == 302
    assert EntryNote.objects.get(entry=entry).text == "One more thing."
    assert "One more thing." in http.get(reverse("homework:entry", args=[entry.key])).text


def test_stale_edit_shows_both_texts_and_changes_nothing(cast):
    http = login(cast.alice.portal_user)
    entry = cast.alice_entry
    url = reverse("homework:entry_edit", args=[entry.key])
    http.post(url, edit_form(entry, what_happened="Edited on the phone."))
    stale = http.post(url, edit_form(entry, version=1, what_happened="Edited on the laptop."))
    assert stale.status_code == 409
    assert "Edited on the phone." in stale.text and "Edited on the laptop." in stale.text
    entry.refresh_from_db()
    assert entry.response["what_happened"] == "Edited on the phone."
    # Sending the page again keeps its text: the form now carries the new version.
    again = http.post(url, edit_form(entry, version=2, what_happened="Edited on the laptop."))
    assert again.status_code == 302


def test_the_same_edit_sent_twice_is_saved_once_without_a_conflict(cast):
    """ "Save my changes" clicked twice (the edit page has no script to stop
    it): the second arrives with the version the first replaced, saying the
    same. It is the same save, not a change made elsewhere."""
    http = login(cast.alice.portal_user)
    entry = cast.alice_entry
    url = reverse("homework:entry_edit", args=[entry.key])
    form = edit_form(entry, what_happened="Now I remember more.")
    assert http.post(url, form).status_code == 302
    again = http.post(url, form)
    assert again.status_code == 302
    assert again["Location"] == reverse("homework:entry", args=[entry.key])
    entry.refresh_from_db()
    assert entry.version == 2 and entry.response["what_happened"] == "Now I remember more."
    # Other words on the old version are still a conflict, shown with both.
    other = http.post(url, edit_form(entry, version=1, what_happened="Something else."))
    assert other.status_code == 409


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"what_happened": ""}, "Write a few words here first."),
        (
            {"what_happened": "x" * 1_000_000},
            "This can be up to 20,000 characters; it has 1,000,000.",
        ),
        ({"body_distress": "11"}, "Choose a number from 0 to 10."),
    ],
)
def test_bad_edit_is_named_and_changes_nothing(cast, overrides, message):
    http = login(cast.alice.portal_user)
    entry = cast.alice_entry
    before = entry.response
    response = http.post(
        reverse("homework:entry_edit", args=[entry.key]), edit_form(entry, **overrides)
    )
    assert response.status_code == 400 and message in response.text
    entry.refresh_from_db()
    assert entry.response == before and entry.version == 1


def test_client_cannot_touch_another_clients_entry(cast):
    http = login(cast.alice.portal_user)
    key = cast.bob_entry.key
    assert http.get(reverse("homework:entry_edit", args=[key])).status_code == 404
    assert (
        http.post(reverse("homework:entry_edit", args=[key]), edit_form(cast.bob_entry)).status_code
        == 404
    )
    assert (
        http.post(reverse("homework:entry_privacy", args=[key]), {"private": "1"}).status_code
        == 404
    )
    assert (
        http.post(reverse("homework:entry_add_note", args=[key]), {"text": "hi"}).status_code == 404
    )
    bob = Entry.objects.get(pk=cast.bob_entry.pk)
    assert (bob.private, bob.version, bob.notes.count()) == (False, 1, 0)


def test_an_edit_cannot_be_pointed_at_another_entry(cast):
    http = login(cast.alice.portal_user)
    form = edit_form(cast.alice_entry) | {"key": str(cast.bob_entry.key)}
    assert (
        http.post(reverse("homework:entry_edit", args=[cast.alice_entry.key]), form).status_code
        == 400
    )
    assert Entry.objects.get(pk=cast.bob_entry.pk).response == cast.bob_entry.response


# -- private and shared --------------------------------------------------------------


def test_shared_entry_can_be_made_private_until_it_is_read(cast):
    http = login(cast.alice.portal_user)
    url = reverse("homework:entry_privacy", args=[cast.alice_entry.key])
    http.post(url, {"private": "1"})
    assert Entry.objects.get(pk=cast.alice_entry.pk).private
    http.post(url, {"private": "0"})
    assert not Entry.objects.get(pk=cast.alice_entry.pk).private
    read_by_therapist(cast.alice_entry)
    refused = http.post(url, {"private": "1"}, follow=True)
    assert "stays shared" in refused.text
    assert not Entry.objects.get(pk=cast.alice_entry.pk).private


def test_private_entry_can_be_shared_later_even_after_it_is_read(
    cast, django_capture_on_commit_callbacks
):
    from django.core import mail

    entry = EntryFactory.create(assignment=cast.alice_assignment, private=True)
    http = login(cast.alice.portal_user)
    with django_capture_on_commit_callbacks(execute=True):
        http.post(reverse("homework:entry_privacy", args=[entry.key]), {"private": "0"})
    entry.refresh_from_db()
    assert not entry.private
    assert len(mail.outbox) == 1  # the therapist hears, discreetly, that something arrived


def test_privacy_takes_only_private_or_shared(cast):
    http = login(cast.alice.portal_user)
    url = reverse("homework:entry_privacy", args=[cast.alice_entry.key])
    assert http.post(url, {"private": "maybe"}).status_code == 400
    assert not Entry.objects.get(pk=cast.alice_entry.pk).private


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Write a few words here first."),
        ("   ", "Write a few words here first."),
        ("x" * 2001, "This can be up to 2,000 characters; it has 2,001."),
    ],
)
def test_bad_note_is_named_and_saves_nothing(cast, text, message):
    http = login(cast.alice.portal_user)
    response = http.post(
        reverse("homework:entry_add_note", args=[cast.alice_entry.key]), {"text": text}
    )
    assert response.status_code == 400 and message in response.text
    assert not EntryNote.objects.exists()


def test_a_note_sent_twice_is_added_once(cast):
    """ "Add" clicked twice (or the post replayed): one note, not the same
    words twice in the client's entry and the therapist's admin."""
    http = login(cast.alice.portal_user)
    url = reverse("homework:entry_add_note", args=[cast.alice_entry.key])
    for _ in range(2):
        assert http.post(url, {"text": "One more thing."}).status_code == 302
    assert list(EntryNote.objects.values_list("text", flat=True)) == ["One more thing."]
    # Other words, and the same words again after them, are new notes.
    http.post(url, {"text": "And another."})
    http.post(url, {"text": "One more thing."})
    assert EntryNote.objects.count() == 3
    # So are the same words again later on: a repeat is only moments apart.
    EntryNote.objects.update(created_at=timezone.now() - dt.timedelta(hours=1))
    http.post(url, {"text": "One more thing."})
    assert EntryNote.objects.count() == 4


# -- text stays text everywhere --------------------------------------------------------

SCRIPT = "<script>alert(1)</script><img src=x onerror=alert(2)>"


def test_html_in_every_field_is_shown_as_text_in_portal_and_admin(cast):
    http = login(cast.alice.portal_user)
    key = uuid.uuid4()
    every_field = dict.fromkeys(
        (
            "what_happened",
            "what_was_said_or_done",
            "what_i_told_myself",
            "remember_when_i_miss_them",
        ),
        SCRIPT,
    )
    form = {
        "key": str(key),
        "version": "0",
        **{f"r-{k}": v for k, v in written_record(**every_field).items()},
    }
    assert (
        http.post(reverse("homework:do", args=[cast.alice_assignment.pk]), form).status_code == 302
    )
    entry = Entry.objects.get(key=key)
    http.post(reverse("homework:entry_add_note", args=[key]), {"text": SCRIPT})
    EntryComment.objects.create(entry=entry, author=cast.tara, text=SCRIPT)
    pages = [
        http.get(reverse("homework:entry", args=[key])).text,
        http.get(reverse("homework:history")).text,
        http.get(reverse("homework:dashboard")).text,
        http.get(reverse("homework:entry_edit", args=[key])).text,
        login(cast.tara).get(reverse("admin:homework_entry_change", args=[entry.pk])).text,
    ]
    for page in pages:
        assert SCRIPT not in page
        assert "<img src=x" not in page
    assert (
        pages[0].count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 6
    )  # 4 fields, the note, the comment


def test_html_in_the_autosave_conflict_is_data_not_markup(cast):
    http = login(cast.alice.portal_user)
    url = reverse("homework:autosave", args=[cast.alice_assignment.pk])
    key = str(uuid.uuid4())
    http.post(url, {"key": key, "version": "0", "r-what_happened": SCRIPT})
    http.post(url, {"key": key, "version": "1", "r-what_happened": "later"})
    stale = http.post(url, {"key": key, "version": "1", "r-what_happened": SCRIPT})
    assert stale.status_code == 409 and stale["Content-Type"] == "application/json"
    assert stale.json()["conflict"]["rows"][0]["mine"] == SCRIPT  # the page sets it as textContent


# -- the client's export -------------------------------------------------------------


def test_export_json_holds_everything_i_wrote_and_nothing_of_anyone_else(cast):
    services.entry_save_draft(
        user=cast.alice.portal_user,
        assignment_id=cast.alice_assignment.pk,
        key=uuid.uuid4(),
        base_version=0,
        data={"what_happened": "half a thought"},
        flags=Flags(),
    )
    EntryNote.objects.create(entry=cast.alice_entry, text="added later")
    response = login(cast.alice.portal_user).get(reverse("homework:export_json"))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="notebook-')
    data = json.loads(response.content)
    texts = {entry["response"].get("what_happened") for entry in data["entries"]}
    assert texts == {cast.alice_entry.response["what_happened"], "half a thought"}
    assert str(cast.bob_entry.key) not in response.text
    sent = next(e for e in data["entries"] if e["status"] == "submitted")
    assert sent["my_notes"][0]["text"] == "added later"


def test_export_pdf_lists_sent_records_in_the_order_they_happened(cast, artifacts):
    def record(days_ago: int, text: str) -> None:
        when = timezone.localtime() - dt.timedelta(days=days_ago)
        EntryFactory.create(
            assignment=cast.alice_assignment,
            response={
                **written_record(what_happened=text),
                "body_distress": 5,
                "occurred_at": when.isoformat(),
            },
            # Sent in the opposite order to when things happened.
            submitted_at=timezone.now() - dt.timedelta(days=10 - days_ago),
        )

    record(2, "Earlier this week <b>bold</b>")
    record(9, "Nine days ago")
    response = login(cast.alice.portal_user).get(reverse("homework:export_pdf"))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    (artifacts / "export.pdf").write_bytes(response.content)
    assert (
        text.index("Nine days ago")
        < text.index("Earlier this week")
        < text.index(cast.alice_entry.response["what_happened"][:20])
    )
    assert "<b>bold</b>" in text
    assert "Bob" not in text and cast.bob_entry.response["what_happened"] not in text.replace(
        cast.alice_entry.response["what_happened"], ""
    )


def test_export_pdf_starts_a_long_record_where_the_last_one_ended(cast, artifacts):
    # A record too long for what was left of the page moved whole to the
    # next, leaving half a page blank; now only its heading keeps with it.
    EntryFactory.create(
        assignment=cast.alice_assignment,
        response={
            **written_record(
                what_happened="\n".join(f"Line {n} of a long night." for n in range(1, 41))
            ),
            "occurred_at": timezone.localtime().isoformat(),
        },
    )
    response = login(cast.alice.portal_user).get(reverse("homework:export_pdf"))
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]
    (artifacts / "export-long-record.pdf").write_bytes(response.content)
    earlier = cast.alice_entry.response["what_happened"]
    assert earlier in pages[0] and "Line 1 of a long night." not in pages[0].split(earlier)[0]
    assert "Line 1 of a long night." in pages[0]
    assert "Line 40 of a long night." in pages[1] and len(pages) == 2


def test_export_pdf_keeps_a_daily_urge_log_brief_with_every_word(cast):
    # Urges are logged daily for up to two years; a page each made a
    # 734-page download that took 40 s and 900 MB to make.
    log = daily_urge_log(
        cast.alice,
        start=timezone.localdate() - dt.timedelta(days=40),
        days=30,
        intensity=lambda d: d % 11,
    )
    EntryFactory.create(
        assignment=log,
        response=urge_log(
            intensity=9,
            trigger="other",
            trigger_note="Their birthday <i>today</i>.",
            did_instead="Walked to the river\nand back.",
            contact_happened=True,
            contact_initiated_by="me",
        ),
    )
    response = login(cast.alice.portal_user).get(reverse("homework:export_pdf"))
    pages = PdfReader(io.BytesIO(response.content)).pages
    text = " ".join(" ".join(page.extract_text() for page in pages).split())
    assert len(pages) <= 7  # 31 urges and the cast's record; a page each before
    assert text.count("Called my sister.") == 30
    assert "Their birthday <i>today</i>." in text and "Walked to the river and back." in text
    assert "9 / 10" in text and "I reached out" in text


def test_export_pdf_keeps_a_daily_check_in_brief_with_every_answer(cast):
    check_in = AssignmentFactory.create(
        client=cast.alice,
        exercise=ExerciseFactory.create(kind="worksheet", options=options_for("worksheet")),
    )
    for day in range(30):
        EntryFactory.create(
            assignment=check_in,
            response=worksheet(word=f"word{day}"),
            submitted_at=timezone.now() - dt.timedelta(days=30 - day),
        )
    response = login(cast.alice.portal_user).get(reverse("homework:export_pdf"))
    pages = PdfReader(io.BytesIO(response.content)).pages
    # Without spaces: pypdf drops the one between a bold question and its answer.
    text = "".join(" ".join(page.extract_text() for page in pages).split())
    assert len(pages) <= 11  # half a page each before: 16
    assert all(f"Onewordfortheweek:word{day}" in text for day in range(30))
    assert text.count("Howstrongwasthepull?8/10") == 30
    assert text.count("Whathelped?Awalk,Sleep") == 30
    assert text.count("When?3January") == 30  # a date answer reads as a date, not 2026-01-03


def urges_beside_the_record(cast) -> Assignment:
    """Alice's urge log, beside her written record (the cast's assignment)."""
    urges = daily_urge_log(
        cast.alice, start=timezone.localdate() - dt.timedelta(days=3), days=2, intensity=lambda d: 4
    )
    urges.exercise.title = "Urges to get in touch"
    urges.exercise.save(update_fields=["title"])
    return urges


def test_account_page_offers_my_exercises_with_something_sent_all_ticked(cast):
    urges = urges_beside_the_record(cast)
    EntryFactory.create(
        assignment=AssignmentFactory.create(client=cast.alice), status="draft", submitted_at=None
    )
    page = login(cast.alice.portal_user).get(reverse("clients:account")).text
    boxes = re.findall(r'<input type="checkbox" name="include" value="(\d+)"[^>]*>', page)
    # In the order they were begun; the draft's exercise, with nothing sent, is not there.
    assert boxes == [str(urges.pk), str(cast.alice_assignment.pk)]
    assert page.count('name="include"') == page.count("checked") == 2
    assert "Urges to get in touch (2 sent, " in page
    assert str(cast.bob_assignment.pk) not in boxes


def test_account_page_says_a_long_notebooks_pdf_takes_a_while(cast, monkeypatch):
    from homework.portal.export_forms import ExportChoiceForm

    http = login(cast.alice.portal_user)
    monkeypatch.setattr(ExportChoiceForm, "LONG_NOTEBOOK", 3)
    assert "put together while you wait" not in http.get(reverse("clients:account")).text
    urges_beside_the_record(cast)  # two more: three sent
    assert "put together while you wait" in http.get(reverse("clients:account")).text


def test_export_pdf_holds_only_the_exercises_i_chose(cast):
    urges_beside_the_record(cast)
    response = login(cast.alice.portal_user).get(
        reverse("homework:export_pdf"), {"chosen": "yes", "include": cast.alice_assignment.pk}
    )
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    text = " ".join(text.split())
    assert cast.alice_entry.response["what_happened"][:20] in text
    assert "Called my sister." not in text and "Urges to get in touch" not in text
    assert f"What I sent for {cast.alice_assignment.exercise.title}," in text


@pytest.mark.parametrize(
    ("include", "message"),
    [
        (None, "Choose at least one exercise to put in the PDF."),
        ("bob's", "One of the chosen exercises is not in your notebook."),
        ("abc", "One of the chosen exercises is not in your notebook."),
        ("9" * 40, "One of the chosen exercises is not in your notebook."),
        ("", "One of the chosen exercises is not in your notebook."),
    ],
)
def test_export_pdf_refuses_a_choice_of_nothing_or_not_mine(cast, include, message):
    urges_beside_the_record(cast)
    query = {"chosen": "yes"}
    if include is not None:
        query["include"] = str(cast.bob_assignment.pk) if include == "bob's" else include
    response = login(cast.alice.portal_user).get(reverse("homework:export_pdf"), query)
    assert response.status_code == 400
    assert "Content-Disposition" not in response
    assert message in response.text and 'id="error-summary"' in response.text
    assert f'value="{cast.bob_assignment.pk}"' not in response.text  # Bob's is never offered


def test_a_refused_choice_is_shown_even_with_one_exercise_to_choose_from(cast):
    """With one exercise there is nothing to choose and the page hides the
    choice; a choice refused all the same (an address kept from when there
    were more) said nothing at all on its 400 page."""
    response = login(cast.alice.portal_user).get(
        reverse("homework:export_pdf"), {"chosen": "yes", "include": "999999"}
    )
    assert response.status_code == 400
    assert "One of the chosen exercises is not in your notebook." in response.text
    assert 'id="error-summary"' in response.text


def test_export_pdf_with_some_other_query_string_downloads_everything(cast):
    """Only the choice's own fields make a choice: a bookmark or a link with
    something added to it was refused as "choose at least one exercise"."""
    urges_beside_the_record(cast)
    response = login(cast.alice.portal_user).get(
        reverse("homework:export_pdf"), {"utm_source": "newsletter"}
    )
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    text = " ".join(text.split())
    assert "Everything I sent" in text and "Called my sister." in text


def test_export_pdf_with_every_exercise_ticked_says_it_holds_everything(cast):
    """All ticked (as the page starts) is everything, and says so, rather
    than naming every exercise on the first page."""
    urges = urges_beside_the_record(cast)
    document = export.export_document(
        user=cast.alice.portal_user, assignment_ids=[urges.pk, cast.alice_assignment.pk]
    )
    assert "What I sent for" in document  # asked by name, the document names them
    response = login(cast.alice.portal_user).get(
        reverse("homework:export_pdf"),
        {"chosen": "yes", "include": [urges.pk, cast.alice_assignment.pk]},
    )
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    text = " ".join(text.split())
    assert "Everything I sent" in text and "What I sent for" not in text
    assert "Called my sister." in text


# -- constant queries ----------------------------------------------------------------


def many_entries(cast, count: int) -> None:
    for _ in range(count - 1):  # the cast already has one
        entry = EntryFactory.create(assignment=cast.alice_assignment)
        EntryNote.objects.create(entry=entry, text="n")
        EntryComment.objects.create(entry=entry, author=cast.tara, text="c")


def count_queries(http, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert http.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("name", ["homework:dashboard", "homework:history"])
def test_portal_lists_take_the_same_queries_at_1_and_50_entries(cast, name):
    http = login(cast.alice.portal_user)
    http.get(reverse(name))  # warm the practice-settings cache
    one = count_queries(http, reverse(name))
    many_entries(cast, 50)
    fifty = count_queries(http, reverse(name))
    assert one == fifty, (one, fifty)
    assert one <= 12


def many_exercises_sent(cast, count: int) -> None:
    for _ in range(count - 1):  # the cast already has one
        entry = EntryFactory.create(assignment=AssignmentFactory.create(client=cast.alice))
        EntryNote.objects.create(entry=entry, text="n")


def test_account_page_takes_the_same_queries_at_1_and_50_exercises_to_choose_from(cast):
    http = login(cast.alice.portal_user)
    url = reverse("clients:account")
    http.get(url)  # warm the practice-settings cache
    one = count_queries(http, url)
    many_exercises_sent(cast, 50)
    fifty = count_queries(http, url)
    assert fifty == one, (one, fifty)
    assert one <= 8


@pytest.mark.parametrize("chosen", [False, True])
def test_export_pdf_takes_the_same_queries_at_1_and_50_exercises(cast, monkeypatch, chosen):
    # The queries are the point here, not the PDF engine's minutes for 50 entries.
    monkeypatch.setattr(export, "render_pdf", lambda html: b"%PDF-")
    http = login(cast.alice.portal_user)

    def url() -> str:
        if not chosen:
            return reverse("homework:export_pdf")
        mine = Assignment.objects.filter(client=cast.alice).values_list("pk", flat=True)
        ticked = "&".join(f"include={pk}" for pk in sorted(mine)[1:] or mine)
        return f"{reverse('homework:export_pdf')}?chosen=yes&{ticked}"

    http.get(url())
    one = count_queries(http, url())
    many_exercises_sent(cast, 50)
    fifty = count_queries(http, url())
    assert fifty == one, (one, fifty)


def test_entry_page_queries_do_not_grow_with_notes(cast):
    http = login(cast.alice.portal_user)
    url = reverse("homework:entry", args=[cast.alice_entry.key])
    http.get(url)
    one = count_queries(http, url)
    for n in range(30):
        EntryNote.objects.create(entry=cast.alice_entry, text=f"note {n}")
        EntryComment.objects.create(entry=cast.alice_entry, author=cast.tara, text=f"comment {n}")
    assert count_queries(http, url) == one


def test_therapist_reads_the_clients_later_notes_in_the_admin(cast):
    EntryNote.objects.create(entry=cast.alice_entry, text="I remembered the date wrong.")
    page = login(cast.tara).get(reverse("admin:homework_entry_change", args=[cast.alice_entry.pk]))
    assert "I remembered the date wrong." in page.text


def test_private_entry_notes_stay_private_in_the_admin(cast):
    Entry.objects.filter(pk=cast.alice_entry.pk).update(private=True)
    EntryNote.objects.create(entry=cast.alice_entry, text="Only for me.")
    page = login(cast.tara).get(reverse("admin:homework_entry_change", args=[cast.alice_entry.pk]))
    assert "Only for me." not in page.text


# -- bad input at the door --------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "args", "data"),
    [
        ("homework:autosave", "assignment", {"version": "0", "r-what_happened": "x"}),
        ("homework:entry_edit", "entry", {"version": "1", "r-what_happened": "x"}),
        ("homework:entry_privacy", "entry", {"private": "1"}),
        ("homework:entry_add_note", "entry", {"text": "x"}),
        ("clients:log_out_everywhere", None, {}),
        ("clients:dismiss_exit_note", None, {}),
        ("clients:two_step_setup", None, {"start": "1"}),
    ],
)
def test_posts_without_csrf_are_refused_and_change_nothing(cast, name, args, data):
    from django.test import Client as HttpClient

    http = HttpClient(enforce_csrf_checks=True)
    http.force_login(cast.alice.portal_user)
    arg = {"assignment": [cast.alice_assignment.pk], "entry": [cast.alice_entry.key]}.get(
        args or "", []
    )
    before = (Entry.objects.count(), EntryNote.objects.count())
    response = http.post(reverse(name, args=arg), {"key": str(uuid.uuid4()), **data})
    assert response.status_code == 403
    assert (Entry.objects.count(), EntryNote.objects.count()) == before
    user = type(cast.alice.portal_user).objects.get(pk=cast.alice.portal_user.pk)
    assert user.session_salt == cast.alice.portal_user.session_salt
    assert user.exit_note_dismissed_at is None
    assert not Entry.objects.get(pk=cast.alice_entry.pk).private


def test_a_megabyte_pasted_into_an_autosave_is_refused_by_name(cast):
    http = login(cast.alice.portal_user)
    response = http.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]),
        {"key": str(uuid.uuid4()), "version": "0", "r-what_happened": "x" * 1_000_000},
    )
    assert response.status_code == 400
    assert (
        "up to 20,000 characters; it has 1,000,000" in response.json()["errors"]["what_happened"][0]
    )
    assert Entry.objects.count() == 2  # the cast's two


def test_an_autosave_with_a_version_from_the_future_changes_nothing(cast):
    http = login(cast.alice.portal_user)
    url = reverse("homework:autosave", args=[cast.alice_assignment.pk])
    key = str(uuid.uuid4())
    http.post(url, {"key": key, "version": "0", "r-what_happened": "as it is"})
    future = http.post(url, {"key": key, "version": "99", "r-what_happened": "from the future"})
    assert future.status_code == 409
    assert future.json()["conflict"]["rows"][0]["theirs"] == "as it is"
    assert Entry.objects.get(key=key).response["what_happened"] == "as it is"
    unknown = http.post(url, {"key": str(uuid.uuid4()), "version": "5", "r-what_happened": "?"})
    assert unknown.status_code == 404


def test_quick_exit_keeps_the_last_words_then_ends_the_session(cast):
    http = login(cast.alice.portal_user)
    key = str(uuid.uuid4())
    response = quick_exit_with_draft(
        http, cast.alice_assignment, key, "typed a second before leaving"
    )
    assert response.status_code == 204
    assert Entry.objects.get(key=key).response == {"what_happened": "typed a second before leaving"}
    assert http.get(reverse("homework:dashboard")).status_code == 302


def test_quick_exit_keeps_the_last_words_while_the_pages_save_is_still_on_the_way(cast):
    http = login(cast.alice.portal_user)
    key = str(uuid.uuid4())
    page = {"page": "f00dfeedcafe", "key": key, "version": "0"}
    saved = http.post(
        reverse("homework:autosave", args=[cast.alice_assignment.pk]),
        {**page, "save_number": "1", "r-what_happened": "typed"},
    )
    assert saved.status_code == 200
    # The page left before that save's reply came: its exit still says version 0.
    last_words = {**page, "save_number": "2", "r-what_happened": "typed, and then the rest"}
    response = http.post(
        reverse("homework:quick_exit"),
        {
            "beacon": "1",
            "draft-assignment": str(cast.alice_assignment.pk),
            **{f"draft-{name}": value for name, value in last_words.items()},
        },
    )
    assert response.status_code == 204
    assert Entry.objects.get(key=key).response == {"what_happened": "typed, and then the rest"}


def test_quick_exit_from_a_page_in_a_conflict_keeps_its_words_beside_the_other_draft(cast):
    """autosave.js sends them under the conflict's fresh key, version 0."""
    http = login(cast.alice.portal_user)
    url = reverse("homework:autosave", args=[cast.alice_assignment.pk])
    http.post(url, {"key": str(uuid.uuid4()), "version": "0", "r-what_happened": "A"})
    fresh_key = str(uuid.uuid4())
    response = quick_exit_with_draft(
        http, cast.alice_assignment, fresh_key, "B, typed on while the box was open"
    )
    assert response.status_code == 204
    kept = Entry.objects.get(key=fresh_key)
    assert kept.response == {"what_happened": "B, typed on while the box was open"}
    drafts = Entry.objects.filter(assignment=cast.alice_assignment, status=Entry.Status.DRAFT)
    other = drafts.exclude(key=fresh_key).get()
    assert (other.response, other.version) == ({"what_happened": "A"}, 1)  # as it was


def test_an_autosave_leaving_in_a_conflict_keeps_its_words_beside_the_other_draft(cast):
    """Signing out saves through the autosave (the session must outlive it),
    saying the page is leaving: its words are kept as a draft of their own."""
    http = login(cast.alice.portal_user)
    url = reverse("homework:autosave", args=[cast.alice_assignment.pk])
    http.post(url, {"key": str(uuid.uuid4()), "version": "0", "r-what_happened": "A"})
    fresh = {"key": str(uuid.uuid4()), "version": "0", "r-what_happened": "B"}
    assert http.post(url, fresh).status_code == 409  # an ordinary save is asked about
    assert http.post(url, {**fresh, "leaving": "1"}).status_code == 200
    drafts = Entry.objects.filter(assignment=cast.alice_assignment, status=Entry.Status.DRAFT)
    assert sorted(d.response["what_happened"] for d in drafts) == ["A", "B"]


@pytest.mark.parametrize(
    "page", [{"page": "short"}, {"page": "<script>x</script>"}, {"save_number": "-1"}]
)
def test_an_autosave_naming_its_page_badly_changes_nothing(cast, page):
    http = login(cast.alice.portal_user)
    url = reverse("homework:autosave", args=[cast.alice_assignment.pk])
    post = {"key": str(uuid.uuid4()), "version": "0", "page": "f00dfeedcafe", "save_number": "1"}
    response = http.post(url, {**post, **page, "r-what_happened": "x"})
    assert response.status_code == 400
    assert set(response.json()["errors"]) == set(page)
    assert Entry.objects.count() == 2  # the cast's two


def test_quick_exit_never_fails_on_a_bad_draft(cast):
    http = login(cast.alice.portal_user)
    for draft in (
        {
            "draft-assignment": str(cast.bob_assignment.pk),
            "draft-key": str(uuid.uuid4()),
            "draft-version": "0",
        },
        {"draft-assignment": "nonsense", "draft-key": "x"},
        {
            "draft-assignment": str(cast.alice_assignment.pk),
            "draft-key": str(cast.bob_entry.key),
            "draft-version": "1",
        },
    ):
        http = login(cast.alice.portal_user)
        response = http.post(reverse("homework:quick_exit"), {"beacon": "1", **draft})
        assert response.status_code == 204
    assert Entry.objects.count() == 2
    assert Entry.objects.get(pk=cast.bob_entry.pk).response == cast.bob_entry.response


def test_submit_conflict_page_lets_the_client_keep_their_text(cast):
    http = login(cast.alice.portal_user)
    url = reverse("homework:autosave", args=[cast.alice_assignment.pk])
    key = str(uuid.uuid4())
    http.post(url, {"key": key, "version": "0", "r-what_happened": "first"})
    http.post(url, {"key": key, "version": "1", "r-what_happened": "other tab"})
    form = {
        "key": key,
        "version": "1",
        **{f"r-{k}": v for k, v in written_record(what_happened="this tab").items()},
    }
    conflict = http.post(reverse("homework:do", args=[cast.alice_assignment.pk]), form)
    assert conflict.status_code == 409
    assert "other tab" in conflict.text and "this tab" in conflict.text
    assert 'name="version" value="2"' in conflict.text  # sending again replaces the other version
    again = http.post(
        reverse("homework:do", args=[cast.alice_assignment.pk]), form | {"version": "2"}
    )
    assert again.status_code == 302
    assert Entry.objects.get(key=key).response["what_happened"] == "this tab"


def test_every_sent_entry_is_reachable_a_page_at_a_time(cast):
    """A month of daily logs is hundreds of entries, and the oldest may matter most."""
    from homework.portal.looking_back import HISTORY_PAGE_SIZE

    now = timezone.now()
    oldest = EntryFactory.create(
        assignment=cast.alice_assignment, submitted_at=now - dt.timedelta(days=400)
    )
    for n in range(2 * HISTORY_PAGE_SIZE):
        EntryFactory.create(
            assignment=cast.alice_assignment, submitted_at=now - dt.timedelta(hours=n)
        )
    http = login(cast.alice.portal_user)
    url = reverse("homework:history")
    first = http.get(url)
    assert len(first.context["entries"]) == HISTORY_PAGE_SIZE
    assert "Page 1 of 3" in first.text and 'href="?page=2"' in first.text
    last = http.get(url + "?page=3")
    assert oldest in last.context["entries"]
    # Not a page number: the nearest page, never an error.
    assert http.get(url + "?page=abc").context["page"].number == 1
    assert http.get(url + "?page=999").context["page"].number == 3


def test_changing_a_worksheet_keeps_answers_to_questions_since_removed(cast):
    """The therapist took a question out after the client answered it: the
    edit form no longer shows it, but saving the edit must not delete it."""
    from tests.factories import RESPONSES, AssignmentFactory, ExerciseFactory, options_for

    exercise = ExerciseFactory.create(kind="worksheet", options=options_for("worksheet"))
    work = AssignmentFactory.create(client=cast.alice, exercise=exercise)
    answers = RESPONSES["worksheet"]()
    sent = services.entry_submit(
        user=cast.alice.portal_user,
        assignment_id=work.pk,
        key=uuid.uuid4(),
        base_version=0,
        data=answers,
        flags=Flags(),
    )
    removed = exercise.options["questions"][-1]["key"]
    kept = sent.response[removed]
    exercise.options = {
        **exercise.options,
        "questions": [q for q in exercise.options["questions"] if q["key"] != removed],
    }
    exercise.save(update_fields=["options"])
    edited = services.entry_edit(
        user=cast.alice.portal_user,
        key=sent.key,
        base_version=sent.version,
        data={key: value for key, value in answers.items() if key != removed},
        flags=Flags(),
    )
    assert edited.response[removed] == kept


def test_history_says_once_that_unread_entries_can_still_be_changed(cast):
    """Said once above the list, not on every line; not at all once
    everything listed has been read."""
    assignment = AssignmentFactory.create(client=cast.alice, exercise__kind="written_record")
    EntryFactory.create_batch(3, assignment=assignment)
    http = login(cast.alice.portal_user)
    page = " ".join(http.get(reverse("homework:history")).text.split())
    assert page.count("until your therapist marks it as read") == 1
    assert "you can still change it" not in page
    Entry.objects.filter(assignment__client=cast.alice).update(seen_at=timezone.now())
    page = " ".join(http.get(reverse("homework:history")).text.split())
    assert "until your therapist marks it as read" not in page


def test_the_note_box_is_not_marked_needed(cast):
    """The note is the form's only box: "(needed)" beside it reads as if a
    note were expected. Sending it empty is refused with its own words."""
    page = login(cast.alice.portal_user).get(reverse("homework:entry", args=[cast.alice_entry.key]))
    label = re.search(r'<label for="id_text">(.*?)</label>', page.text, re.S)
    assert label and "Add a note" in label[1]
    assert "needed" not in label[1]
    # The entry's own questions keep their mark where they are asked.
    edit = login(cast.alice.portal_user).get(
        reverse("homework:entry_edit", args=[cast.alice_entry.key])
    )
    assert re.search(r"What happened\?.*?\(needed\)</span></label>", edit.text)
