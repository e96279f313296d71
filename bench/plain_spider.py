"""The plain-Scrapy baseline of `bench.crawl --latency`: a minimal spider that fetches the
URLs listed in a file (one a line) and does nothing with the responses, under Scrapy's own
components and whatever concurrency and politeness settings it is run with. Run it outside
the project (no scrapy.cfg in sight), so none of the crawler's components load:

    scrapy runspider bench/plain_spider.py -a urls=FILE -s CONCURRENT_REQUESTS=16 …
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from scrapy import Request, Spider
from scrapy.http import Response


class PlainSpider(Spider):
    """GET every listed URL once."""

    name = "plain"

    def __init__(self, urls: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.url_file = Path(urls)

    async def start(self) -> AsyncIterator[Request]:
        for url in self.url_file.read_text().split():
            yield Request(url, callback=self.parse)

    def parse(self, response: Response) -> None:
        """Nothing: the baseline is what fetching alone costs."""
