"""A worker whose metrics cannot be served crawls on without them, saying why in one line."""

from __future__ import annotations

import logging
import socket

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from crawler.metrics.worker import WorkerMetrics
from crawler.spiders.site import SiteSpider


@pytest.mark.parametrize("port", ["taken", "not-a-port"])
def test_metrics_that_cannot_be_served_are_left_out_with_one_error_line(
        port: str, caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        value = str(taken.getsockname()[1]) if port == "taken" else port
        crawler = get_crawler(SiteSpider, {"METRICS_PORT": value})
        with caplog.at_level(logging.ERROR), pytest.raises(NotConfigured):
            WorkerMetrics.from_crawler(crawler)
    [line] = [record.getMessage() for record in caplog.records]
    assert line.startswith(f"no metrics: cannot serve them on 127.0.0.1:{value}")
    assert line.endswith("the crawl goes on")


def test_without_a_port_there_are_no_metrics() -> None:
    with pytest.raises(NotConfigured):
        WorkerMetrics.from_crawler(get_crawler(SiteSpider, {}))
