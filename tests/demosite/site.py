"""The whole demo site for one seed and edition: every page's bytes plus its ground truth.

`Site` renders everything up front (well under a second for the default ~500 pages) so
tests can compare bytes, and the server only looks pages up.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import format_datetime
from random import Random
from xml.sax.saxutils import escape as xml_escape

from tests.demosite import formats as f
from tests.demosite import listings, templates
from tests.demosite import truth as t
from tests.demosite.catalog import BOARDS, SECTIONS, Catalog, Item, SiteConfig
from tests.demosite.layout import AD_IMAGE, STYLESHEET
from tests.demosite.templates import BLOG_NAME

HTML_UTF8 = "text/html; charset=utf-8"
HTML_NO_CHARSET = "text/html"
DISALLOWED = ("/admin/", "/search")
# Discovery documents: robots.txt names the sitemap index, which lists a sitemap of every
# detail page and a gzip'd news sitemap; the home page declares the RSS feed.
SITEMAP_INDEX, SITEMAP_PAGES = "/sitemap.xml", "/sitemap-pages.xml"
SITEMAP_NEWS = "/sitemap-news.xml.gz"
FEED = "/feed.xml"
FEED_ENTRIES = 20
URLSET = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
NEWS_NS = ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'
# A 1x1 transparent GIF for the ad banner, and a small stylesheet.
GIF_1X1 = bytes.fromhex("47494638396101000100800000000000ffffff21f90401000000002c"
                        "00000000010001000002024401003b")
CSS = b"body{font:14px/1.6 sans-serif;margin:0}.wrap{width:960px;margin:0 auto}.ad{color:#999}\n"
ABOUT = ("江城在线创办于2008年，是江城地区最早的综合性新闻门户网站之一。",
         "网站设有国内、财经、科技、本地和World等新闻频道，以及江城社区论坛和博客。",
         "我们坚持真实、客观、及时的原则，为广大网民提供权威的资讯服务。")
CONTACT = ("新闻热线：027-12345678（24小时）。",
           "广告合作：ad@jiangcheng.example，工作日9:00-18:00。",
           "地址：江城市东湖区滨江大道100号江城传媒大厦12楼。")
ADMIN = ("本页面仅供网站工作人员使用，请输入账号和密码登录。",)
ADMIN_FORM = ('<form method="post" action="/admin/login"><input name="user">'
              '<input name="password" type="password"><button>登录</button></form>')


@dataclass(frozen=True)
class Page:
    """One servable resource; `truth` is None for assets (stylesheet, images)."""

    path: str
    body: bytes
    content_type: str
    truth: dict | None


@dataclass(frozen=True)
class ListPage:
    """One page of a paginated list and where it sits in the sequence."""

    path: str
    chunk: list
    paths: list[str]
    index: int

    @property
    def next_page(self) -> str | None:
        """The following page's path, None on the last page."""
        return self.paths[self.index + 1] if self.index + 1 < len(self.paths) else None


def paginate(items: list, size: int, first: str, numbered: str) -> list[ListPage]:
    """Split newest-first items into pages: page 1 at `first`, page n at `numbered`.format(n)."""
    chunks = [items[i: i + size] for i in range(0, len(items), size)] or [[]]
    paths = [first if n == 0 else numbered.format(n + 1) for n in range(len(chunks))]
    return [ListPage(paths[n], chunk, paths, n) for n, chunk in enumerate(chunks)]


class Site:
    """All pages of the demo site at one edition, keyed by absolute path."""

    def __init__(self, seed: int = 0, edition: int = 0, config: SiteConfig | None = None,
                 catalog: Catalog | None = None, items: list[Item] | None = None) -> None:
        """`items` (the live site's current ones) replace the catalog's of `edition`."""
        self.catalog = catalog or Catalog(seed, config)
        self.seed = self.catalog.seed
        self.edition = edition
        self.config = self.catalog.config
        self.items: list[Item] = items if items is not None else self.catalog.items(edition)
        self.pages: dict[str, Page] = {}
        self._add(Page(STYLESHEET, CSS, "text/css", None))
        self._add(Page(AD_IMAGE, GIF_1X1, "image/gif", None))
        for item in self.items:
            self._add_detail(item)
        self._add_news_lists()
        self._add_forum_lists()
        self._add_blog_lists()
        self._add_home()
        self._add_static_pages()

    def get(self, path: str) -> Page | None:
        """The page served at `path`, or None (a 404)."""
        return self.pages.get(path)

    def ground_truth(self) -> dict[str, dict]:
        """path -> truth record, for every HTML page (assets excluded)."""
        return {path: page.truth for path, page in self.pages.items() if page.truth is not None}

    def robots_txt(self, base_url: str) -> bytes:
        """robots.txt disallowing the admin area and search, pointing at the sitemap index."""
        rules = "".join(f"Disallow: {path}\n" for path in DISALLOWED)
        return f"User-agent: *\n{rules}\nSitemap: {base_url}{SITEMAP_INDEX}\n".encode()

    def discovery_document(self, path: str, base_url: str) -> bytes | None:
        """The sitemap index, its two sitemaps or the RSS feed served at `path`, else None."""
        if path == SITEMAP_INDEX:
            rows = "".join(f"<sitemap><loc>{base_url}{child}</loc></sitemap>\n"
                           for child in (SITEMAP_PAGES, SITEMAP_NEWS))
            return ('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns='
                    f'"http://www.sitemaps.org/schemas/sitemap/0.9">\n{rows}</sitemapindex>\n'
                    ).encode()
        if path == SITEMAP_PAGES:
            return self._sitemap(base_url, self.items,
                                 lambda item: f"<lastmod>{f.iso(item, item.when)}</lastmod>")
        if path == SITEMAP_NEWS:
            news = [item for item in self.items if item.kind == "news"]
            return gzip.compress(self._sitemap(base_url, news, lambda item: (
                f"<news:news><news:publication_date>{f.iso(item, item.when)}"
                "</news:publication_date></news:news>"), NEWS_NS), mtime=0)
        if path == FEED:
            return self._feed(base_url)
        return None

    @staticmethod
    def _sitemap(base_url: str, items: list[Item], dated: Callable[[Item], str],
                 namespaces: str = "") -> bytes:
        rows = "".join(f"<url><loc>{xml_escape(base_url + item.path)}</loc>{dated(item)}</url>\n"
                       for item in items)
        return (f'<?xml version="1.0" encoding="UTF-8"?>\n{URLSET}{namespaces}>\n{rows}'
                "</urlset>\n").encode()

    def _feed(self, base_url: str) -> bytes:
        """RSS 2.0 of the newest items of every kind, linked relative to the site."""
        newest = sorted(self.items, key=lambda item: item.when, reverse=True)[:FEED_ENTRIES]
        rows = "".join(
            f"<item><title>{xml_escape(item.title)}</title><link>{xml_escape(item.path)}</link>"
            f"<pubDate>{format_datetime(item.when.astimezone(f.display_zone(item)))}</pubDate></item>\n"
            for item in newest)
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>'
                f"<title>江城在线</title><link>{base_url}/</link>\n{rows}</channel></rss>\n"
                ).encode()

    def _add(self, page: Page) -> None:
        if page.path in self.pages:
            raise ValueError(f"duplicate path {page.path}")
        self.pages[page.path] = page

    def _add_html(self, html: str, truth: dict) -> None:
        if truth["encoding"] == "gbk":
            self._add(Page(truth["url"], html.encode("gbk"), HTML_NO_CHARSET, truth))
        else:
            self._add(Page(truth["url"], html.encode("utf-8"), HTML_UTF8, truth))

    def _add_detail(self, item: Item) -> None:
        render = {"news": templates.article_page, "forum": templates.thread_page,
                  "blog": templates.blog_post_page}[item.kind]
        self._add_html(render(item), t.detail_truth(item))

    def _newest(self, kind: str, group: str | None = None) -> list[Item]:
        chosen = [i for i in self.items if i.kind == kind and group in (None, i.group)]
        return sorted(chosen, key=lambda item: item.when, reverse=True)

    def _popular(self, path: str, items: list[Item]) -> list[tuple[str, str]]:
        picked = Random(f"{self.seed}:popular:{path}").sample(items, min(5, len(items)))
        return [(item.title, item.path) for item in picked]

    def _add_news_lists(self) -> None:
        for section in SECTIONS:
            items = self._newest("news", section.key)
            heading = "World" if section.lang == "en" else f"{section.name}新闻"
            for page in paginate(items, self.config.news_page_size, f"/news/{section.key}/",
                                 f"/news/{section.key}/list_{{}}.html"):
                records = [t.news_record(item) for item in page.chunk]
                html = listings.news_list_page(section, heading, records, page,
                                               self._popular(page.path, items))
                self._add_html(html, t.list_truth(
                    page.path, f"list-{section.template}", heading, records,
                    next_page=page.next_page, lang=section.lang, encoding=section.encoding))

    def _add_forum_lists(self) -> None:
        index_records = []
        for number, topic, name in BOARDS:
            records = sorted((t.thread_record(item) for item in self._newest("forum", topic)),
                             key=lambda r: r["published"], reverse=True)
            pages = paginate(records, self.config.board_page_size,
                             f"/forum/board-{number}-1.html", f"/forum/board-{number}-{{}}.html")
            for page in pages:
                self._add_html(listings.board_page(name, page), t.list_truth(
                    page.path, "list-board", name, page.chunk, next_page=page.next_page))
            latest = records[0] if records else {"date": "", "published": None}
            index_records.append({
                "title": name, "url": pages[0].path, "date": latest["date"],
                "published": latest["published"], "threads": len(records),
                "posts": len(records) + sum(r["replies"] for r in records)})
        self._add_html(listings.forum_index_page(index_records),
                       t.list_truth("/forum/", "list-forum-index", "江城社区", index_records))

    def _add_blog_lists(self) -> None:
        pages = paginate(self._newest("blog"), self.config.blog_page_size, "/blog/",
                         "/blog/archive/page/{}/")
        for page in pages:
            records = [t.post_record(item) for item in page.chunk]
            heading = BLOG_NAME if page.index == 0 else f"{BLOG_NAME} – Page {page.index + 1}"
            self._add_html(listings.blog_archive_page(heading, records, page), t.list_truth(
                page.path, "list-blog", heading, records, lang="en", next_page=page.next_page))

    def _add_home(self) -> None:
        news = self._newest("news")
        records = [t.portal_record(item) for item in news[:20]]
        threads = [(i.title, i.path) for i in self._newest("forum")[:6]]
        posts = [(i.title, i.path) for i in self._newest("blog")[:5]]
        html = listings.home_page(records, threads, posts, self._popular("/", news)).replace(
            "</head>", f'<link rel="alternate" type="application/rss+xml" href="{FEED}">\n'
            "</head>", 1)
        self._add_html(html, t.list_truth("/", "list-home", "最新资讯", records))

    def _add_static_pages(self) -> None:
        for path, title, texts, extra in (
            ("/about.html", "关于我们", ABOUT, ""),
            ("/contact.html", "联系我们", CONTACT, ""),
            ("/admin/", "管理后台", ADMIN, ADMIN_FORM),
        ):
            truth = t.other_truth(path, title, texts, robots_disallowed=path in DISALLOWED)
            self._add_html(templates.static_page(title, texts, extra), truth)
