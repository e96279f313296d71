"""Search speed on PostgreSQL at scale: generated articles, real queries, p50/p95 latency.

Articles are made of sentences of the real-site corpus (../shared/data/realsites: five
Chinese and three English sites), at those sites' body lengths, published over two
years, 70 % Chinese. Pages, articles and index rows are loaded with COPY by two processes,
the terms by the store's `index_texts` (once per corpus sentence) and the vectors by its
expression; then the store's own rebuild (`reindex_pages`, what `python -m crawler
reindex` runs) is timed on a slice, so the backfill rate is measured too. Queries run in
this process against a warm database: two-character Chinese words from frequent to rare
with a 30-day filter (newest first and by relevance), and three-term boolean queries.

    python -m bench.search [--articles 1000000] [--reuse] [--database NAME]
                           [--admin-url URL]
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import random
import re
import statistics
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import NullPool

from models.search import reindex_pages
from models.search.index import vector_sql
from models.search.partitions import ensure_months, months_for
from models.search.terms import index_texts
from reading.search import Filters, search
from reading.stories import group_new

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "realsites"
DATABASE = "crawler_bench_search"
_SENTENCE = re.compile(r"[^。！？!?.\n]+[。！？!?.]?")
NOW = datetime(2026, 11, 27, tzinfo=UTC)
_YEARS = 2  # the articles are published over the years before NOW


def corpus(data: Path = DATA) -> dict[str, tuple[list[str], list[int]]]:
    """language → (sentences, body lengths) of the real-site truth under `data` (a
    directory of `<site>/truth.json`, the realsites format)."""
    found: dict[str, tuple[list[str], list[int]]] = {"zh": ([], []), "en": ([], [])}
    for truth_file in sorted(data.glob("*/truth.json")):
        truth = json.loads(truth_file.read_text(encoding="utf-8"))
        language = "zh" if truth["site"].get("language") == "zh" else "en"
        sentences, lengths = found[language]
        pages = truth["pages"].values() if isinstance(truth["pages"], dict) else truth["pages"]
        for page in pages:
            body = page.get("body") if isinstance(page, dict) else None
            if body:
                lengths.append(len(body))
                sentences += [s.strip() for s in _SENTENCE.findall(body) if len(s.strip()) > 4]
    return found


class _Texts:
    """The corpus's sentences with their index terms, computed once: an article is a run of
    sentences joined by spaces, so its terms are its sentences' terms joined (a CJK pair
    never spans the space), the store's own `index_texts` at a fraction of the cost."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.languages = {language: (sentences, lengths, index_texts(sentences))
                          for language, (sentences, lengths) in corpus(data).items()}

    def article(self, rng: random.Random, language: str) -> tuple[str, str]:
        """(body, its index terms) of a generated article of a real body length."""
        sentences, lengths, terms = self.languages[language]
        wanted, picks, size = rng.choice(lengths), [], 0
        while size < wanted:
            pick = rng.randrange(len(sentences))
            picks.append(pick)
            size += len(sentences[pick])
        return (" ".join(sentences[pick] for pick in picks),
                " ".join(terms[pick] for pick in picks if terms[pick]))


def _copy(connection, table: str, columns: str, rows: list[tuple]) -> None:  # type: ignore[no-untyped-def]
    buffer = io.StringIO()
    for row in rows:
        buffer.write("\t".join("\\N" if value is None else str(value).replace("\\", "\\\\")
                               .replace("\t", " ").replace("\n", " ") for value in row) + "\n")
    buffer.seek(0)
    connection.cursor().copy_expert(f"COPY {table} ({columns}) FROM STDIN", buffer)


_CHUNK = 10_000
_GROUP_PASS = 5_000  # articles a grouping pass of the fill takes (the crawl's: GROUP_BATCH)
_TEXTS: _Texts | None = None


def _load_chunk(job: tuple[str, int, int, Path]) -> int:
    """Generate and load articles first … last (a worker process's share): pages and
    articles by COPY, the index rows' terms by COPY into a session's staging table and
    their vectors by the store's expression."""
    global _TEXTS
    url, first, last, data = job
    if _TEXTS is None or _TEXTS.data != data:
        _TEXTS = _Texts(data)
    rng = random.Random(first)
    pages, articles, rows = [], [], []
    for number in range(first, last + 1):
        language = "zh" if rng.random() < 0.7 else "en"
        body, body_terms = _TEXTS.article(rng, language)
        title = rng.choice(_TEXTS.languages[language][0])[:120]
        when = (NOW - timedelta(seconds=rng.randrange(_YEARS * 365 * 86400))).isoformat()
        host = f"site{number % 500}.example.{'cn' if language == 'zh' else 'com'}"
        pages.append((number, f"http://{host}/a/{number}", f"http://{host}/a/{number}", 200,
                      when, when, f"{number:064x}", "news", "[]"))
        articles.append((number, number, title, when, language, body, ""))
        rows.append(("article", number, number, host, "news", language, when, title,
                     body_terms))
    # the titles' terms in one call (`index_texts`: its cost is mostly per call, not per text)
    rows = [(*row[:7], terms, row[8])
            for row, terms in zip(rows, index_texts([row[7] for row in rows]), strict=True)]
    engine = create_engine(url, poolclass=NullPool)
    raw = engine.raw_connection()
    try:
        with raw.cursor() as cursor:
            cursor.execute("SET synchronous_commit = off; CREATE TEMP TABLE staging (kind text,"
                           " ref_id int, page_id int, site text, page_type text, language text,"
                           " published_at timestamptz, title_terms text, text_terms text)")
        _copy(raw, "page", "id, url, final_url, status, fetched_at, first_seen_at, "
              "content_hash, page_type, type_candidates", pages)
        _copy(raw, "article", "id, page_id, title, published_at, language, body_text, "
              "body_html", articles)
        _copy(raw, "staging", "kind, ref_id, page_id, site, page_type, language, "
              "published_at, title_terms, text_terms", rows)
        with raw.cursor() as cursor:
            cursor.execute(
                "INSERT INTO search_document (kind, ref_id, page_id, site, page_type, language,"
                " published_at, title_terms, text_terms, vector) SELECT kind, ref_id, page_id,"
                " site, page_type, language, published_at, '', '', "
                f"{vector_sql('title_terms', 'text_terms')} FROM staging")
        raw.commit()
    finally:
        raw.close()
        engine.dispose()
    return last - first + 1


def generate(url: str, count: int, processes: int = 2, group: int = 0, data: Path = DATA
             ) -> dict[str, float]:
    """Load `count` pages with articles and their index rows, then time the store's own
    rebuild (`reindex_pages`) of a slice; returns timings. The bulk load computes the terms
    with the store's function and the vectors with the store's expression, set-based, in
    `processes` workers (one generates while the other's rows are in PostgreSQL), the
    GIN index built at the end: the same rows as page-by-page, hours sooner at a million.
    `group`: then up to this many articles are grouped into stories by the store's own
    pass, timed (bench.filled signs the rest). `data`: the corpus (`corpus`)."""
    engine = create_engine(url)
    started = time.perf_counter()
    with engine.begin() as connection:  # the months' partitions first (PostgreSQL's store)
        ensure_months(connection, months_for(
            (NOW - timedelta(days=days) for days in range(0, _YEARS * 365 + 15, 15)), NOW))
    with engine.begin() as connection:
        connection.execute(text("DROP INDEX ix_search_document_vector"))
    jobs = [(url, first, min(count, first + _CHUNK - 1), data)
            for first in range(1, count + 1, _CHUNK)]
    loaded_rows = 0
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        for done in pool.imap_unordered(_load_chunk, jobs):
            loaded_rows += done
            print(f"\rloaded {loaded_rows:,} articles, {time.perf_counter() - started:.0f} s",
                  end="", file=sys.stderr)
    loaded = time.perf_counter()
    with engine.begin() as connection:
        connection.execute(text("SET maintenance_work_mem = '4GB'"))
        connection.execute(text("CREATE INDEX ix_search_document_vector ON search_document "
                                "USING gin (vector)"))
        connection.execute(text("ANALYZE"))
    built = time.perf_counter()
    sessions = sessionmaker(engine)
    sample = range(1, min(count, 5000) + 1)
    cpu, wall = time.process_time(), time.perf_counter()
    for first in range(sample.start, sample.stop, 500):
        with sessions.begin() as session:
            reindex_pages(session, range(first, min(sample.stop, first + 500)))
    rebuild, rebuild_cpu = time.perf_counter() - wall, time.process_time() - cpu
    timings = {"bulk_load_s": loaded - started, "gin_build_s": built - loaded,
               "reindex_sample_articles": len(sample),
               "reindex_articles_per_s": len(sample) / rebuild,
               "reindex_cpu_ms_per_article": 1000 * rebuild_cpu / len(sample)}
    if group:
        timings.update(_grouped(sessions, group))
    engine.dispose()  # the database may be a template next (bench.filled)
    print(file=sys.stderr)
    return timings


def _grouped(sessions: sessionmaker, count: int) -> dict[str, float]:  # type: ignore[type-arg]
    """Group up to `count` loaded articles by the store's own pass, in large passes (each
    finds the ungrouped by a scan of the store); its wall time and this process' CPU an
    article."""
    cpu, wall, grouped = time.process_time(), time.perf_counter(), 0
    while grouped < count:
        with sessions.begin() as session:
            batch = group_new(session, limit=min(_GROUP_PASS, count - grouped))
        grouped += batch
        print(f"\rgrouped {grouped:,} articles, {time.perf_counter() - wall:.0f} s", end="",
              file=sys.stderr, flush=True)
        if not batch:
            break
    return {"group_s": time.perf_counter() - wall,
            "group_cpu_ms_per_article": 1000 * (time.process_time() - cpu) / max(grouped, 1)}


def _words(url: str, rng: random.Random) -> list[str]:
    """Two-character Chinese words of the corpus from frequent to rare (by the corpus)."""
    counts: Counter[str] = Counter()
    for sentence in corpus()["zh"][0]:
        counts.update(re.findall(r"[\u4e00-\u9fff]{2}", sentence))
    ranked = [word for word, _ in counts.most_common()]
    picks = ranked[:10] + rng.sample(ranked[10:500], 20) + rng.sample(ranked[500:5000], 20)
    return picks


def _timed(session, query: str, filters: Filters, order: str) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    search(session, query, filters, order=order, limit=20)  # type: ignore[arg-type]
    return (time.perf_counter() - started) * 1000


def queries(url: str) -> dict[str, dict[str, float]]:
    rng = random.Random(11)
    words = _words(url, rng)
    english = ["function", "python", "install", "release", "version", "data", "model",
               "drawing", "command", "error"]
    booleans = [f"{a} {b} -{c}"
                for a, b, c in zip(words[:20], words[20:40], words[10:30], strict=True)]
    booleans += [f"({a} OR {b}) {c}"
                 for a, b, c in zip(words[30:50], words[:20], english * 2, strict=True)]
    sessions = sessionmaker(create_engine(url))
    results: dict[str, dict[str, float]] = {}
    month = Filters(since=NOW - timedelta(days=30))
    with sessions() as session:
        cases = {"two-char word, 30 days, newest first": [(w, month, "time") for w in words],
                 "two-char word, 30 days, relevance": [(w, month, "relevance") for w in words],
                 "two-char word, no filter, newest first": [(w, Filters(), "time")
                                                           for w in words],
                 "three-term boolean, newest first": [(q, Filters(), "time") for q in booleans],
                 "three-term boolean, relevance": [(q, Filters(), "relevance")
                                                   for q in booleans]}
        for name, runs in cases.items():
            for query, filters, order in runs:  # warm
                _timed(session, query, filters, order)
            times = sorted(_timed(session, query, filters, order)
                           for query, filters, order in runs)
            results[name] = {"queries": len(times), "p50_ms": statistics.median(times),
                             "p95_ms": times[int(0.95 * (len(times) - 1))],
                             "max_ms": times[-1]}
            print(f"{name:42} p50 {results[name]['p50_ms']:7.1f} ms  "
                  f"p95 {results[name]['p95_ms']:7.1f} ms  max {times[-1]:7.1f} ms")
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.search")
    parser.add_argument("--articles", type=int, default=1_000_000)
    parser.add_argument("--admin-url", default="postgresql+psycopg2://postgres@127.0.0.1:5432/test")
    parser.add_argument("--database", default=DATABASE, help="the bench's own database")
    parser.add_argument("--reuse", action="store_true",
                        help="query the database a previous run left, if complete")
    args = parser.parse_args(argv)
    database = args.database
    url = make_url(args.admin_url).set(database=database).render_as_string(hide_password=False)
    admin = create_engine(args.admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        exists = connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                    {"name": database}).scalar()
    have = 0
    if exists:
        with create_engine(url).connect() as connection:
            have = connection.execute(text("SELECT count(*) FROM search_document")).scalar()
    timings: dict[str, float] = {}
    if not (args.reuse and have >= args.articles):
        from alembic import command

        from models.schema import alembic_config
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
            connection.execute(text(f'CREATE DATABASE "{database}"'))
        command.upgrade(alembic_config(url), "head")
        timings = generate(url, args.articles)
        print(json.dumps(timings))
    with create_engine(url).connect() as connection:
        size = connection.execute(text(  # the search table's partitions, where it has them
            "SELECT pg_size_pretty(sum(pg_total_relation_size(relid))), "
            "pg_size_pretty(pg_total_relation_size('article')) "
            "FROM pg_partition_tree('search_document')")).one()
    print(f"{args.articles:,} articles; index table {size[0]}, article table {size[1]}")
    queries(url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
