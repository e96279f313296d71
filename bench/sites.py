"""Whole real sites, crawled end to end: ../shared/data/realsites, scored against truth.json.

    python -m bench.sites [--sites NAME …] [--database sqlite|postgresql] [--depth N]
                          [--admin-url URL] [--out PATH] [--keep DIR]

For each site: its `root/` is served on 127.0.0.1 behind a replay proxy (bench.sites_serve)
that `http_proxy` / `https_proxy` point the crawl at. A site whose pages name their real
host (truth `site.own_hosts`) is crawled from that host's real origin, unchanged, as a
replay would: the proxy answers that host (http, and https through CONNECT with a
throwaway certificate) from the local server. Any other host is refused, so nothing leaves
the machine. The crawl is the user's command, run from the project root into a fresh,
migrated database (`python -m crawler migrate`, then `python -m scrapy crawl site -a
start_urls=… -a depth=N -a max_pages=0`; SQLite by default, or a throwaway PostgreSQL
database), with its journal in a temporary folder. The store is then read back with the
models and scored (bench.sites_score): coverage of the posts reachable from the start page
within the depth by the site's own links, article / list / other, body precision / recall /
F1 with the shared scorer (characters for Chinese sites, words else) beside trafilatura's
on the same posts' HTML in the same run, title, publish day, author, language, comments,
list records, next page found and followed, and pages/s. One markdown table per site and
an overall one are printed and written, with the command and date, to --out.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from tempfile import TemporaryDirectory
from urllib.parse import quote

from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import selectinload

from bench.articles import SHARED, scorer
from bench.sites_score import (
    GROUPS,
    Body,
    BodyMetric,
    PathMap,
    SiteScore,
    SiteTruth,
    Stored,
    body_figures,
    link_hops,
    records_figures,
    score_site,
)
from bench.sites_serve import ReplayProxy, serve_proxy, serve_site
from models import Article, CrawlRun, Page
from models.db import PROJECT_ROOT, get_engine, session_factory

REALSITES = SHARED / "data" / "realsites"
DEFAULT_DEPTH = 10
DEFAULT_OUT = PROJECT_ROOT / "docs" / "BENCHMARKS-sites.md"
PG_ADMIN_URL = os.environ.get("TEST_PG_ADMIN_URL",
                              "postgresql+psycopg2://postgres@127.0.0.1:5432/test")
# Variables of this shell that would change the crawl: a cluster, or proxies not ours.
_UNSET = ("REDIS_URL", "no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY")


def all_sites() -> list[str]:
    return sorted(p.parent.name for p in REALSITES.glob("*/truth.json"))


@contextmanager
def fresh_database(kind: str, folder: Path, admin_url: str, keep: bool) -> Iterator[str]:
    """A new empty database's URL: a SQLite file in `folder`, or a PostgreSQL database
    created on `admin_url`'s server (dropped afterwards unless kept)."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'store.sqlite3'}"
        return
    name = f"bench_sites_{uuid.uuid4().hex[:8]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    finally:
        if not keep:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def crawl(start_url: str, depth: int, database: str, workdir: Path,
          proxy: ReplayProxy) -> tuple[float, Path]:
    """Migrate the database, then run the user's crawl command; seconds it took, its log."""
    env = {k: v for k, v in os.environ.items() if k not in _UNSET}
    env.update(DATABASE_URL=database, JOURNAL_DIR=str(workdir / "journal"),
               CRAWL_ALLOW_PRIVATE_ADDRESSES="1", **proxy.environment())  # served locally
    log = workdir / "crawl.log"
    with log.open("wb") as handle:
        subprocess.run([sys.executable, "-m", "crawler", "migrate"], cwd=PROJECT_ROOT, env=env,
                       stdout=handle, stderr=subprocess.STDOUT, check=True)
        began = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "scrapy", "crawl", "site",
                               "-a", f"start_urls={start_url}", "-a", f"depth={depth}",
                               "-a", "max_pages=0"],
                              cwd=PROJECT_ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT)
        seconds = time.monotonic() - began
    if done.returncode != 0:
        tail = log.read_text(errors="replace").splitlines()[-20:]
        raise RuntimeError(f"crawl of {start_url} exited {done.returncode}:\n" + "\n".join(tail))
    return seconds, log


def read_store(url: str) -> tuple[list[Stored], dict, float]:
    """Every stored page with its article, comments and records; the last run's stats;
    seconds from the first page fetched to the last."""
    with session_factory(url)() as session:
        pages = session.scalars(select(Page).options(
            selectinload(Page.article).selectinload(Article.comments),
            selectinload(Page.records))).all()
        stored = [Stored(
            url=page.url, page_type=page.page_type, next_page_url=page.next_page_url,
            records=[record.url for record in page.records],
            **({"title": page.article.title, "author": page.article.author,
                "published_at": page.article.published_at,
                "published_raw": page.article.published_raw, "language": page.article.language,
                "body": page.article.body_text,
                "comments": [comment.text for comment in page.article.comments]}
               if page.article else {})) for page in pages]
        run = session.scalars(select(CrawlRun).order_by(CrawlRun.id.desc())).first()
        stats = dict(run.stats) if run else {}
        times = [page.fetched_at for page in pages]
    get_engine(url).dispose()
    return stored, stats, (max(times) - min(times)).total_seconds() if times else 0.0


def trafilatura_bodies(truth: SiteTruth, origin: str, paths: list[str]) -> dict[str, str]:
    """trafilatura.extract with its defaults, as bench.articles calls it, on the posts'
    served HTML."""
    import trafilatura

    return {path: trafilatura.extract(truth.file(path).read_bytes(), url=origin + quote(path),
                                      include_comments=False) or ""
            for path in paths}


def run_site(folder: Path, args: argparse.Namespace, metric: BodyMetric) -> SiteScore:
    """Serve, crawl and score the site in `folder` (root/ and truth.json)."""
    truth = SiteTruth.load(folder)
    name = truth.name
    with TemporaryDirectory(prefix=f"bench-sites-{name}-") as temp:
        workdir = Path(temp)
        if args.keep:  # emptied first: a store or journal left there is no fresh start
            workdir = args.keep / name
            shutil.rmtree(workdir, ignore_errors=True)
            workdir.mkdir(parents=True)
        with (serve_site(truth.root) as site,
              serve_proxy(site, truth.own_hosts, workdir) as proxy,
              fresh_database(args.database, workdir, args.admin_url, bool(args.keep)) as db):
            origin = truth.real_origin() or site.origin
            print(f"{name}: crawling {origin}{truth.start} (depth {args.depth}) into "
                  f"{args.database}", file=sys.stderr, flush=True)
            seconds, log = crawl(origin + truth.start, args.depth, db, workdir, proxy)
            stored, stats, fetch_seconds = read_store(db)
            refused = dict(proxy.refused)
        hops = link_hops(truth, origin)
        paths = PathMap(truth, [origin])
        kept = {paths.path(page.url) for page in stored}
        posts = [p for p, t in truth.posts().items() if "body" in t and p in kept]
        peers = {"trafilatura": trafilatura_bodies(truth, origin, posts)}
        score = score_site(truth, stored, hops, args.depth, origin, peers, metric)
        score.seconds, score.fetch_seconds = seconds, fetch_seconds
        score.notes += _crawl_notes(stats, refused)
        if args.keep:
            print(f"{name}: store, journal and log kept in {workdir} (log: {log.name})",
                  file=sys.stderr)
    return score


def _crawl_notes(stats: dict, refused: dict[str, int]) -> list[str]:
    notes = []
    errors = {k: v for k, v in stats.items() if k.startswith(("errors/", "robots/"))}
    if errors:
        notes.append(f"crawl errors: {errors}")
    if refused:
        notes.append(f"requests the proxy refused (other hosts): {refused}")
    return notes


def _f(value: float | None) -> str:
    return "–" if value is None or value != value else f"{value:.3f}"


def _rate(pages: int, seconds: float) -> str:
    return f"{pages / seconds:.1f}" if seconds else "–"


def _body_cell(score: SiteScore, system: str, metric: BodyMetric) -> str:
    p, r, f1 = body_figures(score.body[system], metric)
    return f"{_f(p)} / {_f(r)} / **{_f(f1)}**"


def site_table(score: SiteScore, metric: BodyMetric) -> str:
    """One site's figures as markdown."""
    posts = score.body["ours"]
    rp, rr, rf = records_figures(score)
    outside = ", ".join(f"{n} {t}" for t, n in score.outside.most_common()) or "none"
    rows = [
        ("pages stored", f"{score.stored_pages} ({score.truth_pages} in truth; outside the "
                         f"truth: {outside}; truth pages stored twice: {score.duplicates})"),
        ("coverage: reachable posts stored", f"{score.coverage} (posts in truth: "
                                             f"{score.posts}; stored of all: "
                                             f"{score.coverage_all})"),
        *_ratio_rows(score, (("reachable list pages stored", "lists_reached"),
                             ("type right (article / list / other)", "types"),
                             ("posts typed list", "posts_as_list"))),
        ("body P / R / F1, ours", f"{_body_cell(score, 'ours', metric)} "
                                  f"(exact {posts.exact}/{len(posts.rows)})"),
        ("body P / R / F1, trafilatura", f"{_body_cell(score, 'trafilatura', metric)} "
                                         f"(exact {score.body['trafilatura'].exact}/"
                                         f"{len(score.body['trafilatura'].rows)})"),
        *_ratio_rows(score, (("title exact", "title"), ("publish day", "day"),
                             ("author (where truth has one)", "author"),
                             ("language", "language"), ("comment recall", "comments"),
                             ("comment rows on pages without comments", "stray_comments"))),
        ("list records P / R / F1", f"{_f(rp)} / {_f(rr)} / **{_f(rf)}** ({score.record_hits} "
                                    f"items of {score.records_stored} records, "
                                    f"{score.record_items} truth items)"),
        *_ratio_rows(score, (("next page found", "next_found"),
                             ("next page followed (stored)", "next_followed"),
                             ("next page stored where there is none", "next_spurious"))),
        ("pages/s: the crawl command (start-up included) / first to last fetch",
         f"{_rate(score.stored_pages, score.seconds)} ({score.seconds:.0f} s) / "
         f"{_rate(score.stored_pages, score.fetch_seconds)} ({score.fetch_seconds:.0f} s)"),
    ]
    lines = ["| measure | value |", "|---|---|", *(f"| {a} | {b} |" for a, b in rows)]
    lines += ["", "| truth \\ stored | " + " | ".join(GROUPS) + " | not stored |",
              "|---|---|---|---|---|"]
    for truth_group in GROUPS:
        cells = [str(score.confusion[truth_group, g]) for g in (*GROUPS, "not stored")]
        lines.append(f"| {truth_group} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n" + _site_notes(score)


def _ratio_rows(score: SiteScore, rows: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    """(label, the figure of that name) rows."""
    return [(label, str(getattr(score, name))) for label, name in rows]


def _site_notes(score: SiteScore) -> str:
    ours = sorted(score.body["ours"].worst)[:3]
    theirs = dict((p, f) for f, p in score.body["trafilatura"].worst)
    notes = ["lowest body F1: " + ", ".join(
        f"`{p}` {f:.2f} (trafilatura {theirs.get(p, float('nan')):.2f})" for f, p in ours)
             ] if ours else []
    if score.outside_examples:
        notes.append("stored outside the truth, e.g. " + ", ".join(score.outside_examples[:3]))
    if score.stray_examples:
        notes.append("comment rows on pages without comments, e.g. "
                     + ", ".join(score.stray_examples[:3]))
    notes += score.junk_examples + score.notes
    return "".join(f"\n- {note}" for note in notes)


def overall(scores: list[SiteScore]) -> SiteScore:
    """All sites' counts summed (body rows pooled: the scorer averages over posts)."""
    total = SiteScore("all sites")
    for s in scores:
        for name in ("truth_pages", "stored_pages", "posts", "reachable_posts", "stray_comments",
                     "record_hits", "records_stored", "record_items", "next_spurious",
                     "seconds", "fetch_seconds", "duplicates"):
            setattr(total, name, getattr(total, name) + getattr(s, name))
        for name in ("coverage", "coverage_all", "lists_reached", "types", "posts_as_list",
                     "title", "day", "author", "language", "comments", "next_found",
                     "next_followed"):
            setattr(total, name, getattr(total, name) + getattr(s, name))
        total.confusion.update(s.confusion)
        total.outside.update(s.outside)
        for system, body in s.body.items():
            total.body[system] = total.body.get(system, Body()) + body
    return total


def overall_table(scores: list[SiteScore], metric: BodyMetric) -> str:
    """One row per site and one for all sites."""
    head = ("| site | pages stored | coverage | type right | posts typed list | body F1 ours | "
            "body F1 trafilatura | title | day | author | language | comment recall | "
            "stray comment rows | records P | records R | next found | next followed | "
            "pages/s (command / fetch span) |")
    lines = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for s in [*scores, overall(scores)]:
        rp, rr, _ = records_figures(s)
        cells = [s.name,
                 f"{s.stored_pages}/{s.truth_pages}", _f(s.coverage.value), _f(s.types.value),
                 _f(s.posts_as_list.value), _f(body_figures(s.body["ours"], metric)[2]),
                 _f(body_figures(s.body["trafilatura"], metric)[2]), _f(s.title.value),
                 _f(s.day.value), _f(s.author.value), _f(s.language.value),
                 _f(s.comments.value), str(s.stray_comments), _f(rp), _f(rr),
                 _f(s.next_found.value), _f(s.next_followed.value),
                 f"{_rate(s.stored_pages, s.seconds)} / {_rate(s.stored_pages, s.fetch_seconds)}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def document(scores: list[SiteScore], command: str, args: argparse.Namespace,
             metric: BodyMetric) -> str:
    """The report: command, date, definitions, the overall table, one table per site."""
    when = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    parts = [
        "# Real sites, crawled end to end (`python -m bench.sites`)", "",
        f"`{command}` — {when}, store: {args.database}, `-a depth={args.depth} "
        "-a max_pages=0`.", "",
        "Coverage counts the posts reachable from the start page within the depth by the "
        "site's own links (every `<a>`/`<area>` link and meta refresh of the served files a "
        "hop, pagination too: a lower bound of what the crawl may reach). Body figures are "
        "the shared scorer's (shingles of characters on Chinese sites, of words on English "
        "ones; precision and recall averaged over posts, F1 of the two) on the posts stored, "
        "trafilatura's on the same posts' HTML. Title: equal but for case and whitespace; "
        "day: the stored time in the offset its raw string (`published_raw`) ends with, else "
        "on Beijing's clock for Chinese sites and UTC for English ones; comments: a "
        "truth comment's text within one stored comment; records: record URLs as paths, "
        "against the truth's `items`, summed over the list pages stored.", "",
        "## All sites", "", overall_table(scores, metric), ""]
    for score in scores:
        parts += [f"## {score.name}", "", site_table(score, metric), ""]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sites", nargs="+", metavar="NAME", help="default: all eight")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--admin-url", default=PG_ADMIN_URL,
                        help="the PostgreSQL server a throwaway database is created on")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="keep each site's store, log and journal under DIR/NAME")
    args = parser.parse_args(argv)
    available = all_sites()
    if not available:
        parser.error(f"no sites in {REALSITES}")
    unknown = sorted(set(args.sites or []) - set(available))
    if unknown:
        parser.error(f"unknown site {', '.join(unknown)}; known: {', '.join(available)}")
    metric: BodyMetric = scorer()
    scores = []
    for name in args.sites or available:
        score = run_site(REALSITES / name, args, metric)
        print(f"\n## {name}\n\n{site_table(score, metric)}\n", flush=True)
        scores.append(score)
    command = "python -m bench.sites " + shlex.join(argv if argv is not None else sys.argv[1:])
    print("\n## All sites\n\n" + overall_table(scores, metric))
    args.out.write_text(document(scores, command.strip(), args, metric), encoding="utf-8")
    print(f"\nwritten to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
