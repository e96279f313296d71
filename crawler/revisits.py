"""Revisits of stored articles: which are due when a source's run starts, how their
requests ask only for a change, and the policy each source's pages are scheduled by.

A run fetches its start pages and, beside them, the source's stored articles whose next
visit is due (`models.store.due_pages`, at most REVISIT_MAX_PER_RUN). Their requests carry
what the store knows of the page in plain meta (so they travel through Redis as well):
the server's validators, sent as If-None-Match / If-Modified-Since, and the hash of the
body last read, so a 304 or the same bytes cost no extraction (the spider's `parse`), and
a thread page's place in its thread. The schedule itself is `models.revisit`'s.

Settings: REVISIT_MIN_INTERVAL, REVISIT_MAX_INTERVAL, REVISIT_BACKOFF, REVISIT_MAX_AGE,
REVISIT_MAX_PER_RUN (each overridable per source).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from scrapy.settings import BaseSettings
from sqlalchemy.orm import Session

from crawler import settings as defaults
from models.revisit import RevisitPolicy
from models.source_settings import SourceSettings
from models.store import DuePage, due_pages

# request.meta keys: a revisit's validators and body hash; a thread page's first page, number.
REVISIT = "revisit"
THREAD_URL = "thread_url"
THREAD_PAGE = "thread_page"
NOT_MODIFIED = 304


def _setting(settings: BaseSettings | None, name: str) -> float:
    default = getattr(defaults, name)
    return settings.getfloat(name, default) if settings is not None else float(default)


def revisit_policy(settings: BaseSettings | None, source: SourceSettings) -> RevisitPolicy:
    """The policy of a source's pages: its own settings, else the crawl's."""
    def pick(override: float | None, name: str) -> float:
        return override if override is not None else _setting(settings, name)
    return RevisitPolicy(
        min_seconds=pick(source.revisit_min_interval, "REVISIT_MIN_INTERVAL"),
        max_seconds=pick(source.revisit_max_interval, "REVISIT_MAX_INTERVAL"),
        backoff=pick(source.revisit_backoff, "REVISIT_BACKOFF"),
        max_age_seconds=pick(source.revisit_max_age, "REVISIT_MAX_AGE"))


def revisits_per_run(settings: BaseSettings | None, source: SourceSettings) -> int:
    if source.revisit_max_per_run is not None:
        return source.revisit_max_per_run
    return int(_setting(settings, "REVISIT_MAX_PER_RUN"))


def revisit_meta(page: DuePage) -> dict[str, Any]:
    """What a due page's request carries (plain, serialisable meta)."""
    meta: dict[str, Any] = {REVISIT: {"etag": page.etag, "last_modified": page.last_modified,
                                      "body_hash": page.body_hash}}
    if page.thread_url:
        meta.update({THREAD_URL: page.thread_url, THREAD_PAGE: page.thread_page})
    return meta


def due_revisits(session: Session, source_id: int, now: datetime,
                 limit: int) -> list[tuple[str, dict[str, Any]]]:
    """The source's due pages as (URL, extra request meta), most overdue first."""
    if limit <= 0:
        return []
    return [(page.url, revisit_meta(page)) for page in due_pages(session, source_id, now, limit)]


def conditional_request_options(meta: dict[str, Any]) -> dict[str, Any]:
    """Headers and meta of a revisit's request: validators as conditional headers, and a
    304 let through to the spider (Scrapy's HttpErrorMiddleware drops it otherwise)."""
    revisit = meta.get(REVISIT)
    if not revisit:
        return {}
    headers = {}
    if revisit.get("etag"):
        headers["If-None-Match"] = revisit["etag"]
    if revisit.get("last_modified"):
        headers["If-Modified-Since"] = revisit["last_modified"]
    return {"headers": headers, "meta": {"handle_httpstatus_list": [NOT_MODIFIED]}}
