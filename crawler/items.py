"""The item a spider yields: the raw facts of one fetch. Pipeline stages fill in the rest."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass
class CrawledPage:
    """One fetched page travelling through the item pipelines (never serialised: it may
    hold the parsed tree; only Requests and their meta go to Redis or JOBDIR)."""

    url: str
    final_url: str
    status: int
    body: bytes
    content_type: str | None
    fetched_at: datetime
    depth: int = 0
    source_id: int | None = None
    run_id: int | None = None
    ticket: str | None = None  # the cluster ledger's handle on the request (distributed mode)
    # Filled by the stages, in order: decode → classify → extract → persist.
    document: Any = None
    decision: Any = None
    result: Any = None

    @property
    def meta(self) -> dict[str, Any]:
        """The request meta the cluster ledger and run statistics key on."""
        return {"run_id": self.run_id, "source_id": self.source_id, "ticket": self.ticket}
