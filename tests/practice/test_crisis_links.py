"""Crisis numbers are links a phone can call: the href is the number's
digits (and a leading +), the text exactly as the practice typed it."""

import pytest
from django.urls import reverse

from practice.crisis import crisis_line_html, crisis_line_parts, tel_href
from practice.models import PracticeSettings
from tests.conftest import login


@pytest.mark.parametrize(
    ("typed", "href"),
    [
        ("0808 2000 247", "tel:08082000247"),
        ("1-800-799-7233", "tel:18007997233"),
        ("+44 (0)20 7946 0958", "tel:+442079460958"),
        ("(555) 123.4567", "tel:5551234567"),
    ],
)
def test_a_number_as_typed_becomes_digits_and_plus_for_the_link(typed, href):
    assert tel_href(typed) == href
    assert crisis_line_parts(f"Call {typed}.") == [("Call ", ""), (typed, href), (".", "")]


def test_short_figures_stay_words_and_the_text_is_escaped():
    # "24 hours" is not a number to call; what the practice typed is escaped.
    html = crisis_line_html("Line <b> (24 hours): 999 or 911")
    assert html == (
        'Line &lt;b&gt; (24 hours): <a href="tel:999">999</a> or <a href="tel:911">911</a>'
    )
    assert crisis_line_html("Web chat only") == "Web chat only"


def test_a_bracket_that_opens_the_words_after_a_number_is_not_dialled():
    # Spanish lines put the hours in brackets: "016 (24" is not a number to call.
    assert crisis_line_parts("Línea 016 (24 horas): 016") == [
        ("Línea ", ""),
        ("016", "tel:016"),
        (" (24 horas): ", ""),
        ("016", "tel:016"),
    ]


@pytest.mark.django_db
def test_every_portal_page_and_the_help_page_link_the_numbers(cast):
    PracticeSettings.objects.update_or_create(
        pk=1, defaults={"crisis_resources": "Helpline: +1 (800) 799-7233\nA web chat"}
    )
    browser = login(cast.alice.portal_user)
    for url in (reverse("homework:dashboard"), reverse("crisis")):
        text = browser.get(url).text
        assert 'Helpline: <a href="tel:+18007997233">+1 (800) 799-7233</a>' in text
        assert "<li>A web chat</li>" in text
