"""`python -m crawler demo` (`make demo`): crawl the project's own demo site, offline.

Serves the generated site on 127.0.0.1, runs `scrapy crawl site` against it into the
configured database (the embedded SQLite file by default), and prints what was
stored next to the site's ground truth.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections import Counter

from sqlalchemy import func, select

from crawler.demosite import DemoServer
from crawler.migrate import upgrade
from models import Article, Comment, CrawlRun, ListRecord, Page
from models.db import PROJECT_ROOT, session_factory
from pipelines.results import ARTICLE_TYPES


def crawl(base_url: str, database_url: str, extra_args: list[str]) -> float:
    """Run the real `scrapy crawl site` command; returns its wall time in seconds."""
    env = {**os.environ, "DATABASE_URL": database_url}
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "scrapy", "crawl", "site", "-a",
                    f"start_urls={base_url}/", "-s", "LOG_LEVEL=WARNING", *extra_args],
                   cwd=PROJECT_ROOT, env=env, check=True)
    return time.monotonic() - started


def summarise(database_url: str, truth: dict[str, dict], base_url: str, seconds: float) -> str:
    """A readable report: pages per type against the truth, sample articles, records."""
    with session_factory(database_url)() as session:
        run = session.scalars(select(CrawlRun).order_by(CrawlRun.id.desc())).first()
        pages = session.execute(select(Page.url, Page.page_type)
                                .where(Page.crawl_run_id == run.id)).all()
        discussed = (select(func.count(Comment.id)).where(Comment.article_id == Article.id)
                     .scalar_subquery())
        articles = [session.execute(  # the most discussed stored page of each article type
            select(Page.url, Page.page_type, Article.title, Article.author,
                   Article.published_at, func.length(Article.body_text), discussed)
            .join(Article).where(Page.crawl_run_id == run.id, Page.page_type == page_type)
            .order_by(discussed.desc(), Page.id).limit(1)).first() for page_type in ARTICLE_TYPES]
        records = session.scalar(select(func.count()).select_from(ListRecord).join(Page)
                                 .where(Page.crawl_run_id == run.id))
    stored = Counter(page_type for _, page_type in pages)
    expected = Counter(record["type"] for record in truth.values())
    right = sum(1 for url, page_type in pages
                if truth.get(url.removeprefix(base_url), {}).get("type") == page_type)
    lines = [f"Crawled {len(pages)} pages in {seconds:.1f}s ({len(pages) / seconds:.1f} pages/s)"
             f" into {database_url.split('@')[-1]}", "", "type      stored  in site"]
    lines += [f"{t:9} {stored.get(t, 0):6}  {expected.get(t, 0):7}"
              for t in ("news", "blog", "forum", "list", "other")]
    lines += [f"page type agrees with the site's ground truth on {right}/{len(pages)} pages",
              f"list records stored: {records}", "", "Some extracted articles:"]
    for url, page_type, title, author, published, length, comments in filter(None, articles):
        lines.append(f"- {page_type}: {title!r} by {author!r} at {published} ({length} chars, "
                     f"{comments} comments)\n  {url}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m crawler demo")
    parser.add_argument("--database-url", help="default: $DATABASE_URL or var/crawler.sqlite3")
    parser.add_argument("--seed", type=int, default=0)
    args, scrapy_args = parser.parse_known_args(argv)
    database_url = upgrade(args.database_url)
    with DemoServer(seed=args.seed) as server:
        seconds = crawl(server.url, database_url, scrapy_args)
        truth = server.site.ground_truth()
    print(summarise(database_url, truth, server.url, seconds))
    return 0
