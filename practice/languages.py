"""The languages the practice offers, and the one each person reads: one home for the rule."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.utils import translation


def offered_languages() -> list[tuple[str, str]]:
    """Each in its own name: a person looking for their language reads it in that language."""
    return [(code, name) for code, name in settings.LANGUAGES]


def is_offered(code: str) -> bool:
    return code in dict(settings.LANGUAGES)


def language_or_default(code: str | None) -> str:
    """A person with no language set, or one no longer offered, reads the practice's."""
    if code and is_offered(code):
        return code
    return str(settings.LANGUAGE_CODE)


@contextmanager
def in_language(code: str | None) -> Iterator[str]:
    """Around everything rendered for one person (a page, an email, a text), then put back."""
    chosen = language_or_default(code)
    with translation.override(chosen):
        yield chosen
