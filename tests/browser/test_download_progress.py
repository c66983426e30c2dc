"""A long notebook's PDF in a browser: the progress page says how it is going
in place, with no reload, and offers the file once it is ready."""

from playwright.sync_api import expect
from pypdf import PdfReader

from homework.models import PreparedDownload
from homework.portal.export_forms import ExportChoiceForm
from homework.services import downloads
from tests.browser.helpers import assert_accessible, sign_in, wait_for_db
from tests.factories import PASSWORD


def test_the_progress_page_offers_the_pdf_when_it_is_ready(cast, page, monkeypatch):
    monkeypatch.setattr(ExportChoiceForm, "LONG_NOTEBOOK", 1)
    # Built below, by the test, while the page waits: not in a thread of the server.
    monkeypatch.setattr(downloads, "run_in_thread", lambda pk, attempt: None)
    sign_in(page, "alice@example.test", PASSWORD)
    page.goto("/account/")
    page.get_by_role("button", name="Download as PDF (to read or print)").click()
    page.wait_for_url("**/account/download/progress/")
    status = page.get_by_role("status")
    expect(status).to_have_text("Your PDF is being put together.")
    expect(page.get_by_role("link", name="Check again")).to_be_visible()
    expect(page.get_by_role("button", name="Download the PDF")).to_be_hidden()
    assert_accessible(page, "the download, being prepared")

    download = wait_for_db(lambda: PreparedDownload.objects.first())
    downloads.download_build(download_id=download.pk, attempt=download.attempt)
    expect(status).to_have_text("Your PDF is ready.")  # the same region, updated in place
    expect(page.get_by_role("link", name="Check again")).to_be_hidden()
    assert_accessible(page, "the download, ready")
    with page.expect_download() as fetched:
        page.get_by_role("button", name="Download the PDF").click()
    assert len(PdfReader(fetched.value.path()).pages) >= 1
    assert not PreparedDownload.objects.exists()
