import datetime as dt

from homework.kinds.limits import EXCERPT_CHARS
from homework.templatetags.summary import css_string, day_range, own_direction, summary_excerpt


def test_a_range_of_one_day_names_it_once():
    day = dt.date(2026, 11, 30)
    assert day_range(day, day) == "30 Nov 2026"
    assert day_range(day, dt.date(2026, 12, 2)) == "30 Nov – 2 Dec 2026"


def test_excerpt_escapes_client_text():
    assert summary_excerpt('<img src="x">') == "&lt;img src=&quot;x&quot;&gt;"


def test_short_text_is_whole_and_long_text_points_to_the_portal():
    assert summary_excerpt("Short.") == "Short."
    long_text = "word " * 200
    excerpt = summary_excerpt(long_text)
    assert "(continued in the portal)" in excerpt
    assert len(excerpt) < EXCERPT_CHARS + 100
    assert summary_excerpt(long_text, True) == long_text.strip()


def test_excerpt_collapses_blank_lines_but_full_detail_keeps_them():
    text = "first\n\n\n\n\nsecond"
    assert summary_excerpt(text) == "first second"
    assert summary_excerpt(text, True) == text


def test_css_string_cannot_end_the_string_or_the_style_block():
    value = css_string('Dr "Q" </style><script>\\')
    assert value.startswith('"') and value.endswith('"')
    inner = value[1:-1]
    assert '"' not in inner and "<" not in inner and ">" not in inner
    assert "\\00003c" in inner  # the < as a CSS escape
    assert css_string("Our practice") == '"Our practice"'


def test_own_direction_sets_apart_each_line_of_right_to_left_text_and_escapes_it():
    assert own_direction("Short <b>.") == "Short &lt;b&gt;."  # nothing to reorder: as it was
    # Each line in its own direction, from its first letter (not "lt" of "&lt;").
    assert own_direction("<שלום\n\nWhatsApp שלום\n2 שלום") == (
        '<span dir="rtl">&lt;שלום\n</span>\nWhatsApp שלום\n<span dir="rtl">2 שלום</span>'
    )
