"""The article route: body, metadata and comments of one news, blog or forum page.

read the page index (markup) → forum posts and comment sections (comments) → named
furniture (boilerplate) → body by density (body.density) → byline, date and breadcrumb lines
left out of it (dates.cn_fields) → title, author, source, date, language (metadata) → body
text and HTML (body.render) and the comments, their times on the page's clock.

Stages share the one parsed tree and never change it: what a stage leaves out is passed on
as a set of removed subtrees. Tunable numbers are in `pipelines.params`, words in
`pipelines.lexicon`.

Where each field is decided (modules under pipelines/article/):

| field             | module                                                              |
| ----------------- | ------------------------------------------------------------------- |
| body              | body/density.py (what is content), body/render.py (text and HTML)   |
| left out of body  | boilerplate.py (furniture), dates/cn_fields.py (byline lines)       |
| title             | metadata/titles.py                                                  |
| author, source    | metadata/byline.py (declared metadata: metadata/structured.py)      |
| publish date      | dates/publish.py (read by dates/parse.py on dates/clock.py's clock, |
|                   | in dates/zones.py's zone)                                           |
| language          | metadata/__init__.py (declared, else pipelines/language.py)         |
| comments          | comments/sections.py (where), comments/items.py (each one),         |
|                   | comments/threads.py (forum posts), dates/comment.py (their time)    |

The route itself, stage by stage, is route.py; the page index all stages read is markup.py,
and the blocks near the headline that byline and date read are blocks.py.
"""

from __future__ import annotations

from pipelines.article.route import extract_article

__all__ = ["extract_article"]
