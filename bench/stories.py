"""Story grouping quality and cost: real bodies (the real-site corpus) re-published with
the edits portals make, grouped by the store's own code, scored pairwise.

Each original gets 0 to 5 copies; each copy takes some of: a byline or wire dateline put
in front, an 编辑 / 来源 / share-bar footer, paragraphs reordered, the last paragraphs
trimmed (up to 40 %), a sentence dropped, a few characters changed. Headlines change too
(they are not part of the body). Pairs of articles in one predicted story are scored
against pairs in one true story: precision and recall. Cost is CPU per grouped article,
in this process, with the store at the set's size; with `--store N`, the same set is grouped
on PostgreSQL, in a copy of bench.filled's store already holding N grouped articles (the
copy dropped after), and the PostgreSQL backend's CPU is printed beside this process'.

    python -m bench.stories [--originals 400] [--seed 5] [--store 1000000]
    python -m bench.stories --real-pairs   # ../shared/data's real bodies, scored on the labels

The real bodies hold no wire reprints but do hold double posts, a post under two URLs, and
many pages of one site sharing a template; bench/story_pairs.json labels every pair the
store grouped before the copies were confirmed on distinctive text, and the near misses
(containment of the exact shingles 0.5 and up among the banding's candidates, pages of one
site with one title), each copy or not with its reason. Pairs of the file are scored:
precision among the labelled pairs grouped, recall of the labelled copies; a grouped pair
the file does not hold is listed to be labelled.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import secrets
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path

import datasketch  # noqa: F401  # reading.stories imports it at its first pass: not a pass's cost
from alembic import command
from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from bench.backend import backend_seconds
from bench.crawl import _drop_database
from bench.filled import ADMIN_URL, filled_copy
from bench.search import DATA
from models.db import get_engine
from models.page import Article, Page
from models.schema import alembic_config
from models.store import save_pages
from models.story import ArticleStory
from reading.stories import group_new
from tests.factories import article_page

LABELS = Path(__file__).with_name("story_pairs.json")
BYLINES = ["新华社北京11月27日电（记者 王五）", "本报讯 记者 李明 通讯员 张华", "中新网11月27日电",
           "By Staff Reporter", "(Reuters) -"]
FOOTERS = ["（责任编辑：李四）", "来源：人民网 编辑：赵六", "扫一扫分享到微信朋友圈 相关阅读",
           "本文仅代表作者观点，不代表本站立场。", "Share this article: Facebook Twitter Email"]


def originals(count: int, rng: random.Random) -> list[str]:
    """Distinct real bodies of at least 400 characters, several paragraphs each."""
    bodies = []
    for truth_file in sorted(DATA.glob("*/truth.json")):
        pages = json.loads(truth_file.read_text(encoding="utf-8"))["pages"]
        for page in pages.values() if isinstance(pages, dict) else pages:
            body = page.get("body") if isinstance(page, dict) else None
            if body and len(body) >= 400 and body.count("\n") >= 2:
                bodies.append(body)
    unique = sorted(set(bodies))
    rng.shuffle(unique)
    return unique[:count]


def reprint(body: str, rng: random.Random) -> str:
    paragraphs = [p for p in body.split("\n") if p.strip()]
    if rng.random() < 0.5:
        middle = paragraphs[1:-1]
        rng.shuffle(middle)
        paragraphs = paragraphs[:1] + middle + paragraphs[-1:]
    if rng.random() < 0.5 and len(paragraphs) > 3:
        paragraphs = paragraphs[:max(2, int(len(paragraphs) * rng.uniform(0.6, 0.9)))]
    if rng.random() < 0.5:
        index = rng.randrange(len(paragraphs))
        sentences = re.split(r"(?<=[。！？.!?])", paragraphs[index])
        if len(sentences) > 2:
            del sentences[rng.randrange(len(sentences))]
            paragraphs[index] = "".join(sentences)
    text = "\n\n".join(paragraphs)
    if rng.random() < 0.5:
        chars = list(text)
        for _ in range(rng.randrange(1, 6)):
            chars[rng.randrange(len(chars))] = rng.choice("的了是在和有")
        text = "".join(chars)
    if rng.random() < 0.7:
        text = rng.choice(BYLINES) + " " + text
    if rng.random() < 0.7:
        text += "\n\n" + rng.choice(FOOTERS)
    return text


@dataclass(frozen=True)
class Grouping:
    """The pages' stories (page URL → story) and what grouping them cost: CPU seconds of
    this process and of the PostgreSQL backend (None: SQLite, in this process)."""

    stories: dict[str, int]
    cpu: float
    database: float | None
    grouped: int

    def per_article(self) -> str:
        line = f"grouping {1000 * self.cpu / self.grouped:.2f} ms CPU per article"
        if self.database is not None:
            line += f" + PostgreSQL {1000 * self.database / self.grouped:.2f} ms"
        return line + f" ({self.grouped} grouped)"


def grouped_stories(pages: list[dict]) -> Grouping:
    """Store the pages in a fresh SQLite store and group them by the store's own code."""
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/stories.sqlite3"
        command.upgrade(alembic_config(url), "head")
        return _grouped(url, pages)


def stored_grouping(pages: list[dict], stored: int, admin_url: str = ADMIN_URL,
                    prefix: str = "bench_filled", data: Path = DATA) -> Grouping:
    """Group the pages as `grouped_stories` does, on a copy of bench.filled's PostgreSQL
    store holding `stored` grouped articles (their ids come from its sequences, past the
    template's), dropped after. Each pass looks at the newest len(pages) articles, as a
    crawl's pass looks at its newest: finding the ungrouped among all would scan the store.
    `data`: the corpus the store is filled from."""
    url = filled_copy(stored, f"bench_stories_{secrets.token_hex(4)}", admin_url, prefix,
                      data)
    try:
        return _grouped(url, pages, lookback=len(pages))
    finally:
        get_engine(url).dispose()
        _drop_database(admin_url, url)


def _grouped(url: str, pages: list[dict], lookback: int | None = None) -> Grouping:
    """Save the pages to the store at `url`, group them in one transaction, timed, and read
    their stories back."""
    engine = get_engine(url)
    sessions = sessionmaker(engine)
    with sessions.begin() as session:
        save_pages(session, pages)
    with sessions.begin() as session:
        postgresql = engine.dialect.name == "postgresql"
        backend = backend_seconds(session)[1] if postgresql else 0.0
        cpu = time.process_time()
        grouped = 0
        while batch := group_new(session, lookback=lookback):
            grouped += batch
        cpu = time.process_time() - cpu
        database = backend_seconds(session)[1] - backend if postgresql else None
    with sessions() as session:
        predicted = dict(session.execute(
            select(Page.url, ArticleStory.story_id).join(Article, Article.page_id == Page.id)
            .join(ArticleStory, ArticleStory.article_id == Article.id)
            .where(Page.url.in_([page["url"] for page in pages]))).all())
    engine.dispose()
    return Grouping(predicted, cpu, database, grouped)


@dataclass(frozen=True)
class RealBody:
    """A body with ground truth, its page's site (the URL's host names it) and its date."""

    url: str
    body: str
    published_at: str | None


def real_bodies() -> dict[str, RealBody]:
    """Every real article body with ground truth in ../shared/data, by its path there: the
    real sites' pages (on one host a site, with their dates), article-bench (its URLs),
    dragnet-dev (one host: the set names no outlet; several of its pages share one)."""
    bodies = {}
    for truth_file in sorted(DATA.glob("*/truth.json")):
        site = truth_file.parent.name
        pages = json.loads(truth_file.read_text(encoding="utf-8"))["pages"]
        for path, page in pages.items() if isinstance(pages, dict) else enumerate(pages):
            if isinstance(page, dict) and page.get("body"):
                bodies[f"realsites/{site}{path}"] = RealBody(
                    f"http://{site}.example{path}", page["body"], page.get("date"))
    for name in ("article-bench", "dragnet-dev"):
        truth = json.loads((DATA.parent / name / "ground-truth.json").read_text(encoding="utf-8"))
        bodies.update((f"{name}/{key}", RealBody(
            value.get("url") or f"http://{name}.example/{key}", value["articleBody"], None))
            for key, value in truth.items() if value.get("articleBody"))
    return bodies


def real_pairs() -> int:
    """Group the real bodies and score the pairs grouped into one story against the labels."""
    bodies = real_bodies()
    pages = []
    for number, real in enumerate(bodies.values()):
        page = article_page(f"{real.url}#{number}", body=real.body, comments=())
        page["article"]["published_at"] = real.published_at
        pages.append(page)
    names = {page["url"]: name for page, name in zip(pages, bodies, strict=True)}
    grouping = grouped_stories(pages)
    stories: dict[int, list[str]] = defaultdict(list)
    for page_url, story in grouping.stories.items():
        stories[story].append(names[page_url])
    pairs = {frozenset(pair) for members in stories.values()
             for pair in combinations(sorted(members), 2)}
    labels = {frozenset((label["a"], label["b"])): label["copy"]
              for label in json.loads(LABELS.read_text(encoding="utf-8"))}
    copies = {pair for pair, copy in labels.items() if copy}
    judged = pairs & labels.keys()
    precision = len(pairs & copies) / len(judged) if judged else 1.0
    recall = len(pairs & copies) / len(copies) if copies else 1.0
    print(f"{len(bodies)} real bodies, {len(pairs)} pairs grouped into one story "
          f"(of {len(bodies) * (len(bodies) - 1) // 2:,}); {len(labels)} labelled pairs, "
          f"{len(copies)} copies: precision {precision:.3f} ({len(pairs & copies)} of "
          f"{len(judged)}), recall {recall:.3f}; {grouping.per_article()}")
    for pair in sorted(map(sorted, pairs)):
        verdict = {True: "copy", False: "NOT A COPY", None: "UNLABELLED"}[
            labels.get(frozenset(pair))]
        print(f"  {verdict}: {pair[0]}  ~  {pair[1]}")
    for pair in sorted(map(sorted, copies - pairs)):
        print(f"  MISSED: {pair[0]}  ~  {pair[1]}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stories")
    parser.add_argument("--originals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--real-pairs", action="store_true",
                        help="score the pairs it groups among the real bodies instead")
    parser.add_argument("--store", type=int, default=0, metavar="N",
                        help="group on a copy of bench.filled's PostgreSQL store of N articles")
    args = parser.parse_args(argv)
    if args.real_pairs:
        return real_pairs()
    rng = random.Random(args.seed)
    truth: dict[str, int] = {}
    pages = []
    start = datetime(2026, 11, 1, tzinfo=UTC)
    for number, body in enumerate(originals(args.originals, rng)):
        for copy in range(1 + rng.choice([0, 0, 1, 2, 3, 5])):
            url = f"http://site{rng.randrange(50)}.example/{number}/{copy}.html"
            page = article_page(url, body=body if copy == 0 else reprint(body, rng),
                                comments=())
            page["article"]["title"] = f"标题 {number}-{copy}"
            page["article"]["published_at"] = (start + timedelta(hours=rng.randrange(500))
                                               ).isoformat()
            pages.append(page)
            truth[url] = number
    rng.shuffle(pages)
    grouping = stored_grouping(pages, args.store) if args.store else grouped_stories(pages)
    stories: dict[int, list[str]] = defaultdict(list)
    for page_url, story in grouping.stories.items():
        stories[story].append(page_url)
    predicted_pairs = {frozenset(pair) for members in stories.values()
                       for pair in combinations(members, 2)}
    true_stories: dict[int, list[str]] = defaultdict(list)
    for page_url, number in truth.items():
        true_stories[number].append(page_url)
    true_pairs = {frozenset(pair) for members in true_stories.values()
                  for pair in combinations(members, 2)}
    hits = len(predicted_pairs & true_pairs)
    precision = hits / len(predicted_pairs) if predicted_pairs else 1.0
    recall = hits / len(true_pairs) if true_pairs else 1.0
    print(f"{len(true_stories)} originals, {len(truth)} articles, {len(true_pairs)} copy pairs; "
          f"pairwise precision {precision:.3f}, recall {recall:.3f}; "
          + (f"on a store of {args.store:,} grouped articles, " if args.store else "")
          + grouping.per_article())
    return 0


if __name__ == "__main__":
    sys.exit(main())
