"""Mends tinyhtml5 2.x's pattern cache, which files each pattern under the wrong key (slow)."""

import re
from collections.abc import Iterable
from importlib import metadata

import tinyhtml5.inputstream

AFFECTED_VERSIONS = {"2.0.0", "2.1.0"}


class PatternCache(dict[tuple[Iterable[str], bool], re.Pattern[str]]):
    def __missing__(self, key: tuple[Iterable[str], bool]) -> re.Pattern[str]:
        characters, opposite = key
        escaped = "".join(f"\\x{ord(character):02x}" for character in characters)
        pattern = re.compile(f"[{escaped}]+" if opposite else f"[^{escaped}]+")
        self[key] = pattern
        return pattern


def mend() -> bool:
    if metadata.version("tinyhtml5") not in AFFECTED_VERSIONS:
        return False
    if not isinstance(getattr(tinyhtml5.inputstream, "characters_until_regex", None), dict):
        return False
    if not isinstance(tinyhtml5.inputstream.characters_until_regex, PatternCache):
        tinyhtml5.inputstream.characters_until_regex = PatternCache()
    return True
