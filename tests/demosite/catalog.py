"""The site's content inventory: every article, thread and blog post, edition by edition.

Edition 0 is the initial site; each later edition publishes a few new items dated in
its own one-day window after the anchor. Items of an edition are generated only from
the seed and earlier editions, so publishing edition N never alters an older item.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from random import Random

from tests.demosite import content as c

CHINA_TZ = timezone(timedelta(hours=8), "CST")
# Edition 0 ends here; edition N covers the N-th day after it.
ANCHOR = datetime(2026, 11, 10, tzinfo=CHINA_TZ)


@dataclass(frozen=True)
class Section:
    """A news section: its URL segment, label, language, topic and wire encoding."""

    key: str
    name: str
    lang: str
    template: str
    encoding: str = "utf-8"
    zone: tzinfo = CHINA_TZ  # the zone its pages show times (and dated URLs) in


SECTIONS = (
    Section("china", "国内", "zh", "news-zh"),
    Section("finance", "财经", "zh", "news-zh"),
    Section("tech", "科技", "zh", "news-zh"),
    Section("local", "本地", "zh", "news-legacy", "gbk"),
    Section("world", "World", "en", "news-en", zone=UTC),
)
SECTION_BY_KEY = {section.key: section for section in SECTIONS}
# (board id, topic key, display name)
BOARDS = ((1, "chat", "江城杂谈"), (2, "food", "美食天地"), (3, "house", "房产家居"),
          (4, "digital", "数码科技"), (5, "jobs", "求职招聘"))
BOARD_BY_TOPIC = {topic: (number, name) for number, topic, name in BOARDS}
BLOG_CATEGORIES = {"travel": "Travel", "cooking": "Cooking", "code": "Code",
                   "books": "Books", "garden": "Garden"}


@dataclass(frozen=True)
class SiteConfig:
    """How much content the site holds; the defaults give about 500 pages."""

    articles_per_section: int = 50
    threads_per_board: int = 30
    blog_posts: int = 60
    new_articles_per_section: int = 3
    new_threads_per_board: int = 2
    new_blog_posts: int = 2
    news_page_size: int = 20
    board_page_size: int = 20
    blog_page_size: int = 10
    history_days: int = 40


@dataclass(frozen=True)
class Comment:
    """A reader comment or forum reply; `cid`, its id on the page, only on the live site."""

    author: str
    when: datetime
    text: str
    cid: int | None = None


@dataclass(frozen=True)
class Item:
    """One detail page's content: a news article, a forum thread or a blog post."""

    kind: str  # news | forum | blog
    path: str
    group: str  # section key, board topic or blog category
    title: str
    author: str
    when: datetime
    paragraphs: tuple[str, ...]
    comments: tuple[Comment, ...]
    edition: int
    related: tuple[tuple[str, str], ...]  # (title, path) of earlier items in the group
    popular: tuple[tuple[str, str], ...]  # the "most read" box: earlier items of the kind
    meta: dict[str, object] = field(default_factory=dict)


def edition_window(edition: int, config: SiteConfig) -> tuple[datetime, datetime]:
    """The [start, end) publication window of an edition."""
    if edition == 0:
        return ANCHOR - timedelta(days=config.history_days), ANCHOR
    return ANCHOR + timedelta(days=edition - 1), ANCHOR + timedelta(days=edition)


class Catalog:
    """All items up to a given edition, generated lazily and cached per edition."""

    def __init__(self, seed: int = 0, config: SiteConfig | None = None) -> None:
        self.seed = seed
        self.config = config or SiteConfig()
        self._editions: list[list[Item]] = []
        self._by_group: dict[tuple[str, str], list[Item]] = {}
        self._by_kind: dict[str, list[Item]] = {"news": [], "forum": [], "blog": []}
        self._next_id = {"news": 10000, "forum": 5000}
        self._slugs: set[str] = set()
        self.blog_authors = tuple(
            c.en_name(Random(f"{seed}:blog-author:{i}")) for i in range(3)
        )

    def items(self, edition: int) -> list[Item]:
        """Every item published in editions 0..edition, oldest first per edition."""
        while len(self._editions) <= edition:
            self._editions.append(self._generate(len(self._editions)))
        return [item for batch in self._editions[: edition + 1] for item in batch]

    def _slots(self, edition: int) -> dict[str, list[tuple[str, int]]]:
        """(group, n) for every item an edition publishes, per kind."""
        cfg = self.config
        first = edition == 0
        per_section = cfg.articles_per_section if first else cfg.new_articles_per_section
        per_board = cfg.threads_per_board if first else cfg.new_threads_per_board
        posts = cfg.blog_posts if first else cfg.new_blog_posts
        return {
            "news": [(s.key, n) for s in SECTIONS for n in range(per_section)],
            "forum": [(topic, n) for _, topic, _ in BOARDS for n in range(per_board)],
            "blog": [("blog", n) for n in range(posts)],
        }

    def _generate(self, edition: int) -> list[Item]:
        batch: list[Item] = []
        start, end = edition_window(edition, self.config)
        for kind, groups in self._slots(edition).items():
            rng = Random(f"{self.seed}:{kind}:{edition}")
            minutes = int((end - start).total_seconds()) // 60 - 60
            timed = sorted((start + timedelta(minutes=rng.randrange(minutes)), group, n)
                           for group, n in groups)
            for when, group, n in timed:
                item_rng = Random(f"{self.seed}:{kind}:{edition}:{group}:{n}")
                item = self._make(kind, group, when, item_rng, edition, end)
                self._by_group.setdefault((kind, item.group), []).append(item)
                self._by_kind[kind].append(item)
                batch.append(item)
        return batch

    def _make(self, kind: str, group: str, when: datetime, rng: Random, edition: int,
              end: datetime) -> Item:
        if kind == "news":
            fields = self._news(group, when, rng)
        elif kind == "forum":
            fields = self._thread(group, when, rng)
        else:
            fields = self._post(when, rng)
        same_group = self._by_group.get((kind, fields["group"]), [])[-20:]
        same_kind = self._by_kind[kind][-30:]
        related = _pick_links(rng, same_group, rng.randint(3, 5))
        popular = _pick_links(rng, same_kind, 5)
        comments = self._comments(kind, fields.pop("comment_of"), when, end, rng)
        return Item(kind=kind, when=when, edition=edition, related=related, popular=popular,
                    comments=comments, **fields)

    def _take_id(self, kind: str, rng: Random) -> int:
        self._next_id[kind] += rng.randint(1, 9)
        return self._next_id[kind]

    def _news(self, section: str, when: datetime, rng: Random) -> dict:
        number = self._take_id("news", rng)
        local = when.astimezone(SECTION_BY_KEY[section].zone)
        path = f"/news/{section}/{local:%Y/%m/%d}/{number}.html"
        if section == "world":
            return {"path": path, "group": section, "title": c.en_news_title(rng),
                    "author": c.en_name(rng), "paragraphs": tuple(c.en_news_paragraphs(rng)),
                    "comment_of": None, "meta": {}}
        reporter = c.zh_name(rng)
        has_comments = section != "local" and rng.random() < 0.6
        return {
            "path": path, "group": section, "title": c.zh_news_title(rng, section),
            "author": reporter, "paragraphs": tuple(c.zh_news_paragraphs(rng, section, reporter)),
            "comment_of": (lambda r: c.zh_news_comment(r, section)) if has_comments else None,
            "meta": {"source": rng.choice(("江城日报", "江城晚报", "本网", "华夏通讯社")),
                     "editor": c.zh_name(rng)},
        }

    def _thread(self, topic: str, when: datetime, rng: Random) -> dict:
        number = self._take_id("forum", rng)
        subject = c.zh_forum_topic(rng, topic)
        return {
            "path": f"/forum/thread-{number}-1.html", "group": topic,
            "title": c.zh_thread_title(rng, subject), "author": c.zh_nick(rng),
            "paragraphs": tuple(c.zh_forum_paragraphs(rng, subject, rng.randint(1, 4))),
            "comment_of": lambda r: "".join(c.zh_forum_paragraphs(r, subject, 1)),
            "meta": {"views": rng.randint(40, 9000)},
        }

    def _post(self, when: datetime, rng: Random) -> dict:
        category = rng.choice(sorted(BLOG_CATEGORIES))
        title = c.en_blog_title(rng, category)
        slug = c.slugify(title)
        while slug in self._slugs:
            slug += f"-{rng.randint(2, 99)}"
        self._slugs.add(slug)
        return {
            "path": f"/blog/{when.astimezone(CHINA_TZ):%Y/%m}/{slug}.html", "group": category,
            "title": title, "author": rng.choice(self.blog_authors),
            "paragraphs": tuple(c.en_blog_paragraphs(rng, category)),
            "comment_of": lambda r: c.en_comment(r, category), "meta": {},
        }

    def _comments(self, kind: str, write: Callable[[Random], str] | None, when: datetime,
                  end: datetime, rng: Random) -> tuple[Comment, ...]:
        """Comments dated after the item and before its edition closes, oldest first."""
        if write is None:
            return ()
        count = rng.randint(0, 25 if kind == "forum" else 10)
        minutes = max(int((end - when).total_seconds()) // 60 - 1, 1)
        offsets = sorted(rng.randrange(1, minutes + 1) for _ in range(count))
        author = c.zh_nick if kind != "blog" else c.en_handle
        return tuple(
            Comment(author(rng), when + timedelta(minutes=offset), write(rng))
            for offset in offsets
        )


def _pick_links(rng: Random, pool: list[Item], count: int) -> tuple[tuple[str, str], ...]:
    chosen = rng.sample(pool, min(len(pool), count))
    return tuple((item.title, item.path) for item in chosen)
