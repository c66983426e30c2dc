"""A name (or a title) set inside one of our sentences is kept apart from it
(practice.bidi): two Arabic names joined by a comma, or an Arabic name
followed by a number, otherwise run together and change places."""

from django.template import Context, Template

from practice.bidi import isolated_html, isolated_text

SARA, LAYLA = "سارة", "ليلى"


def render(source: str, **context: object) -> str:
    return Template("{% load bidi %}" + source).render(Context(context))


def test_a_right_to_left_name_is_isolated_in_its_own_direction_in_html():
    assert isolated_html(SARA) == f'<bdi dir="rtl">{SARA}</bdi>'
    # Its direction is its first letter's, as a browser's dir=auto finds it.
    assert isolated_html(f"Jo {SARA}") == f'<bdi dir="ltr">Jo {SARA}</bdi>'
    assert isolated_html(f"<{SARA}>") == f'<bdi dir="rtl">&lt;{SARA}&gt;</bdi>'


def test_a_right_to_left_name_is_between_unicodes_isolates_in_plain_text():
    assert isolated_text(f"{SARA} 2") == f"\u2068{SARA} 2\u2069"


def test_a_name_without_right_to_left_letters_is_left_as_it_was():
    assert isolated_html("Jo & Sam") == "Jo &amp; Sam"
    assert isolated_text("Jo & Sam") == "Jo & Sam"
    assert isolated_text(None) == ""


def test_the_filter_isolates_in_html_and_in_plain_text_by_the_templates_escaping():
    assert render("Hello {{ name|isolated }},", name=SARA) == f'Hello <bdi dir="rtl">{SARA}</bdi>,'
    plain = "{% autoescape off %}Hello {{ name|isolated }},{% endautoescape %}"
    assert render(plain, name=SARA) == f"Hello \u2068{SARA}\u2069,"
    assert render("Hello {{ name|isolated }},", name="Tara & Co") == "Hello Tara &amp; Co,"


def test_names_in_a_list_are_each_isolated_before_they_are_joined():
    joined = render('ask {{ names|each_isolated|join:", " }}', names=[SARA, LAYLA, "Jo"])
    assert joined == f'ask <bdi dir="rtl">{SARA}</bdi>, <bdi dir="rtl">{LAYLA}</bdi>, Jo'
    plain = '{% autoescape off %}{{ names|each_isolated|join:", " }}{% endautoescape %}'
    assert render(plain, names=[SARA, "Jo & Sam"]) == f"\u2068{SARA}\u2069, Jo & Sam"


def test_a_sentence_holding_an_isolated_name_is_not_isolated_again():
    sentence = isolated_text(SARA) + " (place or service)"
    assert isolated_text(sentence) == sentence
    assert isolated_html(sentence) == sentence
