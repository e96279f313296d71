"""How the crawl connects to its database: libpq timeouts and TCP keepalives, so a database
behind a partition that drops packets fails a call in seconds instead of hanging it (the
kernel alone retransmits for many minutes); and server-side timeouts, so a worker cut off
inside a transaction does not hold its row locks for ever (the server would otherwise wait
on the silent connection for hours, with every other writer of those rows behind it)."""

from __future__ import annotations

from scrapy.settings import BaseSettings

from crawler import settings as defaults
from models.db import ConnectOptions


def connect_options(settings: BaseSettings) -> ConnectOptions:
    """libpq's parameters for the crawl's connections (its writes, its template cache),
    from the DATABASE_* settings."""
    def number(name: str) -> float:
        return settings.getfloat(name, getattr(defaults, name))

    statement_ms = int(number("DATABASE_STATEMENT_TIMEOUT_SECONDS") * 1000)
    idle_ms = int(number("DATABASE_IDLE_IN_TRANSACTION_SECONDS") * 1000)
    return (("connect_timeout", int(number("DATABASE_CONNECT_TIMEOUT_SECONDS"))),
            ("keepalives", 1),
            ("keepalives_idle", int(number("DATABASE_KEEPALIVE_IDLE_SECONDS"))),
            ("keepalives_interval", int(number("DATABASE_KEEPALIVE_INTERVAL_SECONDS"))),
            ("keepalives_count", int(number("DATABASE_KEEPALIVE_COUNT"))),
            ("tcp_user_timeout", int(number("DATABASE_TCP_USER_TIMEOUT_SECONDS") * 1000)),
            ("options", f"-c statement_timeout={statement_ms} "
                        f"-c idle_in_transaction_session_timeout={idle_ms}"))
