"""The `-a NAME=VALUE` arguments of `scrapy crawl site`, checked before anything starts.

A wrong argument is one line naming it and what is accepted, raised as ArgumentError
before the crawl starts (by `crawler.commands.crawl`), not a traceback once Scrapy runs.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from crawler.sources import (
    DEFAULT_DEPTH,
    CrawlTarget,
    split_list,
    target_from_source,
)
from models.crawl import Source
from models.db import session_factory
from models.schema import reason
from models.source_settings import SourceSettings
from pipelines import zone_named

ACCEPTED = ("start_urls", "source", "allowed_domains", "depth", "max_pages", "timezone")
# Passed by tools that run spiders, not by users: scrapyd adds -a _job=ID to every crawl.
PASSED_BY_TOOLS = ("_job",)
NOTHING_TO_CRAWL = ("nothing to crawl: give -a start_urls=URL[,URL…] or -a source=NAME "
                    "(or set REDIS_URL to run as a cluster worker)")
SHOWN_SOURCES = 10


class ArgumentError(ValueError):
    """A spider argument that cannot be used; the message is one line naming it."""


@dataclass(frozen=True)
class SpiderArguments:
    """The spider's arguments, each checked; None (or empty) where not given."""

    start_urls: tuple[str, ...] = ()
    source: str | None = None
    allowed_domains: tuple[str, ...] = ()
    depth: int | None = None
    max_pages: int | None = None
    timezone: str | None = None
    passed_by_tools: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, given: Mapping[str, Any]) -> SpiderArguments:
        """Check every `-a` value; raise ArgumentError on the first one that is wrong."""
        unknown = sorted(set(given) - set(ACCEPTED) - set(PASSED_BY_TOOLS))
        if unknown:
            raise ArgumentError(_unknown(unknown[0]))
        timezone = _text(given.get("timezone")) or None
        if timezone:
            try:
                timezone = zone_named(timezone).key
            except ValueError as error:
                raise ArgumentError(f"-a timezone={timezone}: {error}") from None
        return cls(start_urls=_urls(_text(given.get("start_urls"))),
                   source=_text(given.get("source")) or None,
                   allowed_domains=split_list(_text(given.get("allowed_domains"))),
                   depth=_count("depth", given.get("depth"), "link hops from a start URL"),
                   max_pages=_count("max_pages", given.get("max_pages"), "0 = no limit"),
                   timezone=timezone,
                   passed_by_tools={name: given[name] for name in PASSED_BY_TOOLS
                                    if name in given})

    def check_given(self, distributed: bool) -> None:
        """Raise ArgumentError when there is nothing to crawl: alone, a crawl needs start
        URLs or a source; a cluster worker takes what the shared queue holds."""
        if not (distributed or self.start_urls or self.source):
            raise ArgumentError(NOTHING_TO_CRAWL)

    def target(self, database_url: str | None, distributed: bool) -> CrawlTarget | None:
        """The crawl these arguments ask for (its source loaded from the database), or None
        for a cluster worker given none; ArgumentError when they cannot be crawled."""
        self.check_given(distributed)
        base = self._source_target(database_url) if self.source else None
        urls = self.start_urls or (base.start_urls if base else ())
        if not urls:
            if distributed and not self.source:
                return None
            raise ArgumentError(f"-a source={self.source}: the source has no start URLs")
        return CrawlTarget(
            start_urls=urls,
            allowed_domains=self.allowed_domains or (base.allowed_domains if base else ()),
            max_pages=self.max_pages if self.max_pages is not None else (
                base.max_pages if base else None),
            max_depth=self.depth if self.depth is not None else (
                base.max_depth if base else DEFAULT_DEPTH),
            source_id=base.source_id if base else None,
            page_type_rules=base.page_type_rules if base else (),
            timezone=self.timezone or (base.timezone if base else None),
            settings=base.settings if base else SourceSettings())

    def _source_target(self, database_url: str | None) -> CrawlTarget:
        try:
            with session_factory(database_url)() as session:
                names = list(session.scalars(select(Source.name).order_by(Source.name)))
        except SQLAlchemyError as error:
            raise ArgumentError(f"-a source={self.source}: cannot read the stored sources "
                                f"({reason(error)})") from None
        if self.source not in names:
            raise ArgumentError(f"-a source={self.source}: no such source; stored: "
                                f"{_listed(names)}")
        try:
            return target_from_source(self.source, database_url)
        except ValueError as error:
            raise ArgumentError(f"-a source={self.source}: {error}") from None


def _unknown(name: str) -> str:
    close = difflib.get_close_matches(name, ACCEPTED, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"-a {name}: no such argument{hint}; accepted: {', '.join(ACCEPTED)}"


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _urls(value: str) -> tuple[str, ...]:
    urls = split_list(value)
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ArgumentError(f"-a start_urls: {url!r} is not an http(s) URL "
                                "(e.g. https://news.example.cn/; several: comma-separated)")
    return urls


def _count(name: str, value: Any, meaning: str) -> int | None:
    if value is None or value == "":
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = -1
    if number < 0:
        raise ArgumentError(f"-a {name}={value}: not a whole number ≥ 0 ({meaning})")
    return number


def _listed(names: list[str]) -> str:
    if not names:
        return "none (add a row to the source table)"
    shown = ", ".join(names[:SHOWN_SOURCES])
    return shown + (f" … ({len(names)} in all)" if len(names) > SHOWN_SOURCES else "")
