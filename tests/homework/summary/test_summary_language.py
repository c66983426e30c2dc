"""The summary is printed in the language of the staff member it is for, with no request around
(the evening task, the command); the client's words stay exactly as they wrote them."""

import re

import pytest
from django.core.management import call_command

from homework import tasks
from homework.selectors.period import PeriodQuery
from homework.services.stored_summaries import summary_storage
from homework.summary import services
from practice.encrypted_files import encrypted_file_read
from practice.models import User
from tests.factories import SessionFactory

from .conftest import pdf_text
from .test_tasks import tomorrow_at

pytestmark = pytest.mark.django_db

# Set in capitals by the style sheet.
HEADINGS = {"es": "RESUMEN DE LA SESIÓN", "": "SESSION SUMMARY"}


def speaks(user: User, language: str) -> None:
    User.objects.filter(pk=user.pk).update(language=language)
    user.refresh_from_db()


@pytest.mark.parametrize(("language", "other"), [("es", ""), ("", "es")], ids=["es", "en"])
def test_the_evening_task_prints_in_the_therapists_language(cast, language, other):
    speaks(cast.tara, language)
    session = SessionFactory.create(client=cast.alice, starts_at=tomorrow_at(10))
    name = tasks.prepare_session_summary.delay(session.pk).get()
    assert name is not None
    text = pdf_text(encrypted_file_read(storage=summary_storage(), name=name))
    assert HEADINGS[language] in text.upper() and HEADINGS[other] not in text.upper()
    assert cast.alice_entry.response["what_happened"] in text  # as written, never translated


def test_the_command_prints_in_the_actors_language(cast, tmp_path):
    speaks(cast.morgan, "es")
    out = tmp_path / "s.pdf"
    call_command(
        "render_summary", str(cast.alice.pk), "--out", str(out), "--actor", "morgan@example.test"
    )
    assert HEADINGS["es"] in pdf_text(out.read_bytes()).upper()


def test_each_language_keeps_its_own_stored_copy(cast):
    speaks(cast.tara, "es")
    spanish = services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    english = services.summary_pdf(user=cast.morgan, client=cast.alice, query=PeriodQuery())
    assert HEADINGS["es"] in pdf_text(spanish.content).upper()
    assert HEADINGS[""] in pdf_text(english.content).upper()
    again = [
        services.summary_pdf(user=user, client=cast.alice, query=PeriodQuery())
        for user in (cast.tara, cast.morgan)
    ]
    assert all(pdf.from_storage for pdf in again)


SPANISH_DAY = re.compile(r"\b\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sep|oct|nov|dic) de \d{4}\b")
CAPITAL_MONTH = re.compile(r"\b\d{1,2} (Ene|Feb|Mar|Abr|May|Jun|Jul|Ago|Sep|Oct|Nov|Dic|Dec|Aug)\b")


def test_a_spanish_summarys_dates_read_as_spanish_writes_them(cast):
    speaks(cast.tara, "es")
    pdf = services.summary_pdf(user=cast.tara, client=cast.alice, query=PeriodQuery())
    text = pdf_text(pdf.content)
    assert SPANISH_DAY.search(text), text[:400]
    assert not CAPITAL_MONTH.search(text), CAPITAL_MONTH.search(text)
