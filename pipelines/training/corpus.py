"""The labelled pages the labeller learns from and is benchmarked on, and their site split.

The data sets named in SOURCES (see shared/data/README.md), one with body and comments,
one with the body, one with title, author, date and body excerpts.
Pages are grouped by site, and a site is held out wholly or not at all.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import lxml.html

from pipelines.document import load_document
from pipelines.labelling import page_sequence
from pipelines.labelling.days import find_day
from pipelines.params import LABELLER_TRAINING
from pipelines.training.label_alignment import Truth, align, declared_truth

SOURCES = ("dragnet-dev", "article-bench", "metadata-dev")
_DECLARED_URL = re.compile(
    rb"""<(?:link[^>]+rel=["']canonical["'][^>]*href|meta[^>]+property=["']og:url["'][^>]*"""
    rb"""content)=["']([^"']+)""", re.I)


@dataclass
class Page:
    """One data-set page: where it is, which site it belongs to, what the data set says."""

    source: str
    page_id: str
    path: Path
    record: dict

    @property
    def held_out(self) -> bool:
        """Whether the page's site belongs to the test split."""
        return zlib.crc32(self.site.encode()) % LABELLER_TRAINING.held_out_folds == 0

    @property
    def site(self) -> str:
        """Host of the page's URL; pages without one are each their own site."""
        host = urlsplit(self.record.get("url") or "").hostname or ""
        return host.removeprefix("www.") or f"{self.source}/{self.page_id}"


def load_pages(data_dir: Path, sources: tuple[str, ...] = SOURCES) -> Iterator[Page]:
    """Every page of the given data sets that has an HTML file."""
    for source in sources:
        truth = json.loads((data_dir / source / "ground-truth.json").read_text(encoding="utf-8"))
        for page_id, record in sorted(truth.items()):
            path = data_dir / source / "html" / f"{page_id}.html"
            if path.exists():
                yield Page(source, page_id, path, _with_url(record, path))


def _with_url(record: dict, path: Path) -> dict:
    """The record, its URL taken from the page's canonical link when the data set has none."""
    if record.get("url"):
        return record
    match = _DECLARED_URL.search(path.read_bytes())
    return {**record, "url": match.group(1).decode("ascii", "ignore")} if match else record


def _as_list(value: str | list[str] | None) -> list[str]:
    return [value] if isinstance(value, str) else list(value or [])


def page_truth(page: Page, tree: lxml.html.HtmlElement) -> Truth:
    """The data set's fields, with what <head> declares standing in for absent ones."""
    record, declared = page.record, declared_truth(tree)
    day = find_day(record["date"]) if record.get("date") else None
    return Truth(
        body=record.get("articleBody") or "",
        comments=record.get("comments") or "",
        titles=[record["title"]] if record.get("title") else declared.titles,
        authors=_as_list(record.get("author")) or declared.authors,
        day=day[0] if day else declared.day,
        snippets=list(record.get("with") or []),
    )


def labelled_sequence(page: Page) -> tuple[list[dict[str, float]], list[str]]:
    """The page's feature dicts and aligned labels, block by block."""
    doc = load_document(page.path.read_bytes(), url=page.record.get("url"))
    blocks, features = page_sequence(doc)
    return features, align(blocks, page_truth(page, doc.tree))
