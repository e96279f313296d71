"""content_text: paragraphs as a reader sees them, whatever inline markup they hold."""

from __future__ import annotations

import lxml.html

from pipelines.article.body.render import to_text


def _text(html: str) -> str:
    return to_text([lxml.html.fragment_fromstring(html)])


def test_inline_children_stay_inside_their_paragraph() -> None:
    assert _text("<div><p>Trump <a href='/t'>tweeted</a> at <b>dawn</b>, aides said.</p>"
                 "<p>Next paragraph.</p></div>") == (
        "Trump tweeted at dawn, aides said.\n\nNext paragraph.")


def test_text_between_blocks_is_a_paragraph_of_its_own() -> None:
    assert _text("<div><p>one</p>loose <span>text</span><p>two</p></div>") == (
        "one\n\nloose text\n\ntwo")


def test_nested_blocks_and_line_breaks_split_paragraphs() -> None:
    assert _text("<div>intro<blockquote><p>quoted <i>words</i></p></blockquote>outro</div>") == (
        "intro\n\nquoted words\n\noutro")
