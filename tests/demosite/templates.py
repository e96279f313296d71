"""Detail-page templates: three news article styles, forum thread, blog post, static pages.

Each function renders one `Item` inside the shared chrome. Visible strings that the
ground truth records (dates, names, paragraphs) come from `formats` and the item itself.
"""

from __future__ import annotations

from zlib import crc32

from tests.demosite import formats as f
from tests.demosite.catalog import BLOG_CATEGORIES, BOARD_BY_TOPIC, SECTION_BY_KEY, Item
from tests.demosite.content import zh_signature
from tests.demosite.layout import (
    META_GBK,
    SITE_NAME,
    ad,
    document,
    esc,
    link_box,
    paragraphs,
)

BLOG_NAME = "Riverside Notes"
FLOOR_NAMES = {2: "沙发", 3: "板凳", 4: "地板"}


def _stable(text: str, modulo: int) -> int:
    """A deterministic small number derived from a string (for cosmetic noise)."""
    return crc32(text.encode()) % modulo


def _body_with_inline_ad(item: Item) -> str:
    """Article paragraphs, with an ad block wedged in after the second on some pages."""
    texts = list(item.paragraphs)
    if len(texts) < 5 or _stable(item.path, 2):
        return paragraphs(texts)
    return f"{paragraphs(texts[:2])}\n{ad(3)}\n{paragraphs(texts[2:])}"


def article_page(item: Item) -> str:
    """A news article in its section's template."""
    render = {"news-zh": _news_zh, "news-legacy": _news_legacy, "news-en": _news_en}
    return render[f.template_of(item)](item)


def _comment_id(cid: int | None) -> str:
    """The comment's own id attribute: live-site comments carry one, as real sites' do."""
    return f' id="comment-{cid}"' if cid is not None else ""


def _zh_comments(item: Item) -> str:
    rows = "".join(
        f'<div class="comment"{_comment_id(c.cid)}><span class="user">{esc(c.author)}</span>'
        f'<span class="time">{f.shown_time(item, c.when)}</span><p>{esc(c.text)}</p></div>'
        for c in item.comments
    )
    rows = rows or '<p class="empty">暂无评论，快来抢沙发吧！</p>'
    return (f'<div class="comments" id="comments"><h3>网友评论（{len(item.comments)}）</h3>'
            f"{rows}</div>")


def _news_zh(item: Item) -> str:
    section = SECTION_BY_KEY[item.group]
    body = (
        f'<div class="wrap"><div class="crumbs"><a href="/">首页</a> &gt; '
        f'<a href="/news/{section.key}/">{section.name}</a> &gt; 正文</div>'
        f'<div class="main"><article class="article"><h1>{esc(item.title)}</h1>'
        f'<div class="info"><span class="time">发布时间：{f.shown_time(item)}</span>'
        f'<span class="source">来源：{esc(item.meta["source"])}</span>'
        f'<span class="author">作者：{esc(item.author)}</span></div>\n'
        f'<div class="content" id="article-content">\n{_body_with_inline_ad(item)}\n</div>\n'
        f'<p class="editor">（责任编辑：{esc(item.meta["editor"])}）</p>'
        '<div class="share">分享到：<a href="javascript:;">微信</a> <a href="javascript:;">微博</a>'
        "</div>"
        f'{link_box("相关阅读", item.related, "related")}'
        f"{_zh_comments(item)}"
        f'</article></div><aside class="side">{link_box("热门排行", item.popular)}{ad(1)}'
        "</aside></div>"
    )
    return document(f"{item.title}_{section.name}_{SITE_NAME}", body, body_class="article-page")


def _news_legacy(item: Item) -> str:
    section = SECTION_BY_KEY[item.group]
    info = "　".join((f"发布时间：{f.shown_time(item)}", f"来源：{esc(item.meta['source'])}",
                      f"作者：{esc(item.author)}", f"编辑：{esc(item.meta['editor'])}"))
    related = "".join(f'<tr><td>·<a href="{path}">{esc(title)}</a></td></tr>'
                      for title, path in item.related)
    body = (
        '<table width="960" align="center" class="position"><tr><td>当前位置：'
        f'<a href="/">首页</a> &gt;&gt; <a href="/news/{section.key}/">{section.name}</a>'
        ' &gt;&gt; 正文</td></tr></table>\n'
        '<table width="960" align="center"><tr><td width="680" valign="top">'
        f'<div class="arc-title">{esc(item.title)}</div><div class="arc-info">{info}</div>\n'
        f'<div class="arc-body">\n{paragraphs(item.paragraphs)}\n</div>\n'
        f'<table class="related"><tr><th>相关新闻</th></tr>{related}</table></td>'
        f'<td width="260" valign="top">{link_box("点击排行", item.popular)}</td></tr></table>'
    )
    return document(f"{item.title}-{section.name}-{SITE_NAME}", body, meta=META_GBK,
                    body_class="legacy")


def _news_en(item: Item) -> str:
    body = (
        '<div class="wrap"><main class="story-main"><article class="story">'
        '<p class="kicker"><a href="/news/world/">World</a></p>'
        f'<h1 class="headline">{esc(item.title)}</h1>'
        f'<p class="byline">By <span class="author">{esc(item.author)}</span> | '
        f'<time datetime="{f.iso(item, item.when)}">{f.shown_time(item)}</time></p>\n'
        f'<div class="story-body">\n{_body_with_inline_ad(item)}\n</div>\n'
        f'{link_box("More from World", item.related, "more")}</article></main>'
        f'<aside class="rail">{link_box("Most read", item.popular)}{ad(2, "Advertisement")}'
        "</aside></div>"
    )
    return document(f"{item.title} | World | Jiangcheng Online", body, lang="en",
                    body_class="story-page")


def _forum_post(item: Item, floor: int, author: str, shown: str, text_html: str,
                pid: int | None = None) -> str:
    """One post; its id is its `pid` (stable when earlier replies are deleted), else its floor."""
    label = "楼主" if floor == 1 else FLOOR_NAMES.get(floor, f"#{floor}")
    return (
        f'<table class="post" id="post-{pid or floor}"><tr><td class="pls">'
        f'<div class="user"><a href="/forum/">{esc(author)}</a></div>'
        f'<div class="level">积分：{_stable(author, 5000)}</div></td>'
        f'<td class="plc"><div class="pi"><strong>{label}</strong> '
        f'<span class="time">发表于 <em>{shown}</em></span></div>'
        f'<div class="t_f">{text_html}</div>'
        f'<div class="sign">{esc(zh_signature(author))}</div></td></tr></table>'
    )


def thread_page(item: Item) -> str:
    """A forum thread: the opening post and every reply, Discuz-style."""
    number, name = BOARD_BY_TOPIC[item.group]
    posts = [_forum_post(item, 1, item.author, f.shown_time(item), paragraphs(item.paragraphs))]
    posts += [
        _forum_post(item, floor, c.author, f.shown_time(item, c.when), paragraphs([c.text]),
                    c.cid)
        for floor, c in enumerate(item.comments, start=2)
    ]
    body = (
        f'<div class="wrap"><div class="crumbs"><a href="/">首页</a> › <a href="/forum/">论坛</a>'
        f' › <a href="/forum/board-{number}-1.html">{name}</a> › {esc(item.title)}</div>'
        f'<div class="thread-head"><h1>{esc(item.title)}</h1>'
        f'<span class="stats">查看：{item.meta["views"]} | '
        f"回复：{len(item.comments)}</span></div>\n"
        + "\n".join(posts)
        + f'\n{link_box("相关帖子", item.related, "related")}'
        '<div class="reply-box">快速回复：请先<a href="/admin/">登录</a>后发帖。</div></div>'
    )
    return document(f"{item.title} - {name} - {SITE_NAME}论坛", body, body_class="forum")


def blog_post_page(item: Item) -> str:
    """A blog post with its comment thread, WordPress-style."""
    comments = "".join(
        f'<li class="comment"><div class="comment-author">{esc(c.author)}</div>'
        f'<div class="comment-meta"><time>{f.shown_time(item, c.when)}</time></div>'
        f'<div class="comment-body"><p>{esc(c.text)}</p></div></li>'
        for c in item.comments
    )
    heading = f"{len(item.comments)} Comments" if item.comments else "No comments yet"
    body = (
        f'<div class="blog-wrap"><header class="blog-header"><a href="/blog/">{BLOG_NAME}</a>'
        '<p class="tagline">Small stories from a big river city</p></header><main>'
        f'<article class="post"><h1 class="entry-title">{esc(item.title)}</h1>'
        f'<div class="entry-meta">Posted on <time datetime="{f.iso(item, item.when)}">'
        f'{f.shown_time(item)}</time> by <span class="author">{esc(item.author)}</span>'
        f' in <span class="cat">{BLOG_CATEGORIES[item.group]}</span></div>\n'
        f'<div class="entry-content">\n{paragraphs(item.paragraphs)}\n</div>'
        f'{link_box("You might also like", item.related, "related-posts")}</article>\n'
        f'<section id="comments"><h2>{heading}</h2><ol class="comment-list">{comments}</ol>'
        '<form class="comment-form"><h3>Leave a Reply</h3><textarea name="comment"></textarea>'
        "<button>Post Comment</button></form></section></main>"
        f'<aside class="widget-area">{link_box("Popular posts", item.popular)}</aside></div>'
    )
    return document(f"{item.title} – {BLOG_NAME}", body, lang="en", body_class="blog")


def static_page(title: str, texts: tuple[str, ...], extra: str = "") -> str:
    """An "other" page: about, contact, the admin login."""
    body = f'<div class="wrap page"><h1>{esc(title)}</h1>\n{paragraphs(texts)}\n{extra}</div>'
    return document(f"{title}_{SITE_NAME}", body)
