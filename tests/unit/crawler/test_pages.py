"""The page layer's template learning when pages of one URL pattern arrive together."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

import crawler.pages
from crawler.pages import PageReader


class Templates:
    """The shared template cache's interface, in memory."""

    def __init__(self) -> None:
        self.stored: dict[tuple[str, str], Any] = {}

    def remembered(self, host: str, pattern: str) -> bool:
        return True

    def get(self, host: str, pattern: str) -> Any:
        return self.stored.get((host, pattern))

    def remember(self, host: str, pattern: str, template: Any) -> None:
        self.stored[(host, pattern)] = template

    def save(self, host: str, pattern: str, template: Any) -> None:
        pass

    def forget(self, host: str, pattern: str) -> None:
        self.stored.pop((host, pattern), None)


def _reader(fetch_seconds: list[float]) -> PageReader:
    reader = PageReader.__new__(PageReader)
    spider = SimpleNamespace(count=lambda *_: None, canonical=lambda url: url)
    reader.crawler = SimpleNamespace(spider=spider)
    reader.templates = Templates()
    reader._learning = {}

    async def fetch(url: str, source_id: int | None) -> object:
        await asyncio.sleep(fetch_seconds.pop(0))
        return object()
    reader._fetch = fetch  # type: ignore[method-assign]
    return reader


def _page(url: str) -> SimpleNamespace:
    return SimpleNamespace(document=SimpleNamespace(url=url, links=[]), source_id=None,
                           meta={})


def test_pages_that_relearn_a_template_at_once_all_get_extracted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Three pages of one pattern; the first one's template fits neither of the others, so
    both relearn at once and the later one finishes first. Each page gets its own result
    (before, the earlier one failed with KeyError and was stored without extraction)."""
    learned = iter(range(10))
    monkeypatch.setattr(crawler.pages, "sibling_candidates", lambda *_, **__: ["http://a.cn/s"])
    monkeypatch.setattr(crawler.pages, "denoise_with_sibling", lambda doc, sibling: SimpleNamespace(
        template=next(learned), exclude=[doc.url]))
    monkeypatch.setattr(crawler.pages, "template_mask", lambda doc, template: None)
    reader = _reader([0.05, 0.05, 0.01])

    async def three_pages() -> list[list[str]]:
        return await asyncio.gather(*(reader._template_blocks(_page(f"http://a.cn/p/{i}.html"))
                                      for i in range(3)))

    assert asyncio.run(three_pages()) == [[f"http://a.cn/p/{i}.html"] for i in range(3)]
    assert reader._learning == {}



def test_a_page_whose_decoding_fails_is_dropped_with_its_reason_and_counted(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """An unforeseen failure in decoding (a LookupError from a codec, once) escaped into
    Scrapy: the page's request was never settled and its run never drained."""
    def broken(*_: object, **__: object) -> None:
        raise LookupError("'hex' is not a text encoding")
    monkeypatch.setattr(crawler.pages, "load_document", broken)
    counted: list[str] = []
    reader = _reader([])
    reader.count = lambda item, name, value=1: counted.append(name)  # type: ignore[method-assign]
    reader._zone = lambda source_id: None  # type: ignore[method-assign]
    item = SimpleNamespace(url="http://a.cn/1.html", final_url="http://a.cn/1.html",
                           body=b"<p>x</p>", status=200, content_type=None, fetched_at=None,
                           source_id=None, meta={})
    assert reader.decode(item) == "http://a.cn/1.html: not decoded (LookupError)"
    assert counted == ["errors/decode"] and "decoding failed for http://a.cn/1.html" in caplog.text
