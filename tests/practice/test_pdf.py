import gc
import io
import logging

import pytest
import weasyprint
from pypdf import PdfReader
from weasyprint.pdf.fonts import Font
from weasyprint.text import ffi as weasyprint_ffi
from weasyprint.urls import URLFetcher

from practice import pdf
from practice.pdf import BASE_URL, BlockedFetch, render_pdf, safe_url_fetcher
from tests.listener import Listener


def test_renders_a_pdf():
    assert render_pdf("<h1>Hello</h1>").startswith(b"%PDF")


def test_pdfs_are_tagged_for_screen_readers():
    """Headings and paragraphs marked up: a client's export may be read by ear."""
    catalog = PdfReader(io.BytesIO(render_pdf("<h1>Hello</h1><p>Words.</p>"))).root_object
    assert catalog["/MarkInfo"]["/Marked"]  # type: ignore[index]
    assert "/StructTreeRoot" in catalog


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/",
        "file:///etc/passwd",
        f"{BASE_URL}static/../../etc/passwd",
        f"{BASE_URL}elsewhere/style.css",
        "https://example.org/static/favicon.svg",
    ],
)
def test_fetcher_refuses_everything_but_our_static_files(url):
    with pytest.raises(BlockedFetch):
        safe_url_fetcher(url)


def test_fetcher_serves_our_static_files_and_data_uris():
    assert b"<svg" in safe_url_fetcher(f"{BASE_URL}static/favicon.svg").read()
    assert safe_url_fetcher("data:text/plain,hi").read() == b"hi"


def test_the_engine_is_past_its_ssrf_advisory_and_uses_our_fetcher_class():
    """WeasyPrint before 70.0 carries a published SSRF advisory; from 70.0 on
    a fetcher is a ``URLFetcher`` (a plain function fails every fetch)."""
    assert int(weasyprint.__version__.split(".")[0]) >= 70
    assert isinstance(safe_url_fetcher, URLFetcher)


def test_the_fetcher_refuses_a_redirect_or_protocol_even_through_the_library(listener):
    """Past our own checks, the library's handlers are narrowed too: only
    ``data:`` and no redirects, so nothing it is handed reaches the network."""
    with pytest.raises(ValueError, match="disallowed protocol"):
        URLFetcher.fetch(safe_url_fetcher, f"{listener.url}x.css")
    with pytest.raises(ValueError, match="disallowed protocol"):
        URLFetcher.fetch(safe_url_fetcher, "file:///etc/passwd")
    assert listener.knocks() == 0


def test_static_files_come_with_their_type_so_stylesheets_apply():
    fetched = safe_url_fetcher(f"{BASE_URL}static/css/summary.css")
    assert fetched.content_type == "text/css"
    styled = render_pdf(
        '<link rel="stylesheet" href="/static/css/summary.css"><h1 class="masthead__client">Hi</h1>'
    )
    plain = render_pdf('<h1 class="masthead__client">Hi</h1>')
    assert styled != plain


@pytest.fixture
def listener():
    server = Listener()
    yield server
    server.close()


def test_raw_html_cannot_reach_the_network_or_the_disk(listener):
    """The second line of defence: even unescaped markup fetches nothing."""
    html = f"""
      <link rel="stylesheet" href="{listener.url}s.css">
      <link rel="attachment" href="file:///etc/passwd">
      <link rel="attachment" href="{listener.url}a.bin">
      <style>@import url({listener.url}i.css); body {{ background: url(file:///dev/urandom) }}</style>
      <img src="{listener.url}i.png"><img src="file:///etc/hostname">
      <p style="background: url({listener.url}bg.png)">text</p>
      <a rel="attachment" href="{listener.url}x">x</a>
    """
    document = render_pdf(html)
    assert listener.knocks() == 0  # counts connections not yet accepted too
    assert PdfReader(io.BytesIO(document)).attachments == {}


def test_fonts_are_subset_with_harfbuzz_not_the_fonttools_fallback(monkeypatch, caplog):
    assert not pdf.fonttools_fallback(), "install libharfbuzz-subset0 (make system-deps)"
    fallbacks: list[object] = []
    monkeypatch.setattr(Font, "_fonttools_subset", lambda *args: fallbacks.append(args))
    with caplog.at_level(logging.WARNING):
        render_pdf("<p>Plain words, and a few more: àéîõü — “quotes”.</p>")
    assert fallbacks == []
    assert not [r for r in caplog.records if "subset" in r.getMessage().lower()]


def test_a_render_logs_no_progress_steps(caplog):
    """WeasyPrint 70 logs seven INFO lines a render; a worker's log would be them."""
    with caplog.at_level(logging.INFO):
        render_pdf("<p>One</p>")
    assert not [r for r in caplog.records if r.name.startswith("weasyprint.progress")]


def test_a_missing_harfbuzz_subset_library_is_noticed(monkeypatch):
    monkeypatch.setattr(weasyprint_ffi, "harfbuzz_subset", None)
    assert pdf.fonttools_fallback()


class _Task:
    def __init__(self, *, is_eager: bool, called_directly: bool = False) -> None:
        self.request = type(
            "Request", (), {"is_eager": is_eager, "called_directly": called_directly}
        )()


def test_a_worker_renders_with_the_collector_paused_and_turns_it_back_on():
    with pdf.collector_paused_in_worker(_Task(is_eager=False)):
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), pdf.collector_paused_in_worker(_Task(is_eager=False)):
        raise RuntimeError("a failed render")
    assert gc.isenabled()


def test_a_render_in_a_web_process_leaves_the_collector_alone():
    with pdf.collector_paused_in_worker(_Task(is_eager=True)):
        assert gc.isenabled()
    with pdf.collector_paused_in_worker(_Task(is_eager=False, called_directly=True)):
        assert gc.isenabled()
    gc.disable()
    try:
        with pdf.collector_paused_in_worker(_Task(is_eager=False)):
            pass
        assert not gc.isenabled()  # turned off elsewhere: stays off
    finally:
        gc.enable()
