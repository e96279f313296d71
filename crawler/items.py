"""The item a spider yields: the raw facts of one fetch. Pipeline stages fill in the rest."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    # Filled by the stages, in order: decode → classify → extract → persist.
    document: Any = None
    encoding: str | None = None
    decision: Any = None
    result: Any = None
    stats: dict[str, Any] = field(default_factory=dict)
