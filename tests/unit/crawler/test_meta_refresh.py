"""A page that declares a codec that is no character set and says "refresh" in its head:
Scrapy's meta-refresh check decodes it with that codec (`response.text`) and failed the
fetch with LookupError or UnicodeError, losing the page."""

from __future__ import annotations

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from crawler.patches.meta_refresh import MetaRefreshMiddleware

CODECS = ["hex", "base64", "idna", "punycode", "undefined"]


def _page(codec: str, refresh: str, in_header: bool) -> HtmlResponse:
    body = (f'<html><head><meta charset="{codec}"><meta http-equiv="refresh" '
            f'content="{refresh}"><title>新闻</title></head><body>政策解读</body></html>')
    header = f"text/html; charset={codec}" if in_header else "text/html"
    request = Request("http://a.cn/p.html")
    return HtmlResponse(request.url, body=body.encode("gbk"), request=request,
                        headers={"Content-Type": header})


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("in_header", [False, True])
def test_a_page_declaring_no_character_set_is_kept_or_refreshed(codec: str,
                                                               in_header: bool) -> None:
    middleware = MetaRefreshMiddleware.from_crawler(get_crawler())
    reloading = _page(codec, "600", in_header)  # a portal reloading itself: no redirect
    assert middleware.process_response(reloading.request, reloading) is reloading
    moved = _page(codec, "0; url=/new.html", in_header)
    redirected = middleware.process_response(moved.request, moved)
    assert isinstance(redirected, Request) and redirected.url == "http://a.cn/new.html"
