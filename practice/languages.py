"""The languages the practice offers, and the one each person reads: one home for the rule."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _


def offered_languages() -> list[tuple[str, str]]:
    """Each in its own name: a person looking for their language reads it in that language."""
    return [(code, name) for code, name in settings.LANGUAGES]


def is_offered(code: str) -> bool:
    return code in dict(settings.LANGUAGES)


def practice_language() -> str:
    return str(settings.LANGUAGE_CODE)


def language_or_default(code: str | None) -> str:
    """A person with no language set, or one no longer offered, reads the practice's."""
    if code and is_offered(code):
        return code
    return practice_language()


@contextmanager
def in_language(code: str | None) -> Iterator[str]:
    """Around everything rendered for one person (a page, an email, a text), then put back."""
    chosen = language_or_default(code)
    with translation.override(chosen):
        yield chosen


def language_choices() -> list[tuple[str, str]]:
    """Empty first, named for what it means: the practice's language, whichever that becomes."""
    default = dict(settings.LANGUAGES)[settings.LANGUAGE_CODE]
    return [("", _("The practice's language (%(language)s)") % {"language": default})] + [
        (code, name) for code, name in offered_languages()
    ]


class LanguageSelect(forms.Select):
    """Each language's name marked as that language, so a screen reader says it rightly."""

    def create_option(self, name: str, value: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(name, value, *args, **kwargs)
        if value:
            option["attrs"]["lang"] = value
        return option


def language_field(db_field: Any, **kwargs: Any) -> Any:
    """A person's language in any form: the offered ones, a code not offered refused."""
    return db_field.formfield(choices=language_choices(), widget=LanguageSelect, **kwargs)
