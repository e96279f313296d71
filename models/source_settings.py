"""The keys a Source's `settings` accepts and what each must hold, in one place.

They are checked when a source is saved (`models.crawl.Source`) and again when one is
loaded for a crawl (`crawler.sources`), so a typo is refused instead of silently doing
nothing. A key left out keeps the crawl's own setting (crawler/settings.py, `-s`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SourceSettings:
    """A source's overrides, parsed; None (or empty) leaves the crawl's own setting."""

    download_delay: float | None = None  # seconds between request starts to one domain
    concurrency: int | None = None  # requests in flight to one domain
    user_agent: str | None = None
    headers: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    cookies: bool | None = None
    private_addresses: bool | None = None  # may reach loopback and private networks
    timezone: str | None = None  # the IANA zone the site writes its times in
    pagination_chain_limit: int | None = None  # pages of one list followed in a row
    domain_queue_limit: int | None = None  # requests queued per domain
    url_repeat_limit: int | None = None  # repeats of a path segment or query pair in a URL
    # Revisits of its stored articles (crawler/revisits.py): seconds, factor, count per run.
    revisit_min_interval: float | None = None
    revisit_max_interval: float | None = None
    revisit_backoff: float | None = None
    revisit_max_age: float | None = None
    revisit_max_per_run: int | None = None

    @property
    def slot_settings(self) -> dict[str, float | int]:
        """The source's download-slot policy in Scrapy's DOWNLOAD_SLOTS form (empty: none).
        A set delay is exact (no jitter), so requests are never closer than it."""
        slot: dict[str, float | int] = {}
        if self.concurrency is not None:
            slot["concurrency"] = self.concurrency
        if self.download_delay is not None:
            slot.update(delay=self.download_delay, jitter=0.0)
        return slot


@dataclass(frozen=True)
class _Key:
    """One accepted key: the SourceSettings field it fills, its check and how it is said."""

    name: str
    attribute: str
    valid: Callable[[Any], bool]
    expected: str
    convert: Callable[[Any], Any] = lambda value: value


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value >= 0


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _headers(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and k and isinstance(v, str)
                                           for k, v in value.items())


KEYS: dict[str, _Key] = {key.name: key for key in (
    _Key("DOWNLOAD_DELAY", "download_delay", _number,
         "seconds between requests to one domain, a number >= 0", float),
    _Key("CONCURRENT_REQUESTS_PER_DOMAIN", "concurrency",
         lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 1,
         "requests at once to one domain, an integer >= 1"),
    _Key("USER_AGENT", "user_agent", lambda v: isinstance(v, str) and bool(v.strip()),
         "a non-empty string"),
    _Key("DEFAULT_REQUEST_HEADERS", "headers", _headers,
         'an object of header name to string value, e.g. {"Accept-Language": "zh-CN"}',
         lambda value: tuple(value.items())),
    _Key("COOKIES_ENABLED", "cookies", lambda v: isinstance(v, bool), "true or false"),
    _Key("ALLOW_PRIVATE_ADDRESSES", "private_addresses", lambda v: isinstance(v, bool),
         "true or false"),
    _Key("timezone", "timezone", lambda v: isinstance(v, str) and bool(v),
         'an IANA zone name, e.g. "Asia/Shanghai"'),
    _Key("PAGINATION_CHAIN_LIMIT", "pagination_chain_limit", _count,
         "pages of one list followed in a row, an integer >= 0 (0: no limit)"),
    _Key("DOMAIN_QUEUE_LIMIT", "domain_queue_limit", _count,
         "requests queued per domain, an integer >= 0 (0: no limit)"),
    _Key("URL_REPEAT_LIMIT", "url_repeat_limit", _count,
         "times a path segment or query pair may recur in a URL, an integer >= 0 (0: no limit)"),
    _Key("REVISIT_MIN_INTERVAL", "revisit_min_interval", lambda v: _number(v) and v > 0,
         "seconds from a visit that found a change to the next, a number > 0", float),
    _Key("REVISIT_MAX_INTERVAL", "revisit_max_interval", lambda v: _number(v) and v > 0,
         "the longest seconds between two visits, a number > 0", float),
    _Key("REVISIT_BACKOFF", "revisit_backoff", lambda v: _number(v) and v >= 1,
         "the factor an unchanged visit stretches the interval by, a number >= 1", float),
    _Key("REVISIT_MAX_AGE", "revisit_max_age", _number,
         "seconds after an article is first seen that it is revisited, a number >= 0 "
         "(0: never)", float),
    _Key("REVISIT_MAX_PER_RUN", "revisit_max_per_run",
         lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
         "articles revisited per run at most, an integer >= 0"),
)}
ACCEPTED = ", ".join(KEYS)


def settings_object(raw: Any) -> dict[str, Any]:
    """The settings as a dict, whether stored as an object or as that object's JSON text
    (double-encoded); ValueError saying what is accepted otherwise."""
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError as error:
        raise ValueError(f"settings {raw!r}: not JSON ({error}); "
                         f"accepted: a JSON object with keys {ACCEPTED}") from error
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"settings {json.dumps(value)}: not a JSON object; "
                         f"accepted: a JSON object with keys {ACCEPTED}")
    return value


def parse_source_settings(raw: Any) -> SourceSettings:
    """Check every key and value; ValueError naming the first wrong one and what is accepted."""
    values = {}
    for name, value in settings_object(raw).items():
        key = KEYS.get(name)
        if key is None:
            raise ValueError(f"unknown settings key {name!r}; accepted keys: {ACCEPTED}")
        if not key.valid(value):
            raise ValueError(f"settings {name}={json.dumps(value, ensure_ascii=False)}: "
                             f"expected {key.expected}")
        values[key.attribute] = key.convert(value)
    return SourceSettings(**values)
