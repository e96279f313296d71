"""The page route: which extractor each page type gets."""

from __future__ import annotations

from pipelines.document import load_document
from pipelines.process import extract
from pipelines.results import PageTypeDecision

POST = ("<html><head><title>Notes from the harbour</title></head><body>"
        "<ul id='nav'><li><a href='/'>Home</a></li><li><a href='/archive'>Archive</a></li></ul>"
        "<div class='post'><h1>Notes from the harbour</h1>"
        + "<p>The ferries were late again this morning, and the fishermen waited on the quay "
          "for the fog to lift before they set out past the breakwater.</p>" * 4
        + "</div><div class='pager'><a href='/older'>« Older post</a></div></body></html>")


def test_an_unsure_page_stored_as_other_keeps_its_main_text() -> None:
    """An article the classifier was unsure of is stored as 'other' with both candidates;
    its body must still be there for the reader."""
    doc = load_document(POST.encode(), url="https://blog.example.org/harbour")
    decision = PageTypeDecision("other", 0.41, "classifier", [("blog", 0.41), ("other", 0.38)])
    result = extract(doc, decision)
    assert result.decision.page_type == "other" and result.listing is None
    assert result.article is not None
    assert result.article.content_text.count("The ferries were late again") == 4
    assert "Older post" not in result.article.content_text


def test_a_sure_list_page_goes_to_record_mining_only() -> None:
    """A list the classifier is sure of, or a rule decided, is not extracted as an article."""
    rows = "".join(f"<li><a href='/p/{i}'>Harbour notes, part {i}</a> <span>2024-05-0{i}</span>"
                   "</li>" for i in range(1, 9))
    doc = load_document(f"<html><body><ul class='posts'>{rows}</ul></body></html>".encode(),
                        url="https://blog.example.org/archive")
    for decision in (PageTypeDecision("list", 0.9, "classifier"),
                     PageTypeDecision("list", 1.0, "url:archive")):
        result = extract(doc, decision)
        assert result.article is None and result.listing is not None
        assert len(result.listing.records) == 8


def test_an_unsure_list_keeps_its_main_text_beside_its_records() -> None:
    """An article the classifier read as a list, unsure (below sure_list_confidence), keeps
    its body; the page stays a list, its links are still followed."""
    doc = load_document(POST.encode(), url="https://blog.example.org/harbour")
    result = extract(doc, PageTypeDecision("list", 0.62, "classifier",
                                           [("list", 0.62), ("blog", 0.3)]))
    assert result.decision.page_type == "list" and result.listing is not None
    assert result.article is not None
    assert result.article.content_text.count("The ferries were late again") == 4
