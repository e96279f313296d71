"""What to crawl (Source) and each time we crawled (CrawlRun)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, validates

from models.base import Base
from models.source_settings import parse_source_settings, settings_object


class Source(Base):
    """A site to crawl: its seeds, limits, schedule and per-site overrides."""

    __tablename__ = "source"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    start_urls: Mapped[list[Any]]
    allowed_domains: Mapped[list[Any]]
    max_pages: Mapped[int | None]
    max_depth: Mapped[int | None]
    # Either a fixed interval or a cron expression (croniter syntax) says when it is due.
    interval_seconds: Mapped[int | None]
    cron: Mapped[str | None] = mapped_column(String(100))
    # Per-site page-type rules: [{"pattern": regex on URL, "type": page type}], override built-ins.
    page_type_rules: Mapped[list[Any]] = mapped_column(default=list)
    # Per-site setting overrides: the keys of models.source_settings.KEYS only.
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    enabled: Mapped[bool] = mapped_column(default=True)
    last_scheduled_at: Mapped[datetime | None]
    created_at: Mapped[datetime] = mapped_column(default=lambda: datetime.now(UTC))

    @validates("settings")
    def _check_settings(self, _key: str, value: Any) -> dict[str, Any]:
        """Refuse an unknown key or a wrong value when the source is saved, naming the
        accepted keys: an override that would do nothing must not pass silently."""
        parse_source_settings(value)
        return settings_object(value)


class CrawlRun(Base):
    """One crawl: when it ran, which spider and source, and its final statistics."""

    __tablename__ = "crawl_run"
    # A source's latest runs, newest first, read without a sort (the health checks').
    __table_args__ = (Index("ix_crawl_run_source_id_id", "source_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    spider: Mapped[str] = mapped_column(String(100))
    source_id: Mapped[int | None] = mapped_column(ForeignKey("source.id", ondelete="SET NULL"),
                                                  index=True)
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]
    status: Mapped[str] = mapped_column(String(20), default="running")
    stats: Mapped[dict[str, Any]] = mapped_column(default=dict)
    note: Mapped[str | None] = mapped_column(Text)
