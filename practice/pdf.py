"""HTML to PDF with nothing fetched from outside: only our static files and data: URIs."""

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
    """WeasyPrint silently falls back to the slower fontTools without libharfbuzz-subset0."""
    subset = weasyprint_ffi.harfbuzz_subset
    return not (subset and weasyprint_ffi.harfbuzz.hb_version_atleast(4, 1, 0))


if fonttools_fallback():
    logger.warning(
        "WeasyPrint is subsetting fonts with its fontTools fallback (slow): "
        "install Debian's libharfbuzz-subset0 (make system-deps)."
    )

# Static paths resolve against this made-up origin, which only the fetcher below serves.
BASE_URL = "https://practice.invalid/"
_STATIC_PREFIX = BASE_URL.rstrip("/") + "/" + settings.STATIC_URL.lstrip("/")


class BlockedFetch(ValueError):
    """A document asked for something outside the project's own static files."""


class StaticFilesFetcher(URLFetcher):
    """Anything else is refused before any of the library's handlers runs."""

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
    """Parsed once per process: parsing is a good part of a small document's render time."""
    path = _found(name)
    return _parsed_stylesheet(path, os.path.getmtime(path))


def rendering_digest(stylesheets: Sequence[str] = ()) -> str:
    """A PDF kept for its HTML alone would outlive a release that changed these."""
    paths = tuple(_found(name) for name in stylesheets)
    return _digest(paths, tuple(os.path.getmtime(path) for path in paths))


_local = threading.local()


def _font_config() -> FontConfiguration:
    """Kept per thread (Pango is not thread-safe): a fresh one looks every font up again."""
    config = getattr(_local, "font_config", None)
    if config is None:
        config = _local.font_config = FontConfiguration()
    return config


@contextlib.contextmanager
def collector_paused_in_worker(task: Any) -> Iterator[None]:
    """A prefork worker renders one task at a time, so nothing else feels the pause."""
    in_worker = not (task.request.is_eager or task.request.called_directly)
    if not in_worker or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)


def render_pdf(html: str, *, stylesheets: Sequence[str] = ()) -> bytes:
    document = weasyprint.HTML(string=html, base_url=BASE_URL, url_fetcher=safe_url_fetcher)
    return document.write_pdf(  # type: ignore[no-any-return]
        stylesheets=[static_stylesheet(name) for name in stylesheets],
        font_config=_font_config(),
        presentational_hints=False,
        # Tagged for screen readers: an export may go to a court, a summary be read by ear.
        pdf_tags=True,
    )
