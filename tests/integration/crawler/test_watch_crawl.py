"""A watch added from the command line, a crawl of the demo site, and its alerts arriving
at a local webhook during the crawl, once per story; a second crawl sends nothing new. A
crawl told to store pages without the search index raises nothing; reindex builds it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import func, select

from models.db import session_factory
from models.page import Article, Page
from models.search import SearchDocument
from models.story import ArticleStory
from models.watch import Alert, Delivery
from tests.crawling import ROOT, latest_run_stats, run_crawl
from tests.demosite import DemoServer
from tests.receivers import webhook_receiver

WORD = "零售"  # in a handful of the demo site's articles


def _command(database_url: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crawler", *argv], cwd=ROOT, text=True,
                          capture_output=True, env={**os.environ, "DATABASE_URL": database_url},
                          check=False, timeout=120)


def test_alerts_reach_the_webhook_during_the_crawl_once_per_story(pg_url: str,
                                                                 tmp_path: Path) -> None:
    with webhook_receiver() as receiver, DemoServer() as server:
        added = _command(pg_url, "watch", "add", "retail", WORD, "--kind", "article",
                         "--webhook", receiver.url + "/alerts")
        assert added.returncode == 0, added.stderr
        first = run_crawl(server.url + "/", pg_url, tmp_path, "-a", "depth=8")
        assert first.returncode == 0, first.stderr[-3000:]
        delivered = len(receiver.posts)
        again = run_crawl(server.url + "/", pg_url, tmp_path, "-a", "depth=8")
        assert again.returncode == 0, again.stderr[-3000:]
        assert len(receiver.posts) == delivered  # the revisit raised nothing
    with session_factory(pg_url)() as session:
        expected = {url for url, in session.execute(
            select(Page.url).join(Article).where(Article.body_text.contains(WORD)
                                                 | Article.title.contains(WORD)))}
        alerts = session.scalars(select(Alert)).all()
        deliveries = session.scalars(select(Delivery)).all()
    assert expected and {alert.url for alert in alerts} == expected
    assert len(alerts) == len(expected) == delivered
    assert {delivery.status for delivery in deliveries} == {"sent"}
    assert sorted(payload["message"].split("\n\n")[1].split("\n")[0]
                  for _, payload in receiver.posts) == sorted(expected)
    stats = latest_run_stats(pg_url)
    assert stats.get("alerts/raised", 0) == 0  # (the second run's)
    listed = _command(pg_url, "alerts", "--unread", "--json")
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == len(expected)


def test_a_crawl_without_the_search_index_stores_pages_only_and_reindex_builds_it(
        pg_url: str, tmp_path: Path) -> None:
    with webhook_receiver() as receiver, DemoServer() as server:
        added = _command(pg_url, "watch", "add", "retail", WORD, "--kind", "article",
                         "--webhook", receiver.url + "/alerts")
        assert added.returncode == 0, added.stderr
        crawled = run_crawl(server.url + "/", pg_url, tmp_path, "-a", "depth=8",
                            "-s", "SEARCH_INDEX_ENABLED=False")
        assert crawled.returncode == 0, crawled.stderr[-3000:]
        assert "stored without search rows (SEARCH_INDEX_ENABLED)" in crawled.stderr
        assert receiver.posts == []
    with session_factory(pg_url)() as session:
        articles = session.scalar(select(func.count()).select_from(Article))
        unindexed = [session.scalar(select(func.count()).select_from(table))
                     for table in (SearchDocument, ArticleStory, Alert)]
    assert articles and unindexed == [0, 0, 0]
    assert latest_run_stats(pg_url).get("pages/new", 0) >= articles

    built = _command(pg_url, "reindex")
    assert built.returncode == 0, built.stderr
    assert f"grouped {articles:,} articles" in built.stderr
    found = _command(pg_url, "search", WORD, "--kind", "article", "--limit", "100", "--json")
    with session_factory(pg_url)() as session:
        expected = {url for url, in session.execute(
            select(Page.url).join(Article).where(Article.body_text.contains(WORD)
                                                 | Article.title.contains(WORD)))}
        indexed = session.scalar(select(func.count()).select_from(SearchDocument)
                                 .where(SearchDocument.kind == "article"))
    assert indexed == articles
    assert expected and {json.loads(line)["url"] for line in found.stdout.splitlines()} == expected
