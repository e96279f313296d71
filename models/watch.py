"""Watches (named standing queries), the alerts they raise and each alert's deliveries.

An alert is unique per watch and story (`story_key`), so a thing seen again, on a revisit,
a replay or as a repost of a story already alerted, never raises a second one. Deliveries
are rows too: one per alert and target, retried with back-off until sent or given up, so
a target that is down costs the crawl nothing and a failure stays visible.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base


def _now() -> datetime:
    return datetime.now(UTC)


class Watch(Base):
    """A named query (the search language) with filters and delivery targets."""

    __tablename__ = "watch"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    query: Mapped[str] = mapped_column(Text)
    # reading.search.Filters' list fields: sources, sites, page_types, kinds, languages.
    filters: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # Apprise URLs (webhooks in the generic JSON, DingTalk, WeCom, Feishu or Slack format,
    # mailto: addresses).
    targets: Mapped[list[Any]] = mapped_column(default=list)
    enabled: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    # The search index rows up to this id have been matched against the watch; rows up to
    # `started_after` were there before it and never are.
    matched_through: Mapped[int] = mapped_column(default=0)
    started_after: Mapped[int] = mapped_column(default=0)


class Alert(Base):
    """One thing a watch found, once per story."""

    __tablename__ = "alert"
    __table_args__ = (UniqueConstraint("watch_id", "story_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    watch_id: Mapped[int] = mapped_column(ForeignKey("watch.id", ondelete="CASCADE"),
                                          index=True)
    story_key: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(10))
    ref_id: Mapped[int]
    url: Mapped[str] = mapped_column(Text)
    title: Mapped[str | None] = mapped_column(Text)
    snippet: Mapped[str] = mapped_column(Text)  # HTML: escaped text, matches in <mark>
    site: Mapped[str] = mapped_column(String(255))
    published_at: Mapped[datetime]
    created_at: Mapped[datetime] = mapped_column(default=_now, index=True)
    read_at: Mapped[datetime | None]


class Delivery(Base):
    """An alert sent (or being sent) to one target."""

    __tablename__ = "alert_delivery"
    __table_args__ = (UniqueConstraint("alert_id", "target"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    alert_id: Mapped[int] = mapped_column(ForeignKey("alert.id", ondelete="CASCADE"),
                                          index=True)
    target: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(10), default="pending", index=True)
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(default=_now)
    last_error: Mapped[str | None] = mapped_column(Text)
    sent_at: Mapped[datetime | None]
