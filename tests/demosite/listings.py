"""List-page templates: front page, news sections, forum index and boards, blog archive.

Each renders the ground-truth records it is given (see `truth`), one repeated block per
record, so record mining can be scored against exactly what the page shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.demosite.catalog import Section
from tests.demosite.layout import SITE_NAME, ad, document, esc, link_box, pager
from tests.demosite.templates import BLOG_NAME

if TYPE_CHECKING:
    from tests.demosite.site import ListPage

Links = list[tuple[str, str]]


def news_list_page(section: Section, heading: str, records: list[dict], page: ListPage,
                   popular: Links) -> str:
    """One page of a news section in the section's own list style."""
    if section.template == "news-en":
        return _world_list(heading, records, page, popular)
    if section.template == "news-legacy":
        return _legacy_list(heading, records, page, popular)
    rows = "\n".join(
        f'<li><a class="title" href="{r["url"]}">{esc(r["title"])}</a>'
        f'<p class="summary">{esc(r["snippet"])}</p><span class="date">{r["date"]}</span></li>'
        for r in records
    )
    body = (
        f'<div class="wrap"><div class="list-main"><h1 class="list-title">{heading}</h1>'
        f'<ul class="news-list">\n{rows}\n</ul>{pager(page.paths, page.index)}</div>'
        f'<aside class="side">{link_box("热门排行", popular)}{ad(1)}</aside></div>'
    )
    return document(f"{heading}_{SITE_NAME}", body, body_class="list-page")


def _legacy_list(heading: str, records: list[dict], page: ListPage, popular: Links) -> str:
    """The GBK section: table rows, and no charset declared anywhere."""
    rows = "\n".join(
        f'<tr><td class="t">·<a href="{r["url"]}">{esc(r["title"])}</a></td>'
        f'<td class="d">{r["date"]}</td></tr>'
        for r in records
    )
    body = (
        '<table width="960" align="center"><tr><td width="680" valign="top">'
        f'<div class="list-title">{heading}</div><table class="list">\n{rows}\n</table>'
        f'{pager(page.paths, page.index)}</td><td width="260" valign="top">'
        f'{link_box("点击排行", popular)}</td></tr></table>'
    )
    return document(f"{heading}-{SITE_NAME}", body, meta="", body_class="legacy")


def _world_list(heading: str, records: list[dict], page: ListPage, popular: Links) -> str:
    cards = "\n".join(
        f'<div class="story-card"><h2><a href="{r["url"]}">{esc(r["title"])}</a></h2>'
        f'<p class="byline">By {esc(r["author"])} <time>{r["date"]}</time></p>'
        f'<p class="dek">{esc(r["snippet"])}</p></div>'
        for r in records
    )
    body = (
        f'<div class="wrap"><main class="section-front"><h1>{heading}</h1>\n'
        f'{cards}\n{pager(page.paths, page.index, "en")}</main>'
        f'<aside class="rail">{link_box("Most read", popular)}{ad(2, "Advertisement")}</aside>'
        "</div>"
    )
    return document(f"{heading} News | Jiangcheng Online", body, lang="en", body_class="section")


def home_page(records: list[dict], threads: Links, posts: Links, popular: Links) -> str:
    """The portal front page: a latest-news feed plus forum and blog teasers."""
    rows = "\n".join(
        f'<li><a href="{r["url"]}">{esc(r["title"])}</a><span class="date">{r["date"]}</span></li>'
        for r in records
    )
    body = (
        f'<div class="wrap"><div class="home-main"><h2 class="block-title">最新资讯</h2>'
        f'<ul class="latest">\n{rows}\n</ul></div><aside class="side">'
        f'{link_box("论坛热帖", threads, "hot-threads")}{link_box("博客精选", posts, "blog-picks")}'
        f'{link_box("热门排行", popular)}{ad(1)}</aside></div>'
    )
    return document(f"{SITE_NAME} - 江城第一门户网站", body, body_class="home")


def forum_index_page(records: list[dict]) -> str:
    """The board directory with thread and post counts."""
    rows = "\n".join(
        f'<tr><th><a href="{r["url"]}">{esc(r["title"])}</a></th><td>{r["threads"]}</td>'
        f'<td>{r["posts"]}</td><td class="last">{r["date"]}</td></tr>'
        for r in records
    )
    body = (
        '<div class="wrap"><h1>江城社区</h1><table class="boards"><tr><th>版块</th><th>主题</th>'
        f"<th>帖子</th><th>最后发表</th></tr>\n{rows}\n</table></div>"
    )
    return document(f"江城社区 - {SITE_NAME}论坛", body, body_class="forum")


def board_page(name: str, page: ListPage) -> str:
    """One page of a forum board's thread list, newest activity first."""
    rows = "\n".join(
        f'<tr><th class="subject"><a href="{r["url"]}">{esc(r["title"])}</a></th>'
        f'<td class="by"><cite>{esc(r["author"])}</cite></td>'
        f'<td class="num"><a>{r["replies"]}</a><em>{r["views"]}</em></td>'
        f'<td class="by"><cite>{esc(r["last_author"])}</cite><em>{r["date"]}</em></td></tr>'
        for r in page.chunk
    )
    body = (
        f'<div class="wrap"><div class="crumbs"><a href="/">首页</a> › <a href="/forum/">论坛</a>'
        f' › {name}</div><h1>{name}</h1><table class="threadlist"><tr><th>标题</th><th>作者</th>'
        f"<th>回复/查看</th><th>最后发表</th></tr>\n{rows}\n</table>"
        f"{pager(page.paths, page.index)}</div>"
    )
    return document(f"{name} - {SITE_NAME}论坛", body, body_class="forum")


def blog_archive_page(heading: str, records: list[dict], page: ListPage) -> str:
    """One page of the blog archive, newest post first."""
    entries = "\n".join(
        f'<article class="post-summary"><h2 class="entry-title"><a href="{r["url"]}">'
        f'{esc(r["title"])}</a></h2><div class="entry-meta"><time>{r["date"]}</time> · '
        f'{esc(r["author"])} · {r["comments"]} comments</div>'
        f'<p class="excerpt">{esc(r["snippet"])}</p>'
        f'<a class="more-link" href="{r["url"]}">Continue reading</a></article>'
        for r in records
    )
    body = (
        f'<div class="blog-wrap"><header class="blog-header"><a href="/blog/">{BLOG_NAME}</a>'
        '<p class="tagline">Small stories from a big river city</p></header>'
        f'<main>\n{entries}\n{pager(page.paths, page.index, "en")}</main></div>'
    )
    return document(heading, body, lang="en", body_class="blog")
