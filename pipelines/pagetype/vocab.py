"""Word lists the page-type features count; kept apart so features and rules share them.

URL keywords are the seed's lists (SPEC S3). Head, pager, button and profile words
are ours: short, common markers in Chinese and Western languages, matched as
substrings, so no segmentation is needed. The seed's visible-text type words and
punctuation counts were dropped (no grouped-CV gain for their cost, docs/BENCHMARKS.md).
"""

from __future__ import annotations

# SPEC S3, URL type keywords; "list" holds the seed's "other/list" class.
URL_KEYWORDS: dict[str, tuple[str, ...]] = {
    "news": ("story", "article", "content", "news", "xinwen"),
    "forum": ("detail", "thread_", "viewthread", "read-", "tid", "forum", "luntan", "bbs",
              "tieba", "guba", "shequ", "tiezi", "huitie", "post", "showtopic"),
    "blog": ("blog", "static", "boke"),
    "list": ("node", "main", "list", "index", "more", "category", "item", "default", "brief",
             "catid", "special", "data", "club", "group", "rss", "board", "formblogger",
             "profile", "link", "search", "login", "front", "class", "forum-", "channel",
             "fid", "tag"),
}

# Words in <title> and <meta content>, per type.
HEAD_WORDS: dict[str, tuple[str, ...]] = {
    "news": ("新闻", "资讯", "快讯", "日报", "晚报", "news", "article", "times", "post"),
    "forum": ("论坛", "社区", "贴吧", "帖子", "bbs", "forum", "thread", "board", "discussion"),
    "blog": ("博客", "博文", "blog", "wordpress", "blogger", "diary"),
    "list": ("列表", "栏目", "频道", "首页", "第", "页", "category", "archive", "page", "index",
             "search", "results", "shop"),
}

TYPE_CLASSES = ("news", "forum", "blog", "list")

# Names (property, name, itemprop) of <meta> tags in <head>, per meta feature. Publishing
# software dates the page it publishes: article:published_time or pubdate are on 37 of the 83
# labelled news and blog pages and on none of the 89 lists, forums and others.
META_NAME_WORDS: dict[str, tuple[str, ...]] = {
    "published": ("published", "pubdate"),
    "modified": ("modified",),
    "author": ("author",),
}

# Open Graph page types (og:type) that are features: "article" on posts, "website" on indexes.
OG_TYPES = ("article", "website")

# Link texts of pagers ("next page", "last page"…); page numbers are counted apart.
PAGER_WORDS = ("下一页", "下页", "上一页", "上页", "尾页", "末页", "下一頁", "next", "prev",
               "older", "newer", "»", "›", "次へ", "weiter", "suivant")

# Link texts of a post's buttons: a forum thread repeats them once per post.
ACTION_WORDS = ("reply", "quote", "回复", "引用", "举报", "report", "zitieren", "antworten",
                "répondre", "citer", "responder", "citar")

# Href parts of links to a member's profile (vBulletin, phpBB, XenForo, Discuz, WordPress).
USER_HREF_WORDS = ("member", "user", "profile", "author", "uid=", "/u/")

# SPEC S3: text under these tags is not visible page text.
IGNORED_TAGS = frozenset((
    "script", "style", "object", "iframe", "textarea", "noscript", "noembed", "marquee",
    "frame", "frameset", "noframes", "form", "input", "button", "select", "option", "label",
    "fieldset", "applet", "optgroup", "legend", "isindex", "param",
))

# The 50 common tags whose shares of all elements are features (SPEC S3).
COMMON_TAGS = (
    "a", "abbr", "article", "aside", "b", "blockquote", "br", "button", "caption", "cite",
    "code", "dd", "div", "dl", "dt", "em", "figcaption", "figure", "footer", "form", "h1",
    "h2", "h3", "h4", "header", "hr", "i", "img", "input", "label", "li", "link", "main",
    "meta", "nav", "ol", "option", "p", "pre", "section", "select", "small", "span", "strong",
    "table", "td", "th", "time", "tr", "ul",
)
