"""Reading a time zone as a therapist types it ("new york") into the IANA name that is stored."""

import difflib
import functools
import zoneinfo
from importlib import resources
from pathlib import Path
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

LONGEST = 64
# Regions whose names end in a real place: "US/Eastern" is not guessed from "eastern".
PLACES = frozenset(
    {
        "Africa",
        "America",
        "Antarctica",
        "Arctic",
        "Asia",
        "Atlantic",
        "Australia",
        "Europe",
        "Indian",
        "Pacific",
    }
)


# Everything else tzdata knows is an old spelling or machinery ("Factory"), not a place to live.
_PLACE_TABLES = ("zone.tab", "zone1970.tab")
UTC = "UTC"


# The two caches hold what tzdata's files say, read from disk once a process: the zones do not
# change while it runs, and the contact page would otherwise read hundreds of files a request.
@functools.cache
def zone_names() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


def _table_texts() -> list[str]:
    for directory in zoneinfo.TZPATH:
        found = [Path(directory, name) for name in _PLACE_TABLES]
        if all(path.is_file() for path in found):
            return [path.read_text(encoding="utf-8") for path in found]
    try:
        package = resources.files("tzdata").joinpath("zoneinfo")
        return [package.joinpath(name).read_text(encoding="utf-8") for name in _PLACE_TABLES]
    except (ModuleNotFoundError, OSError):
        return []


@functools.cache
def place_names() -> tuple[str, ...]:
    """Other zones are still read when typed in full, so a value stored before stays valid."""
    known = set(zone_names())
    listed = {
        line.split("\t")[2]
        for text in _table_texts()
        for line in text.splitlines()
        if line and not line.startswith("#") and line.count("\t") >= 2
    }
    if not listed:  # no tables here: the regions that name places will do
        listed = {name for name in known if name.split("/", 1)[0] in PLACES and "/" in name}
    return tuple(sorted((listed | {UTC}) & known))


def zone_in_words(zone: str) -> str:
    return place_of(zone) or zone


def place_of(zone: str) -> str | None:
    region, _slash, rest = zone.partition("/")
    if region not in PLACES or not rest:
        return None
    return rest.rsplit("/", 1)[-1].replace("_", " ")


def _key(typed: str) -> str:
    return "_".join(typed.split()).casefold()


def _by_key() -> dict[str, str]:
    return {_key(name): name for name in zone_names()}


def _by_city() -> dict[str, tuple[str, ...]]:
    cities: dict[str, list[str]] = {}
    for name in zone_names():
        if name.split("/", 1)[0] in PLACES and "/" in name:
            cities.setdefault(_key(name.rsplit("/", 1)[1]), []).append(name)
    return {city: _prefer_current(names) for city, names in cities.items()}


def _prefer_current(names: list[str]) -> tuple[str, ...]:
    # "America/Buenos_Aires" is an old alias: the deeper name is the one tzdata keeps.
    deepest = [name for name in names if name.count("/") == 2]
    return (deepest[0],) if len(deepest) == 1 else tuple(names)


def _close_to(key: str) -> list[str]:
    found: list[str] = []
    by_city, by_key = _by_city(), _by_key()
    keys = [_key(name) for name in place_names()]
    for match in difflib.get_close_matches(key, [*keys, *by_city], n=5, cutoff=0.75):
        for name in by_city.get(match) or (by_key[match],):
            if name not in found:
                found.append(name)
    return found[:3]


def resolve_time_zone(typed: str) -> str:
    typed = typed.strip()
    if len(typed) > LONGEST:
        raise ValidationError(
            _("That is too long to be a time zone. Try the city, such as London."),
            code="too_long",
        )
    key = _key(typed)
    by_key = _by_key()
    if key in by_key:
        return by_key[key]
    found = _by_city().get(key, ())
    if len(found) == 1:
        return found[0]
    if found:
        raise ValidationError(
            _("“%(typed)s” could be more than one time zone: %(names)s. Choose one."),
            code="ambiguous",
            params={"typed": typed, "names": ", ".join(found)},
        )
    close = _close_to(key)
    if close:
        raise ValidationError(
            _("“%(typed)s” is not a time zone we know. Did you mean %(names)s?"),
            code="unknown",
            params={"typed": typed, "names": ", ".join(close)},
        )
    raise ValidationError(
        _(
            "“%(typed)s” is not a time zone we know. Try the city, such as London "
            "or New York, or choose from the list."
        ),
        code="unknown",
        params={"typed": typed},
    )


def _options() -> SafeString:
    return format_html_join("", '<option value="{}">', ((name,) for name in place_names()))


class TimeZoneInput(forms.TextInput):
    """The browser's own suggestions (a <datalist>): no script needed."""

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> SafeString:
        list_id = f"{(attrs or {}).get('id') or 'id_' + name}_zones"
        attrs = {**(attrs or {}), "list": list_id, "autocomplete": "off", "spellcheck": "false"}
        box = super().render(name, value, attrs, renderer)
        return format_html('{}<datalist id="{}">{}</datalist>', box, list_id, _options())


class TimeZoneField(forms.CharField):
    widget = TimeZoneInput

    def __init__(self, **kwargs: Any) -> None:
        kwargs["help_text"] = _(
            "Where the client lives: type their city, such as London or New York. Their "
            "days and times run on it (today's exercise, due dates, when something happened)."
        )
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        typed = super().to_python(value)
        if not typed:  # "required" says it; nothing to read
            return ""
        return resolve_time_zone(typed)
