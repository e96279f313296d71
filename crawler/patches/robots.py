"""Scrapy's robots.txt middleware, with every request that waited for a host's
robots.txt checked against it.

Works around Scrapy 2.19: of the requests that wait for a host's robots.txt, only the first
gets its parser; the others get None ("no robots.txt") and are fetched unchecked (see
docs/DECISIONS.md, "robots.txt for every waiting request"). By the time the fetch
ends, the middleware has stored the host's parser (None after a fetch error), so the rules
are read from there.

A refusal is raised as RobotsForbidden, so the spider can tell a page the site asked us not
to fetch from a failed fetch.
"""

from __future__ import annotations

from scrapy import Request
from scrapy.downloadermiddlewares import robotstxt
from scrapy.exceptions import IgnoreRequest
from scrapy.robotstxt import RobotParser
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred


class RobotsForbidden(IgnoreRequest):
    """The host's robots.txt forbids the request: not a failure, the site's wish."""


class RobotsTxtMiddleware(robotstxt.RobotsTxtMiddleware):
    """Scrapy's RobotsTxtMiddleware; every waiting request gets the host's parser, and a
    refusal is a RobotsForbidden."""

    def process_request_2(self, rp: RobotParser | None, request: Request) -> None:
        try:
            super().process_request_2(rp, request)
        except IgnoreRequest as refusal:
            raise RobotsForbidden(*refusal.args) from None

    async def robot_parser(self, request: Request) -> RobotParser | None:
        parser = await super().robot_parser(request)
        stored = self._parsers.get(urlparse_cached(request).netloc, parser)
        return parser if isinstance(stored, Deferred) else stored
