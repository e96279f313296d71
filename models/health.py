"""Crawl-health alerts: a condition (a source whose runs store nothing new, a worker whose
heartbeat stopped, a database out of reach, …) from when it was raised until it cleared.

A condition is open while `cleared_at` is null, and at most one row per `key` is open (a
partial unique index): however many schedulers evaluate the same rules, one of them raises
it, once. `origin` is who evaluates it ("scheduler", or a worker's name) and so who may
clear it. `delivery` says how sending it went (sent, or why not).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base


class HealthAlert(Base):
    """One crawl-health condition, raised and (once it no longer holds) cleared."""

    __tablename__ = "health_alert"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(300))
    kind: Mapped[str] = mapped_column(String(30))
    origin: Mapped[str] = mapped_column(String(200), index=True)
    message: Mapped[str] = mapped_column(Text)
    raised_at: Mapped[datetime] = mapped_column(default=lambda: datetime.now(UTC), index=True)
    cleared_at: Mapped[datetime | None]
    delivery: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (Index("uq_health_alert_open_key", "key", unique=True,
                            postgresql_where=text("cleared_at IS NULL"),
                            sqlite_where=text("cleared_at IS NULL")),)
