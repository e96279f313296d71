"""Word lists the page-type features count; kept apart so features and rules share them.

URL keywords are the seed's lists (SPEC S3). The text words are ours (the seed
names the idea, not the words): short, common markers in Chinese and English,
matched as substrings, so no segmentation is needed.
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

# Type words in visible text (lower-cased text is searched).
TEXT_WORDS: dict[str, tuple[str, ...]] = {
    "news": ("来源", "记者", "责任编辑", "编辑：", "日电", "通讯员", "新闻", "报道",
             "reporter", "correspondent", "editor", "said", "news"),
    "forum": ("回复", "楼主", "发表于", "帖子", "主题", "沙发", "积分", "注册时间", "只看该作者",
              "reply", "replies", "quote", "posts:", "joined", "thread", "member", "registered"),
    "blog": ("博客", "博文", "博主", "阅读全文", "标签", "分类", "posted by", "posted on",
             "leave a reply", "comments", "permalink", "blog", "archives"),
    "list": ("下一页", "上一页", "尾页", "首页", "更多", "共", "next", "previous", "older",
             "newer", "read more", "page", "results"),
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

# Link texts of pagers ("next page", "last page"…); page numbers are counted apart.
PAGER_WORDS = ("下一页", "下页", "上一页", "上页", "尾页", "末页", "下一頁", "next", "prev",
               "older", "newer", "»", "›", "次へ", "weiter", "suivant")

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

# Punctuation counted by the grammar features, grouped by function with the Chinese
# and Western forms together, so the figures describe the page, not its language.
SENTENCE_MARKS: dict[str, tuple[str, ...]] = {
    "period": ("。", ". "), "exclaim": ("！", "!"), "question": ("？", "?"),
    "semicolon": ("；", ";"),
}
OTHER_MARKS = ("，", "、", "：", "“", "”", "（", "《", ", ", ": ", '"', "(", "|", "»", "›")
