"""The article's own header: a <header> that holds its headline and the lines about it
(date, byline, categories), which the metadata reads and the body leaves out.

Blog and news themes (Octopress, Hexo NexT, Hugo and Jekyll themes, WordPress's
`entry-header`) write every post as `<header><h1>title</h1><p class="meta">date</p>
</header>` then the text. On a short post (a few lines and an embedded video) that header is
denser than the text under it and became the body: the title and date alone. On a long post
it led the body with the title and date. A header that holds a headline and, beside it, no
more than a few lines of text is no part of the body; one with more text (a standfirst, a
whole article a theme wrapped in <header>) is left to density.
"""

from __future__ import annotations

from pipelines.article.markup import Markup
from pipelines.page_text import text_of
from pipelines.params import ARTICLE_PARTS, ArticlePartsParams

_HEADINGS = ("h1", "h2")


def headline_headers(markup: Markup, params: ArticlePartsParams = ARTICLE_PARTS) -> set:
    """The <header> elements under <body> that hold a headline and at most
    `max_header_chars` characters of other text."""
    found = set()
    for header in markup.body.iter("header"):
        headings = list(header.iter(*_HEADINGS))
        if not headings:
            continue
        heading_chars = sum(len("".join(text_of(h).split())) for h in headings)
        other = len("".join(text_of(header).split())) - heading_chars
        if other <= params.max_header_chars:
            found.add(header)
    return found
