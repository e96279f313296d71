"""Scoring a whole-site crawl against a realsites truth.json, for bench.sites.

Pure functions over the truth and over what the store holds (`Stored`, one per page row),
so that they can be tested without a crawl. Paths are the truth's keys: a URL of the site
(any of its origins) without its origin, percent-decoded, `index.html` folded into its
directory, a directory written with its trailing slash.
"""

from __future__ import annotations

import json
import re
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from pathlib import Path
from typing import Protocol
from urllib.parse import quote, unquote, urljoin, urlsplit
from zoneinfo import ZoneInfo

import lxml.html

from pipelines import ARTICLE_TYPES

GROUPS = ("article", "list", "other")
Row = tuple[float, float, float]  # one post's (tp, fp, fn) shares, the shared scorer's


class BodyMetric(Protocol):
    """The shared scorer's two functions bench.sites uses (score_articles.py)."""

    def doc_counts(self, true_text: str, pred_text: str, mode: str) -> tuple[Row, bool]: ...

    def aggregate(self, rows: list[Row]) -> tuple[float, float, float]: ...


def group(page_type: str | None) -> str:
    """article (news, blog, forum), list or other."""
    if page_type in ARTICLE_TYPES:
        return "article"
    return page_type if page_type in ("list", "other") else "other"


@dataclass
class SiteTruth:
    """One site of the corpus: where it lives and what its pages are."""

    name: str
    root: Path
    language: str
    start: str
    own_hosts: list[str]
    pages: dict[str, dict]

    @classmethod
    def load(cls, folder: Path) -> SiteTruth:
        data = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
        site = data["site"]
        return cls(name=folder.name, root=folder / "root", language=site["language"],
                   start=site.get("start", site.get("base_path", "/")),
                   own_hosts=[h.lower() for h in site.get("own_hosts", [])],
                   pages=data["pages"])

    def posts(self) -> dict[str, dict]:
        return {p: t for p, t in self.pages.items() if t["type"] in ARTICLE_TYPES}

    def file(self, path: str) -> Path:
        """The file a truth path is served from."""
        relative = path.lstrip("/")
        return self.root / (relative + "index.html" if path.endswith("/") else relative)

    def real_origin(self) -> str | None:
        """scheme://host of the site's real name, the scheme its start page links it with
        most; None for a site that never names its host."""
        if not self.own_hosts:
            return None
        host = self.own_hosts[0]
        start = self.file(self.start)
        text = start.read_text(encoding="utf-8", errors="replace") if start.exists() else ""
        schemes = Counter(m.lower() for m in re.findall(rf"(https?)://{re.escape(host)}\b", text,
                                                        flags=re.I))
        return f"{schemes.most_common(1)[0][0] if schemes else 'https'}://{host}"


class PathMap:
    """URLs of a site (its own hosts and the given origins, any scheme) to truth paths."""

    def __init__(self, truth: SiteTruth, origins: Iterable[str]) -> None:
        self.keys = truth.pages.keys()
        self.hosts = set(truth.own_hosts)
        self.netlocs = {urlsplit(origin).netloc.lower() for origin in origins}

    def path(self, url: str | None, base: str | None = None) -> str | None:
        """The truth path of a URL of this site; None for another site's or no URL."""
        if not url:
            return None
        parts = urlsplit(urljoin(base, url) if base else url)
        if parts.scheme not in ("http", "https"):
            return None
        if parts.netloc.lower() not in self.netlocs and (parts.hostname or "") not in self.hosts:
            return None
        path = unquote(parts.path) or "/"
        if path.endswith("/index.html"):
            path = path[: -len("index.html")]
        if path not in self.keys and path + "/" in self.keys:
            path += "/"
        return path


_REFRESH_URL = re.compile(r"url\s*=\s*['\"]?([^'\";]+)", re.I)


def page_links(html: bytes, url: str) -> list[str]:
    """Absolute URLs of a page's <a>/<area> links and meta refresh."""
    try:
        tree = lxml.html.fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return []
    base = urljoin(url, (tree.xpath("//base/@href") or [url])[0].strip())
    hrefs = [h.strip() for h in tree.xpath("//a/@href | //area/@href")]
    for content in tree.xpath("//meta[translate(@http-equiv, 'REFSH', 'refsh')='refresh']"
                              "/@content"):
        found = _REFRESH_URL.search(content)
        if found:
            hrefs.append(found.group(1).strip())
    links = []
    for href in hrefs:
        try:
            links.append(urljoin(base, href))
        except ValueError:  # a malformed link, e.g. an unclosed IPv6 bracket
            continue
    return links


def link_hops(truth: SiteTruth, origin: str) -> dict[str, int]:
    """Fewest link hops from the start page to every truth page reachable by the site's
    own links (every link a hop, pagination too), read from the served files."""
    paths = PathMap(truth, [origin])
    hops = {truth.start: 0}
    queue = deque([truth.start])
    while queue:
        current = queue.popleft()
        source = truth.file(current)
        if not source.is_file():
            continue
        for link in page_links(source.read_bytes(), origin + quote(current)):
            target = paths.path(link)
            if target in truth.pages and target not in hops:
                hops[target] = hops[current] + 1
                queue.append(target)
    return hops


@dataclass
class Stored:
    """What the store holds for one page row, read back for scoring."""

    url: str
    page_type: str | None
    title: str | None = None
    author: str | None = None
    published_at: datetime | None = None
    published_raw: str | None = None
    language: str | None = None
    body: str | None = None  # None: no article row
    comments: list[str] = field(default_factory=list)
    records: list[str | None] = field(default_factory=list)  # record URLs, page order
    next_page_url: str | None = None


@dataclass
class Ratio:
    """hits of total, printed as a share with its counts."""

    hits: float = 0
    total: float = 0

    def add(self, hit: bool, weight: float = 1) -> None:
        self.hits += weight if hit else 0
        self.total += weight

    def __add__(self, other: Ratio) -> Ratio:
        return Ratio(self.hits + other.hits, self.total + other.total)

    @property
    def value(self) -> float | None:
        return self.hits / self.total if self.total else None

    def __str__(self) -> str:
        if not self.total:
            return "–"
        return f"{self.hits / self.total:.3f} ({self.hits:g}/{self.total:g})"


@dataclass
class Body:
    """Per-post rows of one system: the shared scorer aggregates them."""

    rows: list[Row] = field(default_factory=list)
    exact: int = 0
    worst: list[tuple[float, str]] = field(default_factory=list)  # (post F1, path)

    def add(self, path: str, row: Row, exact: bool) -> None:
        self.rows.append(row)
        self.exact += exact
        tp, fp, fn = row
        self.worst.append((2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 1.0, path))

    def __add__(self, other: Body) -> Body:
        return Body(self.rows + other.rows, self.exact + other.exact, self.worst + other.worst)


@dataclass
class SiteScore:
    """Every figure of one site's crawl (counts, so that sites add up)."""

    name: str
    truth_pages: int = 0
    stored_pages: int = 0
    outside: Counter[str] = field(default_factory=Counter)  # stored, not in truth: by type
    outside_examples: list[str] = field(default_factory=list)
    duplicates: int = 0  # truth pages stored under more than one URL
    posts: int = 0
    reachable_posts: int = 0
    coverage: Ratio = field(default_factory=Ratio)  # reachable posts stored
    coverage_all: Ratio = field(default_factory=Ratio)  # posts of the truth stored
    lists_reached: Ratio = field(default_factory=Ratio)  # reachable list pages stored
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    types: Ratio = field(default_factory=Ratio)  # stored truth pages of the right group
    posts_as_list: Ratio = field(default_factory=Ratio)
    body: dict[str, Body] = field(default_factory=dict)  # system → rows
    title: Ratio = field(default_factory=Ratio)
    day: Ratio = field(default_factory=Ratio)
    author: Ratio = field(default_factory=Ratio)
    language: Ratio = field(default_factory=Ratio)
    comments: Ratio = field(default_factory=Ratio)  # truth comments found
    stray_comments: int = 0  # comment rows on pages whose truth has none
    stray_examples: list[str] = field(default_factory=list)
    record_hits: int = 0
    records_stored: int = 0
    record_items: int = 0
    junk_examples: list[str] = field(default_factory=list)
    next_found: Ratio = field(default_factory=Ratio)
    next_followed: Ratio = field(default_factory=Ratio)
    next_spurious: int = 0  # a next page stored where the truth has none
    seconds: float = 0.0  # the crawl command, start-up included
    fetch_seconds: float = 0.0  # from the first page fetched to the last
    notes: list[str] = field(default_factory=list)


def _same_text(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold()


def comment_found(true_text: str, stored: list[str]) -> bool:
    """A truth comment is found when its text (whitespace and case aside) stands in one
    stored comment that is not much longer (a header with name and date may lead it)."""
    wanted = _same_text(true_text)
    return any(wanted in have and len(have) <= 2 * len(wanted) + 60
               for have in map(_same_text, stored))


_OFFSET = re.compile(r"(?:([+-])(\d\d):?(\d\d)|(Z|UTC|GMT))\s*$", re.I)


def published_day(when: datetime | None, raw: str | None, language: str) -> str | None:
    """The day of a stored time as the page writes it: in the offset its raw string ends
    with, else on the site's clock (Beijing for Chinese sites, UTC else)."""
    if when is None:
        return None
    if when.tzinfo is None:
        return when.date().isoformat()
    found = _OFFSET.search(raw or "")
    if found and found.group(4):
        zone: tzinfo = UTC
    elif found:
        minutes = int(found.group(2)) * 60 + int(found.group(3))
        zone = timezone(timedelta(minutes=-minutes if found.group(1) == "-" else minutes))
    else:
        zone = ZoneInfo("Asia/Shanghai" if language == "zh" else "UTC")
    return when.astimezone(zone).date().isoformat()


def _pick(truth: SiteTruth, paths: PathMap, stored: list[Stored],
          score: SiteScore, origin: str) -> dict[str, Stored]:
    """One stored row per path (the one under the crawl's origin first); the rest counted."""
    chosen: dict[str, Stored] = {}
    seen: Counter[str] = Counter()
    for page in sorted(stored, key=lambda s: not s.url.startswith(origin)):
        path = paths.path(page.url)
        if path is None or path not in truth.pages:
            score.outside[page.page_type or "none"] += 1
            if len(score.outside_examples) < 5:
                score.outside_examples.append(f"{page.url} ({page.page_type})")
            continue
        seen[path] += 1
        chosen.setdefault(path, page)
    score.duplicates = sum(1 for n in seen.values() if n > 1)
    return chosen


def score_site(truth: SiteTruth, stored: list[Stored], hops: dict[str, int], depth: int,
               origin: str, peers: dict[str, dict[str, str]], metric: BodyMetric) -> SiteScore:
    """Score the stored pages of a crawl started at `origin` + truth.start. `hops`:
    link_hops(); `peers`: system → truth path → body text, for posts of the same run."""
    paths = PathMap(truth, [origin])
    score = SiteScore(truth.name, truth_pages=len(truth.pages), stored_pages=len(stored))
    by_path = _pick(truth, paths, stored, score, origin)
    posts = truth.posts()
    score.posts = len(posts)
    mode = "cjk" if truth.language == "zh" else "words"
    score.body = {"ours": Body(), **{name: Body() for name in peers}}
    for path, page_truth in truth.pages.items():
        page = by_path.get(path)
        truth_group = group(page_truth["type"])
        score.confusion[truth_group, group(page.page_type) if page else "not stored"] += 1
        if path in posts:
            score.coverage_all.add(page is not None)
            if hops.get(path, depth + 1) <= depth:
                score.reachable_posts += 1
                score.coverage.add(page is not None)
        elif page_truth["type"] == "list" and hops.get(path, depth + 1) <= depth:
            score.lists_reached.add(page is not None)
        if page is None:
            continue
        score.types.add(group(page.page_type) == truth_group)
        _score_comments(score, path, page_truth, page)
        if path in posts:
            _score_post(score, truth, path, page_truth, page, mode, peers, metric)
        if page_truth["type"] == "list":
            _score_list(score, paths, path, page_truth, page, by_path)
        elif page.next_page_url:
            score.next_spurious += 1
    for page in stored:  # comment rows on pages outside the truth (feeds, error pages)
        if (paths.path(page.url) not in truth.pages) and page.comments:
            score.stray_comments += len(page.comments)
            score.stray_examples.append(f"{page.url} ({len(page.comments)})")
    return score


def _score_comments(score: SiteScore, path: str, page_truth: dict, page: Stored) -> None:
    truth_comments = page_truth.get("comments") or []
    for comment in truth_comments:
        if comment.get("text"):  # a few truth comments are a name and a date only
            score.comments.add(comment_found(comment["text"], page.comments))
    if not truth_comments and page.comments:
        score.stray_comments += len(page.comments)
        score.stray_examples.append(f"{path} ({len(page.comments)})")


def _score_post(score: SiteScore, truth: SiteTruth, path: str, page_truth: dict, page: Stored,
                mode: str, peers: dict[str, dict[str, str]], metric: BodyMetric) -> None:
    score.posts_as_list.add(page.page_type == "list")
    if "body" in page_truth:
        for system, bodies in (("ours", {path: page.body or ""}), *peers.items()):
            row, exact = metric.doc_counts(page_truth["body"], bodies.get(path, ""), mode)
            score.body[system].add(path, row, exact)
    score.title.add(_norm(page.title) == _norm(page_truth.get("title")))
    if page_truth.get("date"):
        score.day.add(published_day(page.published_at, page.published_raw,
                                              truth.language) == page_truth["date"])
    if page_truth.get("author"):
        score.author.add(_norm(page.author) == _norm(page_truth["author"]))
    score.language.add((page.language or "").lower().split("-")[0] == truth.language)


def _norm(text: str | None) -> str:
    return re.sub(r"\s+", " ", text or "").strip().casefold()


def _score_list(score: SiteScore, paths: PathMap, path: str, page_truth: dict, page: Stored,
                by_path: dict[str, Stored]) -> None:
    items = set(page_truth.get("items") or [])
    found = {paths.path(url, page.url) or url or "" for url in page.records}
    hits = found & items
    score.record_hits += len(hits)
    score.records_stored += len(found)
    score.record_items += len(items)
    if len(found - items) > len(hits) and len(score.junk_examples) < 3:
        score.junk_examples.append(f"{path}: {len(found - items)} of {len(found)} records not "
                                   f"items, e.g. {sorted(found - items)[0]}")
    wanted = page_truth.get("next")
    if wanted:
        score.next_found.add(paths.path(page.next_page_url, page.url) == wanted)
        score.next_followed.add(wanted in by_path)
    elif page.next_page_url:
        score.next_spurious += 1


def body_figures(body: Body, metric: BodyMetric) -> tuple[float, float, float]:
    """Precision, recall, F1 as the shared scorer aggregates them (macro over posts)."""
    return metric.aggregate(body.rows) if body.rows else (float("nan"),) * 3


def records_figures(score: SiteScore) -> tuple[float, float, float]:
    """Records precision, recall, F1 over the site's list pages (summed counts)."""
    p = score.record_hits / score.records_stored if score.records_stored else 0.0
    r = score.record_hits / score.record_items if score.record_items else float("nan")
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)
