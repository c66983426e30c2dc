"""Words that must not appear where someone other than the client may read them.

A reminder lands in an inbox or on a lock screen that a partner may see. Its
sender name and subject are the practice's choice, and must stay neutral:
nothing that says "therapy", "abuse" or "homework" to a reader over a shoulder.
This is the project's one list: the practice settings refuse these words, and
the tests of every message the system sends look for them.
"""

import re

# Stems, so "therap" catches therapy, therapist and therapeutic; matched at the
# start of a word, so "exercise" is caught but "Bexercise" (a name) is not. A
# space in a stem stands for any spaces, hyphens or dots a writer puts there
# ("mental-health", "home  work").
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
    # Also catches "urgent": an alarm, which a reminder must not sound either.
    "urge",
)
# Inside a word these are innocent ("surgery", "burger"): an address is
# searched for them only where a word starts.
_WORD_START_ONLY = {"urge"}

_CLINICAL = re.compile(
    r"\b(?:"
    + "|".join(r"[\W_]*".join(re.escape(part) for part in stem.split()) for stem in CLINICAL_STEMS)
    + r")\w*",
    re.IGNORECASE,
)


def clinical_words(text: str) -> list[str]:
    """The clinical words in ``text``, as written there, in order."""
    return [match.group(0) for match in _CLINICAL.finditer(text or "")]


# The same stems anywhere in a word: an address or a host name runs its words
# together ("harbourtherapy.example"), with no word boundary to start from.
_CLINICAL_ANYWHERE = re.compile(
    "|".join(
        (r"\b" if stem in _WORD_START_ONLY else "")
        + r"[\W_]*".join(re.escape(part) for part in stem.split())
        for stem in CLINICAL_STEMS
    ),
    re.IGNORECASE,
)


def clinical_words_in_address(address: str) -> list[str]:
    """The clinical stems in an email address or host name, as written there."""
    return [match.group(0) for match in _CLINICAL_ANYWHERE.finditer(address or "")]
