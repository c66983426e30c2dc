"""A client's words print in whatever script they wrote them in.

The PDFs set DejaVu, which has no Chinese, Japanese, Korean or Indic
letters, and few emoji: the engine borrows them from another installed face
(the project installs Noto: make system-deps), and without one they vanish
from the page without an error."""

import pytest
from django.urls import reverse

from tests.conftest import login

from .conftest import add, pdf_text
from .test_render import pdf_for

pytestmark = pytest.mark.django_db

# "Hello" in the languages a practice in the UK or the US is likely to meet.
GREETINGS = {
    "Chinese": "你好",
    "Japanese": "こんにちは",
    "Korean": "안녕하세요",
    "Hindi": "नमस्ते",
    "Bengali": "নমস্কার",
    "Punjabi": "ਸਤ ਸ੍ਰੀ ਅਕਾਲ",
    "Tamil": "வணக்கம்",
    "Thai": "สวัสดี",
    "Amharic": "ሰላም",
    "Arabic": "مرحبا",
    "Hebrew": "שלום",
    "Greek": "Γειά σου",
    "Russian": "Привет",
    "Vietnamese": "Xin chào",
    "emoji": "💔 🙏 🥺 🫶",
}
WORDS = " ".join(GREETINGS.values())


def missing_from(text: str) -> list[str]:
    flat = "".join(text.split())
    return [language for language, hello in GREETINGS.items() if "".join(hello.split()) not in flat]


def test_the_summary_prints_a_clients_words_in_any_script(cast):
    add(cast.alice_assignment, what_happened=WORDS)
    assert missing_from(pdf_text(pdf_for(cast.tara, cast.alice, full_detail=True))) == []


def test_the_clients_own_export_prints_their_words_in_any_script(cast):
    add(cast.alice_assignment, what_happened=WORDS)
    response = login(cast.alice.portal_user).get(reverse("clients:export_pdf"))
    assert response.status_code == 200
    assert missing_from(pdf_text(response.content)) == []
