"""robots.txt refusals in a real crawl: counted and told once per host, not failures."""

from __future__ import annotations

from pathlib import Path

from tests.crawling import latest_run_stats, run_crawl
from tests.demosite import DemoServer


def test_robots_refusals_are_counted_and_told_once_per_host_not_failures(
        pg_url: str, tmp_path: Path) -> None:
    """Pages robots.txt forbids are the site's wish, not fetch failures: one INFO line for
    the host, `robots/forbidden` in the run's stats, no `errors/…`, and each request settled."""
    with DemoServer() as server:
        urls = ",".join(server.url + path for path in ("/admin/", "/search", "/"))
        done = run_crawl(urls, pg_url, tmp_path, "-a", "depth=0")
        fetched = set(server.hits)
    assert done.returncode == 0, done.stderr[-3000:]
    host = server.url.removeprefix("http://")
    told = [line for line in done.stderr.splitlines() if f"robots.txt of {host} forbids" in line]
    assert len(told) == 1 and " INFO: " in told[0], done.stderr[-3000:]
    assert "fetch failed" not in done.stderr and "IgnoreRequest" not in done.stderr
    stats = latest_run_stats(pg_url)
    assert stats["robots/forbidden"] == 2
    assert not [name for name in stats if name.startswith("errors/")]
    assert not {"/admin/", "/search"} & fetched
