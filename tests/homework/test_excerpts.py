import pytest
from hypothesis import given
from hypothesis import strategies as st

from homework.kinds.excerpts import LINE_CHARS, shorten


def test_short_text_is_whole_on_one_line():
    assert shorten("  I went\n\n out.  ") == "I went out."
    assert shorten(None) == ""
    assert shorten("") == ""
    assert shorten("x" * LINE_CHARS) == "x" * LINE_CHARS


def test_long_text_is_cut_between_words():
    text = "I walked outside and breathing slowly I waited for the feeling to pass " * 3
    cut = shorten(text, 60)
    assert len(cut) <= 60
    assert cut.endswith("…")
    kept = cut.removesuffix("…").split(" ")
    assert kept == text.split(" ")[: len(kept)]  # every word whole
    assert cut == "I walked outside and breathing slowly I waited for the…"


def test_a_cut_at_the_end_of_a_word_keeps_that_word():
    assert shorten("one two three four", 9) == "one two…"
    assert shorten("one two, three four", 9) == "one two…"  # no comma before the ellipsis


@pytest.mark.parametrize(
    "text",
    [
        "https://example.invalid/" + "a" * 200,  # one long word
        "今日は" * 80,  # a language written without spaces
        "short " + "x" * 200,  # dropping the long word would leave almost nothing
    ],
)
def test_a_word_too_long_to_drop_is_cut_inside_itself(text):
    cut = shorten(text, 40)
    assert len(cut) == 40
    assert cut.endswith("…")
    assert text.startswith(cut.removesuffix("…"))


def test_an_accent_or_joiner_stays_with_its_letter():
    accented = "e\u0301" * 50  # "é" written as a letter and a combining accent
    cut = shorten(accented, 10)
    assert cut.removesuffix("…").endswith("\u0301")
    family = "👩\u200d👩\u200d👧" * 20
    cut = shorten(family, 10)
    assert len(cut) <= 10
    assert not cut.removesuffix("…").endswith("\u200d")  # no joiner left dangling


@given(st.text(), st.integers(min_value=2, max_value=300))
def test_any_text_fits_and_what_is_kept_is_the_text_itself(text, limit):
    flat = " ".join(text.split())
    cut = shorten(text, limit)
    assert len(cut) <= limit
    if len(flat) <= limit:
        assert cut == flat
    else:
        assert cut.endswith("…")
        assert flat.startswith(cut.removesuffix("…"))
