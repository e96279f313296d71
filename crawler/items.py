"""The item a spider yields: the raw facts of one fetch. Pipeline stages fill in the rest."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any


@dataclass
class CrawledPage:
    """One fetched page travelling through the item pipelines (never serialised: it may
    hold the parsed tree; only Requests and their meta go to Redis or JOBDIR). Its repr,
    which Scrapy logs when a stage fails, shows the fetch facts, never the page's bytes."""

    url: str
    final_url: str
    status: int
    body: bytes = field(repr=False)
    content_type: str | None
    fetched_at: datetime
    depth: int = 0
    source_id: int | None = None
    run_id: int | None = None
    ticket: str | None = None  # the cluster ledger's handle on the request (distributed mode)
    # Revisits (crawler/revisits.py): the server's validators and the body's hash, kept for
    # the next visit; a thread page's first page and number; a revisit, and one that found
    # the page as stored (a 304 or the same bytes: nothing to extract).
    etag: str | None = None
    last_modified: str | None = None
    body_hash: str | None = None
    thread_url: str | None = None
    thread_page: int | None = None
    revisited: bool = False
    not_modified: bool = False
    # Filled by the stages, in order: decode → classify → extract → persist.
    document: Any = field(default=None, repr=False)
    decision: Any = None
    result: Any = field(default=None, repr=False)

    @property
    def meta(self) -> dict[str, Any]:
        """The request meta the cluster ledger and run statistics key on."""
        return {"run_id": self.run_id, "source_id": self.source_id, "ticket": self.ticket}
