"""Whether a message the system sends could tell a reader over a shoulder what it is about."""

from email.message import Message as MimeMessage

from django.core.mail import EmailMessage

from practice.discreet import clinical_words

# The fixed list, checked word by word as plain text (the project's
# own list, practice.discreet.CLINICAL_STEMS, must catch each one too).
FORBIDDEN_WORDS = (
    "therapy",
    "therapist",
    "homework",
    "exercise",
    "abuse",
    "trauma",
    "session",
    "urge",
    "safety",
    "counselling",
    "worksheet",
    "clinic",
)

# The same in Spanish: the words and those like them.
FORBIDDEN_WORDS_ES = (
    "terapia",
    "tarea",
    "ejercicio",
    "abuso",
    "maltrato",
    "violencia",
    "psicólogo",
    "sesión",
    "trauma",
    "hoja de trabajo",
)


def readable_parts(email: EmailMessage) -> list[str]:
    """Everything a reader of ``email`` can see: every header, and every
    part's body decoded (quoted-printable or base64 would hide a word)."""
    mime = email.message()
    parts = [f"{name}: {value}" for name, value in mime.items()]
    for part in mime.walk():
        payload = part.get_payload(decode=True) if isinstance(part, MimeMessage) else None
        if isinstance(payload, bytes):
            parts.append(payload.decode(part.get_content_charset() or "utf-8"))
    return parts


def assert_discreet(*texts: str, canaries: tuple[str, ...] = ()) -> None:
    """None of the forbidden words (nor the project's clinical stems, nor any
    of ``canaries``: strings planted in a client's data) appear in ``texts``."""
    for text in texts:
        lowered = text.lower()
        found = [word for word in (*FORBIDDEN_WORDS, *FORBIDDEN_WORDS_ES) if word in lowered]
        found += clinical_words(text)
        found += [canary for canary in canaries if canary.lower() in lowered]
        assert not found, f"{found} in {text!r}"
