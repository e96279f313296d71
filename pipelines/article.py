"""The article route: body, metadata and comments of one news, blog or forum page."""

from __future__ import annotations

from collections.abc import Collection

import lxml.html

from pipelines import boilerplate, comments, density, render
from pipelines.document import Document
from pipelines.params import DENSITY, DensityParams
from pipelines.results import ArticleData


def extract_article(
    doc: Document,
    exclude: Collection[lxml.html.HtmlElement] = (),
    params: DensityParams = DENSITY,
) -> ArticleData:
    """Extract the article from the shared tree without changing it."""
    removed = set(exclude)
    sections = comments.find_sections(doc.body, removed)
    removed |= set(sections)
    removed |= set(boilerplate.find_noise(doc.body))
    found = density.extract(doc.body, removed, params)
    return ArticleData(
        content_text=render.to_text(found.content, removed),
        content_html=render.to_html(found.content, removed),
        comments=[c for s in sections for c in comments.parse_section(s, doc.fetched_at)],
    )
