"""Shared page chrome: document shell, nav, footer, ads, "most read" boxes, pagination.

Every template wraps its main content in this chrome, which is what makes same-template
sibling pages share boilerplate, exactly the noise template-diff denoising must remove.
"""

from __future__ import annotations

from html import escape

SITE_NAME = "江城在线"
NAV = (
    ("首页", "/"), ("国内", "/news/china/"), ("财经", "/news/finance/"), ("科技", "/news/tech/"),
    ("本地", "/news/local/"), ("World", "/news/world/"), ("论坛", "/forum/"), ("博客", "/blog/"),
)
FOOTER_LINKS = (("关于我们", "/about.html"), ("联系我们", "/contact.html"),
                ("管理后台", "/admin/"))
FRIEND_LINKS = (
    ("华夏新闻网", "http://www.huaxia-news.example/"), ("东方财经", "http://finance.dongfang.example/"),
    ("江城政务网", "http://gov.jiangcheng.example/"), ("Riverside Weekly", "http://riverside.example/"),
)
AD_IMAGE = "/static/ad-banner.gif"
STYLESHEET = "/static/site.css"
META_UTF8 = '<meta charset="utf-8">'
META_GBK = '<meta http-equiv="Content-Type" content="text/html; charset=gbk">'


def esc(text: object) -> str:
    """HTML-escape any value for text or attribute context."""
    return escape(str(text), quote=True)


def document(title: str, body: str, *, lang: str = "zh-CN", meta: str = META_UTF8,
             body_class: str = "") -> str:
    """A complete HTML document around already-rendered body markup."""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n{meta}\n'
        f"<title>{esc(title)}</title>\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<link rel="stylesheet" href="{STYLESHEET}">\n</head>\n'
        f'<body class="{body_class}">\n{header()}\n{body}\n{footer()}\n</body>\n</html>\n'
    )


def header() -> str:
    """Top bar, masthead and the site-wide navigation."""
    items = "".join(f'<li><a href="{href}">{esc(label)}</a></li>' for label, href in NAV)
    return (
        '<div id="topbar"><div class="wrap"><span>欢迎访问江城在线！</span>'
        '<a href="/admin/">登录</a> | <a href="/about.html">关于我们</a></div></div>\n'
        f'<header id="masthead"><div class="wrap"><a class="logo" href="/">{SITE_NAME}</a>'
        '<form class="search" action="/search" method="get"><input name="q">'
        "<button>搜索</button></form></div></header>\n"
        f'<nav id="nav"><ul>{items}</ul></nav>'
    )


def footer() -> str:
    """Friend links, service links and the copyright line."""
    friends = " ".join(f'<a href="{href}" target="_blank">{esc(label)}</a>'
                       for label, href in FRIEND_LINKS)
    links = " | ".join(f'<a href="{href}">{esc(label)}</a>' for label, href in FOOTER_LINKS)
    return (
        f'<footer id="footer"><div class="friends">友情链接：{friends}</div>'
        f'<div class="links">{links}</div>'
        f"<p class=\"copyright\">Copyright &copy; 2008-2026 {SITE_NAME} 版权所有 "
        "江ICP备08012345号</p></footer>"
    )


def link_box(heading: str, links: tuple[tuple[str, str], ...] | list[tuple[str, str]],
             css: str = "most-read") -> str:
    """A sidebar box of links ("most read", "related"), empty when there are none."""
    if not links:
        return ""
    rows = "".join(f'<li><a href="{path}">{esc(title)}</a></li>' for title, path in links)
    return f'<div class="box {css}"><h3>{esc(heading)}</h3><ol>{rows}</ol></div>'


def ad(slot: int, label: str = "广告") -> str:
    """A banner ad linking off-site (never a crawl target)."""
    return (
        f'<div class="ad ad-{slot}"><a href="http://ads.adnet.example/click?slot={slot}" '
        f'rel="nofollow"><img src="{AD_IMAGE}" alt="{esc(label)}" width="300" height="100"></a>'
        f'<span class="ad-label">{esc(label)}</span></div>'
    )


def pager(paths: list[str], current: int, lang: str = "zh") -> str:
    """Numbered pagination with prev/next links; `current` is 0-based."""
    prev_label, next_label = ("上一页", "下一页") if lang == "zh" else ("Previous", "Next")
    parts = []
    if current > 0:
        parts.append(f'<a class="prev" href="{paths[current - 1]}">{prev_label}</a>')
    for number, path in enumerate(paths):
        parts.append(f'<span class="current">{number + 1}</span>' if number == current
                     else f'<a href="{path}">{number + 1}</a>')
    if current + 1 < len(paths):
        parts.append(f'<a class="next" href="{paths[current + 1]}">{next_label}</a>')
    return f'<div class="pagination">{" ".join(parts)}</div>'


def paragraphs(texts: tuple[str, ...] | list[str]) -> str:
    """Body paragraphs, one <p> each, exactly the text the ground truth holds."""
    return "\n".join(f"<p>{esc(text)}</p>" for text in texts)
