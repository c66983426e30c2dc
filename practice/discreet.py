"""Words that must not appear where someone other than the client may read them."""

import re

# Stems, matched at a word's start; a space stands for any spaces, hyphens or dots; a vowel
# matches its accented forms too ("psicologo" finds "psicólogo"). Every language offered is
# checked in every message: a client may be sent one in either.
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
    "suicid",
    # Spanish
    "terap",
    "psicoterap",
    "psicolog",
    "psiquiatr",
    "tarea",
    "deberes",
    "ejercici",
    "hoja de trabajo",
    "ficha de trabajo",
    "maltrat",
    "violen",
    "agres",
    "victim",
    "sesion",
    "consejer",
    "consultorio",
    "salud mental",
    "plan de seguridad",
    "impuls",
    "tratamient",
    "pacient",
    "refugi",
    "autolesi",
)
# Innocent inside a word ("surgery", "burger"; "possesion", "guitarea").
_WORD_START_ONLY = {"urge", "tarea", "sesion", "agres", "impuls", "pacient", "refugi"}
_ACCENTED = {"a": "aá", "e": "eé", "i": "ií", "o": "oó", "u": "uúü"}


def _letters(part: str) -> str:
    return "".join(
        f"[{_ACCENTED[char]}]" if char in _ACCENTED else re.escape(char) for char in part
    )


def _stem_pattern(stem: str) -> str:
    return r"[\W_]*".join(_letters(part) for part in stem.split())


_CLINICAL = re.compile(
    r"\b(?:" + "|".join(_stem_pattern(stem) for stem in CLINICAL_STEMS) + r")\w*",
    re.IGNORECASE,
)


def clinical_words(text: str) -> list[str]:
    return [match.group(0) for match in _CLINICAL.finditer(text or "")]


# An address runs its words together ("harbourtherapy.example"): no word boundary.
_CLINICAL_ANYWHERE = re.compile(
    "|".join(
        (r"\b" if stem in _WORD_START_ONLY else "") + _stem_pattern(stem) for stem in CLINICAL_STEMS
    ),
    re.IGNORECASE,
)


def clinical_words_in_address(address: str) -> list[str]:
    return [match.group(0) for match in _CLINICAL_ANYWHERE.finditer(address or "")]
