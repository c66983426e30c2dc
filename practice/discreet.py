"""Words that must not appear where someone other than the client may read them."""

import re

# Stems, matched at a word's start; a space stands for any spaces, hyphens or dots.
CLINICAL_STEMS = (
    "home work",
    "therap",
    "psychotherap",
    "psycholog",
    "psychiatr",
    "counsel",
    "abus",
    "exercis",
    "worksheet",
    "trauma",
    "clinic",
    "mental health",
    "domestic violence",
    "session",
    "safety",
    "urge",
)
# Innocent inside a word ("surgery", "burger").
_WORD_START_ONLY = {"urge"}

_CLINICAL = re.compile(
    r"\b(?:"
    + "|".join(r"[\W_]*".join(re.escape(part) for part in stem.split()) for stem in CLINICAL_STEMS)
    + r")\w*",
    re.IGNORECASE,
)


def clinical_words(text: str) -> list[str]:
    return [match.group(0) for match in _CLINICAL.finditer(text or "")]


# An address runs its words together ("harbourtherapy.example"): no word boundary.
_CLINICAL_ANYWHERE = re.compile(
    "|".join(
        (r"\b" if stem in _WORD_START_ONLY else "")
        + r"[\W_]*".join(re.escape(part) for part in stem.split())
        for stem in CLINICAL_STEMS
    ),
    re.IGNORECASE,
)


def clinical_words_in_address(address: str) -> list[str]:
    return [match.group(0) for match in _CLINICAL_ANYWHERE.finditer(address or "")]
