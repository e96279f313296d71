"""Scrapy's meta-refresh redirects, without decoding pages that cannot have one, and
without failing a page that declares a codec Scrapy cannot decode with.

Works around Scrapy 2.19: it looks for `<meta http-equiv="refresh">` in the first 4096
characters of every HTML response through `response.text`, which decodes the whole body only
to throw the text away; our page layer decodes the raw body itself (see
docs/DECISIONS.md, "Meta refresh without decoding"). The tag needs the letters
"refresh"; in every ASCII-compatible encoding (UTF-8, GBK, GB18030, Big5,
Shift_JIS, the ISO-8859 family) those are the same bytes, so a page whose first 16 KiB
(4096 characters of at most 4 bytes) do not contain them has no meta refresh. A head
with a NUL byte (UTF-16, UTF-32) still goes through Scrapy's own check.
"""

from __future__ import annotations

from scrapy import Request
from scrapy.downloadermiddlewares import redirect
from scrapy.http import HtmlResponse, Response

# Scrapy reads the first 4096 characters; an ASCII-compatible encoding spends at most
# 4 bytes on one.
HEAD_BYTES = 4 * 4096


def may_refresh(body: bytes) -> bool:
    """False only when the body's head cannot hold a meta refresh tag."""
    head = body[:HEAD_BYTES]
    return b"\0" in head or b"refresh" in head.lower()


class MetaRefreshMiddleware(redirect.MetaRefreshMiddleware):
    """Scrapy's middleware, skipped for HTML whose head never says "refresh"."""

    def process_response(self, request: Request, response: Response,
                         spider: object = None) -> Request | Response:
        if isinstance(response, HtmlResponse) and not may_refresh(response.body):
            return response
        try:
            return super().process_response(request, response)
        except (LookupError, UnicodeError):
            # The page declares a codec that is no character set (hex, idna…), which
            # `response.text` fails on; the tag is ASCII, and Latin-1 decodes any byte.
            result = super().process_response(request, response.replace(encoding="latin-1"))
            return result if isinstance(result, Request) else response
