"""Issue 24, bounded work, crawled for real: a page that runs out of its time budget is
stored with what was done, counted and logged once, and the crawl goes on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.crawling import latest_run_stats, run_crawl, stored
from tests.hostile_pages import nested_links
from tests.integration.crawler.test_scope_crawl import PROSE, Recorder

# The hostile page takes seconds of CPU even within the caps; normal pages a few ms, the
# first one also loading the page-type model.
BUDGET_SECONDS = 0.5
HOSTILE_BYTES = 30_000_000


@pytest.fixture
def site() -> Iterator[Recorder]:
    home = ("<html><body><h1>Home</h1>" + PROSE + "<ul>" + "".join(
        f'<li><a href="{path}">link {path}</a></li>'
        for path in ("/hostile.html", "/a1.html", "/a2.html")) + "</ul></body></html>")
    server = Recorder("127.0.0.1", {
        "/": (200, {}, home),
        "/hostile.html": (200, {}, nested_links(HOSTILE_BYTES).decode()),
    })
    yield server
    server.shutdown()
    server.server_close()


def test_a_page_over_its_time_budget_is_stored_and_the_crawl_goes_on(
        site: Recorder, pg_url: str, tmp_path: Path) -> None:
    done = run_crawl(site.origin + "/", pg_url, tmp_path, "-a", "depth=1",
                     "-s", f"PAGE_TIME_BUDGET_SECONDS={BUDGET_SECONDS}")
    assert done.returncode == 0, done.stderr[-3000:]
    pages = stored(pg_url)
    hostile = site.origin + "/hostile.html"
    assert set(pages) == {site.origin + path for path in ("/", "/hostile.html", "/a1.html",
                                                          "/a2.html")}
    assert all(pages[site.origin + path].article.body_text for path in ("/a1.html", "/a2.html"))
    assert pages[hostile].records == []  # its extraction was cut short
    stats = latest_run_stats(pg_url)
    assert stats["pages/out_of_time"] == 1
    assert stats["pages/capped/markup"] == stats["pages/capped/elements"] == 1
    lines = [line for line in done.stderr.splitlines() if "time budget" in line]
    assert len(lines) == 1 and hostile in lines[0] and "WARNING" in lines[0], lines
    assert "Traceback" not in done.stderr
