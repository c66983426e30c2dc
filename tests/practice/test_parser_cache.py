"""The mend of tinyhtml5's pattern cache (practice/parser_cache.py)."""

import xml.etree.ElementTree as ET

import tinyhtml5
import tinyhtml5.inputstream

from practice import parser_cache

DOCUMENT = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>T &amp; t</title><style>p { color: #123; } /* <p> */</style></head>
<body class='a b' data-x=1><!-- a comment --><h2 data-running="X, continued">X</h2>
<p class="summary-text">Fish &amp; chips &lt;b&gt; &#169; &copy caf\u00e9 \u2014 ok</p>
<img alt="" src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="><p>tab\tand
newline</p><pre>  kept  </pre><textarea>&lt;raw&gt;</textarea></body></html>"""


def parsed() -> bytes:
    return ET.tostring(tinyhtml5.parse(DOCUMENT))


def test_the_mend_is_in_place_for_the_pinned_parser():
    assert parser_cache.mend()
    assert isinstance(tinyhtml5.inputstream.characters_until_regex, parser_cache.PatternCache)


def test_the_parser_reads_a_document_exactly_as_without_the_mend(monkeypatch):
    mended = parsed()
    monkeypatch.setattr(tinyhtml5.inputstream, "characters_until_regex", {})
    assert parsed() == mended


def test_patterns_are_found_again_instead_of_built_for_every_run_of_text():
    parsed()
    cache = tinyhtml5.inputstream.characters_until_regex
    before = dict(cache)
    parsed()
    assert cache == before  # nothing was built the second time
    assert all(isinstance(key[0], str | tuple | frozenset) for key in cache)
