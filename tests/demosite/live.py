"""The demo site made live: over (compressible) time it publishes new articles, threads and
posts, and adds, edits and deletes comments and replies, with a truth log of when each
change appeared.

The run is planned up front from the seed (`plan`): new items are the catalog's later
editions, re-dated to the moment they appear; comments go to the newest commentable items
(news with a comment section, threads, blog posts), the newer the likelier. `LiveSite`
applies the changes that are due whenever the server asks for the site, so a request made
after a change's moment sees it, and rebuilds the pages once per batch of changes.

The clock (`LiveClock`) runs `scale` simulated seconds per wall second from `start()`; a
crawler measured against it has its schedule and revisit intervals divided by the same
factor (bench/freshness.py). Before `start()` the site is edition 0 (with comment ids).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace
from datetime import timedelta
from random import Random

from tests.demosite import content as c
from tests.demosite.catalog import ANCHOR, Catalog, Comment, Item
from tests.demosite.site import FEED, SITEMAP_INDEX, SITEMAP_NEWS, SITEMAP_PAGES, Site

# Items a live comment can go to: news with a comment section (Chinese templates but the
# legacy one), forum threads, blog posts. Forum and news comments carry ids; blog ones do
# not (the crawler then knows them by author, time and text), so they are never edited.
COMMENT_SECTIONS = ("china", "finance", "tech")
FORUM_FIRST_REPLY = 2  # a thread's opening post is post-1


@dataclass(frozen=True)
class LiveConfig:
    """How fast the site lives: rates per simulated hour, over `duration` simulated seconds."""

    scale: float = 12.0  # simulated seconds per wall second
    duration: float = 3600.0
    items_per_hour: float = 60.0  # new articles, threads and posts
    comments_per_hour: float = 240.0
    comment_edits_per_hour: float = 4.0
    comment_deletes_per_hour: float = 4.0
    article_edits_per_hour: float = 2.0
    open_items: int = 20  # comments go to the newest this many commentable items


@dataclass(frozen=True)
class Change:
    """One planned change: at `at` simulated seconds, `kind` to the item at `path`.

    kind: item (published) | comment (added) | comment_edit | comment_delete | article_edit;
    `comment` is the comment added, or the one edited (its new text) or deleted."""

    at: float
    kind: str
    path: str
    comment: Comment | None = None
    item: Item | None = None


class LiveClock:
    """Simulated seconds since `start()` (0 before), `scale` of them per wall second."""

    def __init__(self, scale: float) -> None:
        if scale <= 0:
            raise ValueError(f"time scale {scale} is not positive")
        self.scale = scale
        self.started_at: float | None = None  # wall time (epoch seconds)

    def start(self, wall: float | None = None) -> None:
        self.started_at = time.time() if wall is None else wall

    def now(self) -> float:
        if self.started_at is None:
            return 0.0
        return (time.time() - self.started_at) * self.scale

    def wall(self, at: float) -> float:
        """The wall time (epoch seconds) of simulated second `at`."""
        if self.started_at is None:
            raise RuntimeError("the live clock has not started")
        return self.started_at + at / self.scale


def commentable(item: Item) -> bool:
    return item.kind in ("forum", "blog") or item.group in COMMENT_SECTIONS


def with_ids(item: Item) -> Item:
    """The item with ids on its comments where its kind shows them (floors for threads)."""
    if item.kind == "blog" or not commentable(item):
        return item
    first = FORUM_FIRST_REPLY if item.kind == "forum" else 1
    return replace(item, comments=tuple(replace(comment, cid=first + n)
                                        for n, comment in enumerate(item.comments)))


def _arrivals(rng: Random, per_hour: float, duration: float) -> list[float]:
    """Poisson arrival times in (0, duration) simulated seconds."""
    times, at = [], 0.0
    while per_hour > 0:
        at += rng.expovariate(per_hour / 3600)
        if at >= duration:
            return times
        times.append(at)
    return times


def _new_items(catalog: Catalog, count: int) -> list[Item]:
    """The first `count` items of editions 1, 2, …, in publication order."""
    items: list[Item] = []
    edition = 1
    while len(items) < count:
        batch = [item for item in catalog.items(edition) if item.edition == edition]
        items += sorted(batch, key=lambda item: item.when)
        edition += 1
    return items[:count]


def _comment_text(rng: Random, item: Item) -> str:
    if item.kind == "news":
        return c.zh_news_comment(rng, item.group)
    if item.kind == "forum":
        return "".join(c.zh_forum_paragraphs(rng, c.zh_forum_topic(rng, item.group), 1))
    return c.en_comment(rng, item.group)


class _Planner:
    """The items' state while the plan is drawn, so each change fits the site at its time."""

    def __init__(self, seed: int, items: list[Item]) -> None:
        self.seed = seed
        self.items = {item.path: item for item in items}
        self.next_cid = {item.path: max((cm.cid or 0 for cm in item.comments), default=0) + 1
                         for item in items}
        self.open = sorted((i for i in items if commentable(i)), key=lambda i: i.when)

    def publish(self, at: float, item: Item) -> Change:
        item = replace(item, when=ANCHOR + timedelta(seconds=at), comments=())
        self.items[item.path] = item
        self.next_cid[item.path] = FORUM_FIRST_REPLY if item.kind == "forum" else 1
        if commentable(item):
            self.open.append(item)
        return Change(at, "item", item.path, item=item)

    def comment(self, at: float, rng: Random, open_items: int) -> Change | None:
        newest = self.open[-open_items:][::-1]
        if not newest:
            return None
        path = rng.choices(newest, weights=[1 / (rank + 2) for rank in range(len(newest))])[0].path
        item = self.items[path]
        author = c.en_handle(rng) if item.kind == "blog" else c.zh_nick(rng)
        cid = None if item.kind == "blog" else self.next_cid[path]
        self.next_cid[path] += 1
        comment = Comment(author, ANCHOR + timedelta(seconds=at), _comment_text(rng, item), cid)
        self.items[path] = replace(item, comments=(*item.comments, comment))
        return Change(at, "comment", path, comment=comment)

    def edit_or_delete(self, at: float, rng: Random, kind: str, open_items: int) -> Change | None:
        """An edit (of a comment with an id) or a deletion of a comment of an open item."""
        candidates = [(item.path, comment) for item in self.open[-open_items:]
                      for comment in self.items[item.path].comments
                      if kind == "comment_delete" or comment.cid is not None]
        if not candidates:
            return None
        path, old = rng.choice(candidates)
        item = self.items[path]
        if kind == "comment_delete":
            kept = tuple(cm for cm in item.comments if cm is not old)
            self.items[path] = replace(item, comments=kept)
            return Change(at, kind, path, comment=old)
        new = replace(old, text=_comment_text(rng, item))
        self.items[path] = replace(item, comments=tuple(new if cm is old else cm
                                                        for cm in item.comments))
        return Change(at, kind, path, comment=new)

    def edit_article(self, at: float, rng: Random, open_items: int) -> Change | None:
        news = [item for item in self.open[-open_items:] if item.kind == "news"]
        if not news:
            return None
        item = self.items[rng.choice(news).path]
        correction = f"（更正：本文第{rng.randint(1, 3)}段所述数据有误，已于发稿后更正。）"
        self.items[item.path] = replace(item, paragraphs=(*item.paragraphs, correction))
        return Change(at, "article_edit", item.path, item=self.items[item.path])


def plan(catalog: Catalog, config: LiveConfig) -> tuple[list[Item], list[Change]]:
    """The site's items at the start (edition 0, comments with ids) and its changes, in
    time order; the same for the same seed, site configuration and live configuration."""
    seed = catalog.seed
    start = [with_ids(item) for item in catalog.items(0)]
    rates = {"item": config.items_per_hour, "comment": config.comments_per_hour,
             "comment_edit": config.comment_edits_per_hour,
             "comment_delete": config.comment_deletes_per_hour,
             "article_edit": config.article_edits_per_hour}
    timeline = sorted((at, kind) for kind, rate in rates.items()
                      for at in _arrivals(Random(f"{seed}:live:{kind}"), rate, config.duration))
    new_items = iter(_new_items(catalog, sum(kind == "item" for _, kind in timeline)))
    planner = _Planner(seed, start)
    changes = []
    for n, (at, kind) in enumerate(timeline):
        rng = Random(f"{seed}:live:{n}")
        if kind == "item":
            change: Change | None = planner.publish(at, next(new_items))
        elif kind == "comment":
            change = planner.comment(at, rng, config.open_items)
        elif kind == "article_edit":
            change = planner.edit_article(at, rng, config.open_items)
        else:
            change = planner.edit_or_delete(at, rng, kind, config.open_items)
        if change is not None:
            changes.append(change)
    return start, changes


def truth_record(change: Change, wall: float) -> dict:
    """A change as the truth log keeps it (plain JSON)."""
    record: dict = {"kind": change.kind, "path": change.path, "at": round(change.at, 3),
                    "wall": round(wall, 3)}
    if change.comment is not None:
        record.update(cid=change.comment.cid, author=change.comment.author,
                      text=change.comment.text)
    return record


class LiveSite:
    """The site as it stands on the live clock; `site()` applies the changes that are due."""

    def __init__(self, catalog: Catalog, config: LiveConfig) -> None:
        self.catalog = catalog
        self.config = config
        self.clock = LiveClock(config.scale)
        start, self.changes = plan(catalog, config)
        self.items = {item.path: item for item in start}
        self.applied = 0  # changes[:applied] are on the site
        self.truth: list[dict] = []  # what appeared when, in order
        self._site = Site(catalog=catalog, items=start)
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the clock: simulated second 0 is now."""
        self.clock.start()

    def site(self) -> Site:
        """The site with every change due by now applied."""
        with self._lock:
            now = self.clock.now()
            due = self.applied
            while due < len(self.changes) and self.changes[due].at <= now:
                self._apply(self.changes[due])
                due += 1
            if due != self.applied:
                self.applied = due
                self._site = Site(catalog=self.catalog, items=list(self.items.values()))
            return self._site

    def _apply(self, change: Change) -> None:
        if change.item is not None:  # published or edited: the item as it is now
            self.items[change.path] = change.item
        else:
            item = self.items[change.path]
            comments = item.comments
            if change.kind == "comment":
                comments = (*comments, change.comment)
            elif change.kind == "comment_edit":
                comments = tuple(change.comment if cm.cid == change.comment.cid else cm
                                 for cm in comments)
            else:
                comments = tuple(cm for cm in comments if cm != change.comment)
            self.items[change.path] = replace(item, comments=comments)
        self.truth.append(truth_record(change, self.clock.wall(change.at)))

    def size(self, base_url: str) -> tuple[int, int]:
        """(pages, bytes) a fetch of every HTML page and discovery document would cost now."""
        site = self.site()
        bodies = [page.body for page in site.pages.values() if page.truth is not None]
        bodies += [site.robots_txt(base_url)] + [
            site.discovery_document(path, base_url) or b""
            for path in (FEED, SITEMAP_INDEX, SITEMAP_PAGES, SITEMAP_NEWS)]
        return len(bodies), sum(map(len, bodies))
