"""What one crawl is asked to do: seeds, limits and per-site rules, from arguments or a Source."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select

from models.crawl import Source
from models.db import session_factory


@dataclass(frozen=True)
class CrawlTarget:
    """A crawl's plan, whatever it came from (spider arguments or a stored Source)."""

    start_urls: tuple[str, ...]
    allowed_domains: tuple[str, ...]
    max_pages: int = 0  # 0: no limit
    max_depth: int = 3
    source_id: int | None = None
    page_type_rules: tuple[dict[str, Any], ...] = field(default_factory=tuple)


def split_list(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


def hosts_of(urls: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(urlsplit(url).hostname or "" for url in urls if url))


def target_from_source(name: str, database_url: str | None) -> CrawlTarget:
    """Load a stored Source by name; a missing one is a clear error, not an empty crawl."""
    with session_factory(database_url)() as session:
        source = session.scalars(select(Source).where(Source.name == name)).one_or_none()
    if source is None:
        raise ValueError(f"no source named {name!r} in the database")
    urls = tuple(source.start_urls)
    return CrawlTarget(start_urls=urls, allowed_domains=tuple(source.allowed_domains)
                       or hosts_of(urls), max_pages=source.max_pages or 0,
                       max_depth=source.max_depth if source.max_depth is not None else 3,
                       source_id=source.id, page_type_rules=tuple(source.page_type_rules))
