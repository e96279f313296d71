"""The reading commands as a user runs them, on PostgreSQL and SQLite: reindex after an
upgrade, search, export."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models.search import SearchDocument
from models.store import save_pages
from models.story import ArticleStory
from tests.crawling import ROOT
from tests.factories import article_page


def _crawler(store_url: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crawler", *argv, "--database-url", store_url],
                          cwd=ROOT, text=True, capture_output=True, env=dict(os.environ),
                          check=False, timeout=120)


def test_reindex_search_and_export(store_url: str, session: Session) -> None:
    save_pages(session, [article_page(f"http://a.cn/{n}", body=f"第{n}篇：疫情防控进展。")
                         for n in range(3)], index=False)  # as before search existed
    session.commit()
    assert session.scalar(select(func.count()).select_from(SearchDocument)) == 0
    assert _crawler(store_url, "search", "疫情").stdout == ""
    refused = _crawler(store_url, "export")
    assert refused.returncode == 2 and "reindex" in refused.stderr

    done = _crawler(store_url, "reindex")
    assert done.returncode == 0, done.stderr
    assert "reindexed 3 pages" in done.stderr and "grouped 3 articles" in done.stderr
    assert session.scalar(select(func.count()).select_from(ArticleStory)) == 3

    found = _crawler(store_url, "search", "疫情", "--kind", "article", "--json")
    hits = [json.loads(line) for line in found.stdout.splitlines()]
    assert sorted(hit["url"] for hit in hits) == [f"http://a.cn/{n}" for n in range(3)]
    shown = _crawler(store_url, "search", "疫情", "--kind", "article", "--limit", "2")
    assert "【疫情】" in shown.stdout and "(more: --page 2)" in shown.stderr
    bad = _crawler(store_url, "search", "(疫情")
    assert bad.returncode == 2 and "not closed" in bad.stderr

    exported = _crawler(store_url, "export", "--format", "csv", "--query", "疫情",
                        "--kind", "article")
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert [row["url"] for row in rows] == [f"http://a.cn/{n}" for n in range(3)]
    assert "exported 3 rows" in exported.stderr
