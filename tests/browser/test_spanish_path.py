"""Lucía's whole first path in Spanish, on a phone: from the invitation to the quick exit.

One browser session, as she would take it: the link her therapist gave her,
her password, the email that finishes it, her home page, an exercise written
and sent, her progress, her contact profile, and the quick exit. Every page
says it is Spanish (``<html lang="es">``), has nothing serious for axe, and
has no English sentence left (tests/english.py).
"""

from django.core import mail
from playwright.sync_api import expect

from clients.models import Client
from clients.services import client_invite
from homework.models import Entry
from practice.models import PracticeSettings
from tests.browser.helpers import assert_accessible, leave_with_shift, neutral_site, ready_to_send
from tests.english import english_sentences, practice_words
from tests.factories import AssignmentFactory, TherapistFactory
from tests.helpers import finish_link

SPANISH_LINES = "Si estás en peligro ahora, llama al 112.\nLínea 016 (24 horas): 016"


def assert_in_spanish(page, where: str) -> None:
    assert page.locator("html").get_attribute("lang") == "es", where
    assert_accessible(page, where)
    english = english_sentences(page.content(), practice_words())
    assert english == [], f"{where}: {english}"


def test_lucia_from_her_invitation_to_the_quick_exit_in_spanish(
    db, new_context, live_server, settings, artifacts
):
    settings.SITE_URL = live_server.url  # the links in the emails
    PracticeSettings.objects.filter(pk=1).update(crisis_resources_by_language={"es": SPANISH_LINES})
    ines = TherapistFactory.create(email="ines@example.test", name="Inés Romero", language="es")
    lucia = Client.objects.create(
        therapist=ines, display_name="Lucía", contact_email="lucia@example.test", language="es"
    )
    AssignmentFactory.create(
        client=lucia,
        created_by=ines,
        exercise__title="Guardar la imagen completa",
        exercise__instructions="Cuando pase algo difícil, escríbelo aquí mientras lo recuerdas.",
        exercise__language="es",
    )
    link = client_invite(actor=ines, client=lucia).url

    # Before she signs in, the pages follow her browser, which asks for Spanish.
    page = new_context(360, 780, locale="es-ES").new_page()
    neutral_site(page)
    page.goto(link)
    assert_in_spanish(page, "the invitation")
    page.fill("input[name=password1]", "puerto tranquilo 42")
    page.fill("input[name=password2]", "puerto tranquilo 42")
    page.click("form.stack button[type=submit]")
    expect(page.get_by_role("heading", name="Revisa tu correo")).to_be_visible()
    assert_in_spanish(page, "check your email")
    [message] = mail.outbox
    assert english_sentences(f"<p>{message.subject}</p><p>{message.body}</p>") == []
    page.goto(finish_link(message))
    assert_in_spanish(page, "finishing")
    page.click("text=Abrir mi cuaderno")

    # Signed in: her own language from here on, with the quick exit's first-visit note.
    expect(page.get_by_text("Tu cuaderno está listo")).to_be_visible()
    expect(page.locator("#exit-note")).to_be_visible()
    assert_in_spanish(page, "home, first visit")
    page.screenshot(path=artifacts / "spanish-home-360.png", full_page=True)

    page.get_by_role("link", name="Abrir").first.click()
    page.fill("textarea[name=r-what_happened]", "Lo primero que escribo aquí.")
    ready_to_send(page)
    assert_in_spanish(page, "the written record")
    page.click("text=Enviar a mi terapeuta")
    expect(page.get_by_text("Enviado. Gracias")).to_be_visible()
    assert Entry.objects.get(assignment__client=lucia).status == Entry.Status.SUBMITTED
    assert_in_spanish(page, "sent")

    page.get_by_role("link", name="Progreso").click()
    assert_in_spanish(page, "progress")
    page.get_by_role("link", name="Configuración").click()
    page.click("a[href='/account/contact/']")
    assert_in_spanish(page, "contact profile")
    page.screenshot(path=artifacts / "spanish-contact-360.png", full_page=True)

    leave_with_shift(page)
    page.wait_for_url("https://www.bbc.co.uk/**")
