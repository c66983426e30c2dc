"""Every portal page, as a phone and a laptop see it, checked with axe-core.

The kinds are read from the registry, so a kind added later is covered here
without touching this file.
"""

from playwright.sync_api import expect
from pypdf import PdfReader

from homework.kinds import all_kinds
from homework.models import Assignment, Entry
from tests.browser.helpers import (  # noqa: F401 (alex is a fixture)
    a_sent_entry_of,
    alex,
    alex_signed_in,
    assert_accessible,
    assignment_of,
    sign_in,
)
from tests.helpers_entries import first_saying

KINDS = [kind.slug for kind in all_kinds()]


def assert_fits(page, width: int) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than a {width}px screen"


def assert_reads_well_on_a_phone_and_a_laptop(page, artifacts, name: str, shot: str) -> None:
    """At 360 and 1280 px: no sideways scrolling, nothing serious for axe, a screenshot kept."""
    for width in (360, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        assert_fits(page, width)
        assert_accessible(page, f"{name} at {width}px")
        page.screenshot(path=artifacts / f"{shot}-{width}.png", full_page=True)


def test_each_kinds_form_reads_well_on_a_phone_and_a_laptop(alex, new_context, artifacts):  # noqa: F811
    # One demo practice and one sign-in for every kind (each was a test of its
    # own, seeding and signing in again); each kind's form is still opened at
    # 360px and measured, and every kind's problems are reported together.
    page = alex_signed_in(new_context(360, 800).new_page())
    problems = {}
    for slug in KINDS:
        page.set_viewport_size({"width": 360, "height": 800})
        page.goto(f"/do/{assignment_of(alex, slug).pk}/")
        page.wait_for_selector("form.entry-form")
        try:
            assert page.title() == "Writing · Notebook"
            assert_reads_well_on_a_phone_and_a_laptop(
                page, artifacts, f"{slug} form", f"form-{slug}"
            )
        except AssertionError as problem:
            problems[slug] = str(problem)
    assert not problems, problems


def test_dashboard_reads_well_on_a_phone_and_a_laptop(alex, new_context, artifacts):  # noqa: F811
    page = alex_signed_in(new_context(360, 800).new_page())
    assert_reads_well_on_a_phone_and_a_laptop(page, artifacts, "dashboard", "dashboard")


def test_every_portal_page_has_no_serious_accessibility_problem(alex, new_context, artifacts):  # noqa: F811
    signed_out = new_context(360, 800).new_page()
    for path in (
        "/login/",
        "/password/reset/",
        "/password/reset/sent/",
        "/password/reset/MQ/x/",
        "/welcome/not-a-link/",
        "/welcome/sent/",
        "/help-now/",
        "/no-such-page/",  # the 404 page, with the exit and crisis lines
    ):
        signed_out.goto(path)
        assert_fits(signed_out, 360)
        assert_accessible(signed_out, path)
    signed_out.goto("/login/")
    signed_out.fill("input[name=username]", "alex@demo.test")
    signed_out.fill("input[name=password]", "not the password")
    signed_out.click("form.stack button[type=submit]")
    expect(signed_out.locator("#login-error")).to_be_visible()
    assert_accessible(signed_out, "login error")

    page = alex_signed_in(new_context(360, 800).new_page())
    entry = a_sent_entry_of(alex)
    for path in (
        "/",
        "/history/",
        f"/entries/{entry.key}/",
        f"/entries/{entry.key}/edit/",
        "/account/",
    ):
        page.goto(path)
        assert_fits(page, 360)
        assert_accessible(page, path)
        assert "Notebook" in page.title()
    page.screenshot(path=artifacts / "account-360.png", full_page=True)
    page.click("text=Set up two-step sign-in")
    page.wait_for_selector("svg.qr")
    assert_accessible(page, "two-step setup")
    page.fill("input[name=token]", "000000")
    page.click("text=Turn it on")
    expect(page.locator("#id_token_error")).to_be_visible()
    expect(page.locator("#id_token")).to_have_attribute("aria-invalid", "true")
    assert_accessible(page, "two-step setup with an error")
    page.screenshot(path=artifacts / "two-step-setup-360.png", full_page=True)

    page.goto(f"/entries/{entry.key}/")
    page.fill("textarea[name=text]", "")
    page.click("text=Add the note")
    expect(page.locator("#id_text_error")).to_be_visible()
    assert_accessible(page, "note with an error")
    page.goto("/history/")
    page.screenshot(path=artifacts / "history-360.png", full_page=True)


def test_a_form_can_be_filled_and_sent_with_the_keyboard_alone(alex, new_context):  # noqa: F811
    page = alex_signed_in(new_context(360, 800).new_page())
    page.goto(f"/do/{assignment_of(alex, 'written_record').pk}/")
    page.focus("textarea[name=r-what_happened]")
    page.keyboard.type("Written with the keyboard only.")
    page.keyboard.press("Tab")  # what was said or done
    page.keyboard.press("Tab")  # the distress slider
    slider = page.locator("#id_r-body_distress")
    expect(slider).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(slider).to_have_attribute("aria-valuetext", "6 out of 10")
    page.locator("button:has-text('Send to my therapist')").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Sent. Thank you")
    assert first_saying(Entry.objects.all(), what_happened="Written with the keyboard only.")


def test_a_client_downloads_only_the_exercises_they_tick(alex, new_context, artifacts):  # noqa: F811
    page = alex_signed_in(new_context(360, 800).new_page())
    page.goto("/account/")
    sent = Assignment.objects.filter(client=alex, entries__status="submitted").distinct()
    boxes = page.get_by_role("group", name="What to put in the PDF").get_by_role("checkbox")
    expect(boxes).to_have_count(sent.count())
    kept = sent.filter(exercise__kind="written_record").first()
    assert kept is not None and sent.count() > 1
    for box in boxes.all():  # untick all but the written record, with the keyboard
        if box.get_attribute("value") != str(kept.pk):
            box.focus()
            page.keyboard.press("Space")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download as PDF (to read or print)").click()
    pdf = PdfReader(download.value.path())
    text = " ".join(" ".join(p.extract_text() for p in pdf.pages).split())
    assert f"What I sent for {kept.exercise.title}," in text
    others = sent.exclude(pk=kept.pk).values_list("exercise__title", flat=True)
    assert not [title for title in others if title in text]

    # Nothing ticked: the page says what to do, and no file comes.
    page.locator(f'input[name="include"][value="{kept.pk}"]').uncheck()
    page.get_by_role("button", name="Download as PDF (to read or print)").click()
    expect(page.locator("#error-summary")).to_contain_text("Choose at least one exercise")
    expect(page.locator("#error-summary")).to_be_focused()
    assert_accessible(page, "the download's choice, refused")
