"""The time zone a page writes its times in, for the times that do not say.

A Chinese page's "2023-05-01 10:00" is Beijing time. Kept without a zone, PostgreSQL reads
it in the session's zone (UTC on most servers) and files it eight hours late, and "昨天"
read against a UTC fetch time is the wrong day for eight hours of every day. The zone comes
from the URL's country domain, else from the page's language, and only where that settles
it: every region that writes Chinese keeps UTC+8, English settles nothing.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pipelines.page_text import host_of

COUNTRY_ZONES = {"de": "Europe/Berlin", "at": "Europe/Vienna", "ch": "Europe/Zurich",
                 "fr": "Europe/Paris", "it": "Europe/Rome", "es": "Europe/Madrid",
                 "nl": "Europe/Amsterdam", "pl": "Europe/Warsaw", "be": "Europe/Brussels",
                 "uk": "Europe/London", "cn": "Asia/Shanghai", "tw": "Asia/Taipei",
                 "hk": "Asia/Hong_Kong", "mo": "Asia/Macau", "sg": "Asia/Singapore",
                 "jp": "Asia/Tokyo", "kr": "Asia/Seoul"}
LANGUAGE_ZONES = {"de": "Europe/Berlin", "it": "Europe/Rome", "nl": "Europe/Amsterdam",
                  "pl": "Europe/Warsaw", "zh": "Asia/Shanghai", "ja": "Asia/Tokyo",
                  "ko": "Asia/Seoul"}


@cache
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def zone_named(name: str) -> ZoneInfo:
    """The IANA zone `name` ("Asia/Hong_Kong"), or a ValueError that says what is wrong."""
    try:
        return _zone(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(f"unknown time zone {name!r} (an IANA name: Asia/Shanghai, "
                         "Europe/Berlin, UTC …)") from error


def page_zone(url: str | None, language: str | None,
              pinned: ZoneInfo | None = None) -> ZoneInfo | None:
    """The zone the crawl was told (`pinned`), else the page's country domain's, else its
    language's; None when none settles one."""
    if pinned is not None:
        return pinned
    name = COUNTRY_ZONES.get(host_of(url).rsplit(".", 1)[-1]) or LANGUAGE_ZONES.get(
        (language or "").replace("_", "-").split("-")[0].lower())  # zh-CN, zh_CN, ZH
    return _zone(name) if name else None


def local_now(now: datetime, zone: ZoneInfo | None) -> datetime:
    """The fetch time on the page's clock, so that "today" and "昨天" are its days."""
    return now.astimezone(zone) if zone and now.tzinfo else now


def localise(when: datetime | None, zone: ZoneInfo | None) -> datetime | None:
    """A time written without a zone, placed in the page's; a zoned one as it is."""
    return when.replace(tzinfo=zone) if when and zone and when.tzinfo is None else when
