"""The storage record of one crawled page: plain JSON, journalled, then upserted.

Built from the pipeline's results; `models.store.save_pages` consumes it. The
content hash covers what users read (type, article, records) plus the extractor
version, so a page whose text did not change is not rewritten, while a better
extractor does rewrite it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pipelines import ArticleData, PageResult, PageTypeDecision, comment_json, record_json

# Bump when extraction output changes, so stored pages are refreshed on the next crawl.
EXTRACTOR_VERSION = "1"


@dataclass
class FetchFacts:
    """What the crawler knows about a fetch, before any extraction."""

    url: str
    final_url: str
    status: int
    fetched_at: datetime
    encoding: str | None
    source_id: int | None = None
    crawl_run_id: int | None = None
    ticket: str | None = None  # the request's cluster ticket, acknowledged after the commit
    # The revisit side (models/revisit.py): the source's policy for a page it schedules
    # (None: the page is not revisited), the server's validators, the raw body's hash, a
    # thread's first page and this page's number in it, and whether this was a revisit.
    revisit: dict[str, float] | None = None
    etag: str | None = None
    last_modified: str | None = None
    body_hash: str | None = None
    thread_url: str | None = None
    thread_page: int | None = None
    revisited: bool = False


def body_hash(body: bytes) -> str:
    """The hash of a fetched body under this extractor: a revisit that gets the same bytes
    skips extraction, until a new extractor version reads them otherwise."""
    return hashlib.sha256(EXTRACTOR_VERSION.encode() + b"\n" + body).hexdigest()


def to_datetime(value: str | datetime | None) -> datetime | None:
    """Read an ISO 8601 string (as spilled to JSON) back into a datetime."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(value)


def _article_json(article: ArticleData) -> dict[str, Any]:
    return {
        "title": article.title, "author": article.author, "source": article.source,
        "published_at": article.published_at.isoformat() if article.published_at else None,
        "published_raw": article.published_raw, "language": article.language,
        "body_text": article.content_text, "body_html": article.content_html,
        "comments": [comment_json(comment) for comment in article.comments],
        "post_anchor": article.post_anchor,
    }


def _canonical(extracted: dict[str, Any]) -> str:
    """The extracted part as the content hash reads it (sorted keys)."""
    return json.dumps(extracted, sort_keys=True, ensure_ascii=False, default=str)


def _hash(payload: str) -> str:
    return hashlib.sha256(f"{EXTRACTOR_VERSION}\n{payload}".encode()).hexdigest()


def content_hash(extracted: dict[str, Any]) -> str:
    return _hash(_canonical(extracted))


def _extracted(result: PageResult) -> dict[str, Any]:
    return {
        "page_type": result.decision.page_type,
        "article": _article_json(result.article) if result.article else None,
        "records": [record_json(r) for r in result.listing.records] if result.listing else [],
        "next_page_url": (result.listing.next_page if result.listing else
                          result.article.next_page if result.article else None),
    }


def _fetch_json(facts: FetchFacts) -> dict[str, Any]:
    return {
        "url": facts.url, "final_url": facts.final_url, "status": facts.status,
        "fetched_at": facts.fetched_at.isoformat(), "encoding": facts.encoding,
        "source_id": facts.source_id, "crawl_run_id": facts.crawl_run_id,
        "ticket": facts.ticket, "revisit": facts.revisit, "etag": facts.etag,
        "last_modified": facts.last_modified, "body_hash": facts.body_hash,
        "thread_url": facts.thread_url, "thread_page": facts.thread_page,
        "revisited": facts.revisited,
    }


def _facts_json(facts: FetchFacts, decision: PageTypeDecision, digest: str) -> dict[str, Any]:
    return {
        **_fetch_json(facts), "content_hash": digest,
        "type_confidence": decision.confidence, "type_decided_by": decision.decided_by,
        "type_candidates": [list(candidate) for candidate in decision.candidates],
    }


def not_modified_line(facts: FetchFacts) -> str:
    """The journal line of a revisit that found the page as stored (HTTP 304, or the same
    body): it only moves the page's schedule on."""
    return json.dumps({**_fetch_json(facts), "not_modified": True}, ensure_ascii=False)


def stored_page(facts: FetchFacts, result: PageResult) -> dict[str, Any]:
    """The JSON record for one page, ready for the journal and `save_pages`."""
    extracted = _extracted(result)
    return {**_facts_json(facts, result.decision, content_hash(extracted)), **extracted}


def stored_line(facts: FetchFacts, result: PageResult) -> str:
    """`stored_page` as one JSON text for the journal. The extracted part (most of the
    text) is serialised once, for the content hash and the line both, not once for each."""
    payload = _canonical(_extracted(result))
    facts_part = json.dumps(_facts_json(facts, result.decision, _hash(payload)),
                            ensure_ascii=False, default=str)
    return f"{facts_part[:-1]}, {payload[1:]}"
