"""Turning our own HTML into PDF, with nothing fetched from outside.

Client text ends up in these documents. Even though templates escape it,
the renderer itself only ever loads the project's static files and
``data:`` URIs: no network, no ``file://``, no redirects.

WeasyPrint is imported here, at module import, so a worker pays for it
once at start-up rather than on every render.
"""

import contextlib
import functools
import gc
import hashlib
import logging
import mimetypes
import os
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import weasyprint
from django.conf import settings
from django.contrib.staticfiles import finders
from weasyprint.text import ffi as weasyprint_ffi
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from practice import parser_cache

logger = logging.getLogger(__name__)

parser_cache.mend()


def fonttools_fallback() -> bool:
    """Whether WeasyPrint would subset fonts with fontTools instead of HarfBuzz.

    It does when Debian's libharfbuzz-subset0 is missing, silently and about
    2.7 times slower; we say so once, when a process first loads this module.
    """
    subset = weasyprint_ffi.harfbuzz_subset
    return not (subset and weasyprint_ffi.harfbuzz.hb_version_atleast(4, 1, 0))


if fonttools_fallback():
    logger.warning(
        "WeasyPrint is subsetting fonts with its fontTools fallback (slow): "
        "install Debian's libharfbuzz-subset0 (make system-deps)."
    )

# Templates link static files as {% static %} paths; resolved against this
# made-up origin they reach the fetcher below, and nothing else does.
BASE_URL = "https://practice.invalid/"
_STATIC_PREFIX = BASE_URL.rstrip("/") + "/" + settings.STATIC_URL.lstrip("/")


class BlockedFetch(ValueError):
    """A document asked for something outside the project's own static files."""


class StaticFilesFetcher(URLFetcher):
    """WeasyPrint's fetcher, narrowed to our static files and ``data:`` URIs.

    Anything else (http, ``file://``, another path on our made-up origin) is
    refused before any of the library's handlers runs; ``data:`` URIs go to
    the library's own decoder with every other protocol and redirects off, so
    even a mistake here cannot open a socket or a file.
    """

    def __init__(self) -> None:
        super().__init__(timeout=1, allowed_protocols={"data"}, allow_redirects=False)

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        if url.startswith("data:"):
            return super().fetch(url, headers)
        if url.startswith(_STATIC_PREFIX):
            relative = url.removeprefix(_STATIC_PREFIX).split("?", 1)[0].split("#", 1)[0]
            path = finders.find(relative) if ".." not in relative else None
            if isinstance(path, str):
                with open(path, "rb") as handle:
                    body = handle.read()
                # WeasyPrint ignores a stylesheet whose type it is not told.
                mime_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
                return URLFetcherResponse(url, body, headers={"Content-Type": mime_type})
        logger.warning("Blocked a PDF resource fetch: %.200s", url)
        raise BlockedFetch(url)


# Holds no state between fetches: one for the process, shared by threads.
safe_url_fetcher = StaticFilesFetcher()


@functools.cache
def _parsed_stylesheet(path: str, modified: float) -> weasyprint.CSS:
    return weasyprint.CSS(filename=path, base_url=BASE_URL, url_fetcher=safe_url_fetcher)


@functools.cache
def _digest(paths: tuple[str, ...], modified: tuple[float, ...]) -> str:
    digest = hashlib.sha256(weasyprint.__version__.encode())
    for path in paths:
        with open(path, "rb") as handle:
            digest.update(handle.read())
    return digest.hexdigest()


def _found(name: str) -> str:
    path = finders.find(name)
    if not isinstance(path, str):
        raise FileNotFoundError(name)
    return path


def static_stylesheet(name: str) -> weasyprint.CSS:
    """One of our static stylesheets, parsed once per process (and again if it
    changes on disk). Parsing is a good part of a small document's render time."""
    path = _found(name)
    return _parsed_stylesheet(path, os.path.getmtime(path))


def rendering_digest(stylesheets: Sequence[str] = ()) -> str:
    """What, besides a document's HTML, decides the PDF ``render_pdf`` makes
    of it: these stylesheets as they are on disk, and the engine's version.
    A PDF kept for its HTML alone would outlive a release that changed
    either (read once per process, and again if a sheet changes on disk)."""
    paths = tuple(_found(name) for name in stylesheets)
    return _digest(paths, tuple(os.path.getmtime(path) for path in paths))


_local = threading.local()


def _font_config() -> FontConfiguration:
    """One font configuration per thread, kept: a fresh one per document
    (WeasyPrint's default) looks every font up again, a fifth of a small
    document's render time. Per thread because Pango's font maps are not
    thread-safe; safe to keep because our documents declare no @font-face."""
    config = getattr(_local, "font_config", None)
    if config is None:
        config = _local.font_config = FontConfiguration()
    return config


@contextlib.contextmanager
def collector_paused_in_worker(task: Any) -> Iterator[None]:
    """Pause the cyclic garbage collector while a Celery worker process renders.

    A render builds tens of thousands of young objects that the collector
    walks again and again (about a fifth of a summary's render). A prefork
    worker process runs one task at a time, so nothing else feels the pause;
    a task run eagerly or called directly, in a web process, renders with
    the collector on.
    """
    in_worker = not (task.request.is_eager or task.request.called_directly)
    if not in_worker or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)  # what the render left behind, paid for by the render


def render_pdf(html: str, *, stylesheets: Sequence[str] = ()) -> bytes:
    """Render a document of ours to PDF bytes. Pure: no database, no network.

    ``stylesheets`` names static files (e.g. ``css/summary.css``) applied
    after the document's own styles.
    """
    document = weasyprint.HTML(string=html, base_url=BASE_URL, url_fetcher=safe_url_fetcher)
    return document.write_pdf(  # type: ignore[no-any-return]
        stylesheets=[static_stylesheet(name) for name in stylesheets],
        font_config=_font_config(),
        presentational_hints=False,
        # Headings, paragraphs and pictures' alt text marked for screen
        # readers: a client's export may go to a solicitor or a court,
        # and a therapist may read the summary by ear.
        pdf_tags=True,
    )
