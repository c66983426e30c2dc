"""Mends the pattern cache of tinyhtml5, the HTML parser WeasyPrint uses.

tinyhtml5 2.x means to compile one pattern per set of stop characters and
keep it, but stores it under the wrong key: ``characters = cache[key] =
pattern`` binds the name before the subscript is evaluated, so the pattern
is filed under itself and never found again. It is built anew for every run
of text and every attribute value the parser reads: a twentieth of a session
summary's render time here, for a document with few tags even more.

A cache that builds a missing pattern, exactly as the library does, and files
it under the key the library looks up, mends that. Only the versions known to
have the slip are touched; the pin in pyproject.toml keeps us on one of them,
and tests/practice/test_parser_cache.py holds the parser's output unchanged.
"""

import re
from collections.abc import Iterable
from importlib import metadata

import tinyhtml5.inputstream

AFFECTED_VERSIONS = {"2.0.0", "2.1.0"}


class PatternCache(dict[tuple[Iterable[str], bool], re.Pattern[str]]):
    """``(stop characters, opposite)`` to the pattern tinyhtml5's
    ``chars_until`` builds for them."""

    def __missing__(self, key: tuple[Iterable[str], bool]) -> re.Pattern[str]:
        characters, opposite = key
        escaped = "".join(f"\\x{ord(character):02x}" for character in characters)
        pattern = re.compile(f"[{escaped}]+" if opposite else f"[^{escaped}]+")
        self[key] = pattern
        return pattern


def mend() -> bool:
    """Install the cache; whether it was (only for the affected versions)."""
    if metadata.version("tinyhtml5") not in AFFECTED_VERSIONS:
        return False
    if not isinstance(getattr(tinyhtml5.inputstream, "characters_until_regex", None), dict):
        return False
    if not isinstance(tinyhtml5.inputstream.characters_until_regex, PatternCache):
        tinyhtml5.inputstream.characters_until_regex = PatternCache()
    return True
