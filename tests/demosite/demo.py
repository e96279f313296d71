"""`make demo` (`python -m tests.demosite.demo`): crawl the project's own demo site, offline.

Serves the generated site on 127.0.0.1, runs `scrapy crawl site` against it into the
demo's own SQLite file (emptied first, so runs never pile up or reach a real store;
`--database-url` chooses another database, left as it is), showing on stderr how many of
the site's pages it fetched so far (`reading.progress`), and prints what was stored next to
the site's ground truth, naming every page where the two differ.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import delete, func, select

from crawler.migrate import upgrade
from models import Article, Comment, CrawlRun, ListRecord, Page, SiteTemplate, Source
from models.db import PROJECT_ROOT, get_engine, session_factory
from models.persist import DEFAULT_JOURNAL_ROOT, store_journal_root
from pipelines.results import ARTICLE_TYPES
from reading.progress import Progress
from tests.demosite import DemoServer

DEMO_SQLITE = PROJECT_ROOT / "var" / "demo.sqlite3"
DIFFERENCES_SHOWN = 20  # pages listed per kind of difference; the rest are counted
PROGRESS_POLL_SECONDS = 0.2  # between reads of the pages fetched, for the progress line


def crawl(base_url: str, database_url: str, extra_args: list[str],
          fetched: Callable[[], int], total: int) -> float:
    """Run the real `scrapy crawl site` command, showing its progress (`fetched()` of the
    site's `total` pages) on stderr; returns its wall time in seconds."""
    env = {**os.environ, "DATABASE_URL": database_url,
           "CRAWL_ALLOW_PRIVATE_ADDRESSES": "1"}  # the demo site is served on 127.0.0.1
    progress = Progress("pages fetched", total)
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"start_urls={base_url}/",
               "-s", "LOG_LEVEL=WARNING", *extra_args]
    with subprocess.Popen(command, cwd=PROJECT_ROOT, env=env) as process:
        while process.poll() is None:
            time.sleep(PROGRESS_POLL_SECONDS)
            progress.advance(fetched() - progress.done)
    progress.advance(fetched() - progress.done)
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command)
    progress.finish(f"fetched {progress.done:,} of the site's {total:,} pages in "
                    f"{progress.elapsed():.1f} s")
    return progress.elapsed()


def summarise(database_url: str, truth: dict[str, dict], base_url: str, seconds: float) -> str:
    """A readable report: pages per type against the truth, the pages that differ and
    why, sample articles, records."""
    with session_factory(database_url)() as session:
        run = session.scalars(select(CrawlRun).order_by(CrawlRun.id.desc())).first()
        pages = session.execute(select(Page.url, Page.page_type, Page.type_decided_by,
                                       Page.type_confidence)
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
    stored = Counter(page.page_type for page in pages)
    fetchable = {path: record for path, record in truth.items()
                 if not record["meta"].get("robots_disallowed")}
    expected = Counter(record["type"] for record in fetchable.values())
    right = sum(1 for page in pages
                if fetchable.get(page.url.removeprefix(base_url), {}).get("type") == page.page_type)
    lines = [f"Crawled {len(pages)} pages in {seconds:.1f}s ({len(pages) / seconds:.1f} pages/s)"
             f" into {database_url.split('@')[-1]}", "",
             "type      stored  in site (pages robots.txt lets a crawler fetch)"]
    lines += [f"{t:9} {stored.get(t, 0):6}  {expected.get(t, 0):7}"
              for t in ("news", "blog", "forum", "list", "other")]
    lines += [f"page type agrees with the site's ground truth on {right}/{len(pages)} pages"]
    lines += _differences(pages, truth, base_url)
    lines += [f"list records stored: {records}", "", "Some extracted articles:"]
    for url, page_type, title, author, published, length, comments in filter(None, articles):
        lines.append(f"- {page_type}: {title!r} by {author!r} at {published} ({length} chars, "
                     f"{comments} comments)\n  {url}")
    return "\n".join(lines)


def _differences(pages: list, truth: dict[str, dict], base_url: str) -> list[str]:
    """Every page where the crawl and the truth differ, grouped by why."""
    by_path = {page.url.removeprefix(base_url): page for page in pages}
    typed = [f"  {path}: stored as {page.page_type} ({page.type_decided_by}, confidence "
             f"{page.type_confidence or 0:.2f}); the site says {truth[path]['type']}"
             for path, page in sorted(by_path.items())
             if path in truth and truth[path]["type"] != page.page_type]
    disallowed = sorted(path for path, record in truth.items()
                        if record["meta"].get("robots_disallowed"))
    missed = sorted(path for path in truth if path not in by_path and path not in disallowed)
    extra = sorted(path for path in by_path if path not in truth)
    groups = [("typed otherwise than in the site's truth", typed),
              ("not fetched because robots.txt disallows it (as it should)",
               [f"  {path} ({truth[path]['type']})" for path in disallowed]),
              ("of the site not stored", [f"  {path}" for path in missed]),
              ("stored that the site's truth does not list", [f"  {path}" for path in extra])]
    lines = []
    for heading, entries in groups:
        if entries:
            lines.append(f"{len(entries)} {'page' if len(entries) == 1 else 'pages'} {heading}:")
            lines += entries[:DIFFERENCES_SHOWN]
            if len(entries) > DIFFERENCES_SHOWN:
                lines.append(f"  … and {len(entries) - DIFFERENCES_SHOWN} more")
    return lines


CRAWLED = (Page, CrawlRun, Source, SiteTemplate)  # what a demo run empties


def demo_database(explicit: str | None) -> str:
    """The demo's store: the URL given, else its own SQLite file, emptied first of what
    crawls wrote (with its journal) so each run starts clean and never mixes with a real
    crawl's store; its watches and their alerts stay, so a watch added between two demo
    runs sees the second one's pages."""
    if explicit:
        return explicit
    url = f"sqlite:///{DEMO_SQLITE}"
    DEMO_SQLITE.parent.mkdir(parents=True, exist_ok=True)
    if DEMO_SQLITE.exists():
        upgrade(url)
        with get_engine(url).begin() as connection:
            for table in CRAWLED:  # their rows' children go by cascade
                connection.execute(delete(table))
    journal_base = Path(os.environ.get("JOURNAL_DIR") or DEFAULT_JOURNAL_ROOT)
    shutil.rmtree(store_journal_root(journal_base, url), ignore_errors=True)
    return url


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.demosite.demo",
        description="Serve the generated demo site on 127.0.0.1, crawl it with `scrapy crawl "
                    "site` and compare what was stored with the site's ground truth. Other "
                    "arguments (-s NAME=VALUE, -a NAME=VALUE) go to scrapy.")
    parser.add_argument("--database-url",
                        help="crawl into this database, as it is (default: var/demo.sqlite3, "
                             "emptied first; $DATABASE_URL is not used)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the demo site's random seed: another seed, another site "
                             "(default: 0)")
    args, scrapy_args = parser.parse_known_args(argv)
    database_url = upgrade(demo_database(args.database_url))
    with DemoServer(seed=args.seed) as server:
        truth = server.site.ground_truth()
        fetchable = [path for path, record in truth.items()
                     if not record["meta"].get("robots_disallowed")]
        seconds = crawl(server.url, database_url, scrapy_args,
                        lambda: sum(1 for path in fetchable if path in server.hits),
                        len(fetchable))
    print(summarise(database_url, truth, server.url, seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
