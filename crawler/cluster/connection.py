"""The workers' Redis connection: scrapy-redis's, made to ride out a Redis restart.

A command that meets a broken or refused connection (or a Redis still loading its AOF)
reconnects and is sent again, with exponential back-off between attempts (redis-py's
`Retry`); idle connections are checked before use. An outage longer than the attempts
last raises to the caller, which keeps what it could not send (`crawler.cluster.scheduler`).
"""

from __future__ import annotations

from redis import Redis
from redis.backoff import ExponentialBackoff
from redis.exceptions import BusyLoadingError, ConnectionError, TimeoutError
from redis.retry import Retry
from scrapy.settings import BaseSettings
from scrapy_redis import connection

from crawler import settings as defaults


def with_retries(settings: BaseSettings) -> BaseSettings:
    """A copy of `settings` whose REDIS_PARAMS add the retries (REDIS_RETRY_ATTEMPTS,
    REDIS_BACKOFF_BASE_SECONDS, REDIS_BACKOFF_CAP_SECONDS), the idle check
    (REDIS_HEALTH_CHECK_SECONDS) and the socket timeouts (REDIS_SOCKET_TIMEOUT_SECONDS)."""
    def number(name: str) -> float:
        return settings.getfloat(name, getattr(defaults, name))

    timeout = number("REDIS_SOCKET_TIMEOUT_SECONDS")
    backoff = ExponentialBackoff(cap=number("REDIS_BACKOFF_CAP_SECONDS"),
                                 base=number("REDIS_BACKOFF_BASE_SECONDS"))
    params = {**settings.getdict("REDIS_PARAMS"),
              "retry": Retry(backoff, int(number("REDIS_RETRY_ATTEMPTS"))),
              "retry_on_error": [ConnectionError, TimeoutError, BusyLoadingError],
              "health_check_interval": number("REDIS_HEALTH_CHECK_SECONDS"),
              "socket_timeout": timeout, "socket_connect_timeout": timeout}
    copy = settings.copy()
    copy.frozen = False  # a frozen crawler's settings copy frozen
    copy.set("REDIS_PARAMS", params)
    return copy


def from_settings(settings: BaseSettings) -> Redis:
    """scrapy-redis's client for these settings, with the retries of `with_retries`."""
    return connection.from_settings(with_retries(settings))
