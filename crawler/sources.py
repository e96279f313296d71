"""What one crawl is asked to do: seeds, limits and per-site rules, from arguments or a Source."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import cached_property

from sqlalchemy import select

from crawler.scope import Scope
from models.crawl import Source
from models.db import session_factory
from models.source_settings import SourceSettings, parse_source_settings
from pipelines import SiteRule, zone_named

logger = logging.getLogger(__name__)

DEFAULT_DEPTH = 3  # link hops from a start URL when neither `-a depth` nor the source says


@dataclass(frozen=True)
class CrawlTarget:
    """A crawl's plan, whatever it came from (spider arguments or a stored Source)."""

    start_urls: tuple[str, ...]
    allowed_domains: tuple[str, ...]
    max_pages: int | None = None  # 0: no limit; None: the crawl's MAX_PAGES_PER_RUN
    max_depth: int = DEFAULT_DEPTH
    source_id: int | None = None
    page_type_rules: tuple[SiteRule, ...] = field(default_factory=tuple)
    timezone: str | None = None  # the zone the site writes its times in, where pages don't say
    settings: SourceSettings = field(default_factory=SourceSettings)  # per-request overrides
    name: str | None = None  # the stored source's (metrics and logs name it)

    @cached_property
    def scope(self) -> Scope:
        """What the crawl may fetch: its start URLs' origins, or its allowed domains."""
        return Scope.of(self.start_urls, self.allowed_domains)


def split_list(value: str | None) -> tuple[str, ...]:
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


def target_from_source(name: str | None, database_url: str | None,
                       source_id: int | None = None) -> CrawlTarget:
    """Load a stored Source by name or id; a missing one is a clear error, not an empty crawl."""
    query = select(Source).where(Source.name == name if name else Source.id == source_id)
    with session_factory(database_url)() as session:
        source = session.scalars(query).one_or_none()
    if source is None:
        raise ValueError(f"no source {name or source_id!r} in the database")
    return target_of(source)


def adhoc_source(target: CrawlTarget, database_url: str | None) -> int:
    """Store an ad-hoc crawl (start URLs given on the command line) as a Source, so that
    workers on other machines can read its limits by id."""
    name = "adhoc:" + ",".join(sorted(target.start_urls))[:180]
    with session_factory(database_url).begin() as session:
        source = session.scalars(select(Source).where(Source.name == name)).one_or_none()
        if source is None:
            source = Source(name=name, start_urls=[], allowed_domains=[], page_type_rules=[],
                            settings={})
            session.add(source)
        if target.timezone:
            source.settings = {**(source.settings or {}), "timezone": target.timezone}
        source.start_urls = list(target.start_urls)
        source.allowed_domains = list(target.allowed_domains)
        source.max_pages, source.max_depth = target.max_pages, target.max_depth
        session.flush()
        return source.id


def target_of(source: Source) -> CrawlTarget:
    """The plan of a stored source; ValueError naming the source and its malformed rule or
    setting, so a bad row stops the crawl before it starts instead of failing every page."""
    try:
        rules = SiteRule.from_json(source.page_type_rules)
        settings = parse_source_settings(source.settings)
    except ValueError as error:
        raise ValueError(f"source {source.name!r}: {error}") from error
    urls = tuple(source.start_urls)
    return CrawlTarget(start_urls=urls, allowed_domains=tuple(source.allowed_domains),
                       max_pages=source.max_pages,
                       max_depth=DEFAULT_DEPTH if source.max_depth is None else source.max_depth,
                       source_id=source.id, page_type_rules=rules,
                       timezone=_timezone(source.name, settings.timezone), settings=settings,
                       name=source.name)


def _timezone(source_name: str, name: str | None) -> str | None:
    """The source's `timezone` setting; a name no zone has is logged and left out (the
    pages' own domains and languages then decide), not a crawl lost to a typo."""
    try:
        return name and zone_named(name).key
    except ValueError as error:
        logger.error("source %s: %s; its pages' times are read without it", source_name, error)
        return None
