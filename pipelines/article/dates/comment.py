"""The time of one comment or forum post: a <time> element, an element named as its date,
else a date written near its start."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import lxml.html

from pipelines.article.dates.parse import find_date
from pipelines.page_text import opening_text
from pipelines.params import COMMENTS, CommentParams


def comment_time(item: lxml.html.HtmlElement,
                 named: Callable[[], lxml.html.HtmlElement | None], now: datetime,
                 params: CommentParams = COMMENTS):
    """(element, datetime, raw): a <time> element first, then the first element named as a
    date (`named`, asked only when needed), then a date near the item's start, each read only
    when those before gave no date (a <time datetime> answers most comments)."""
    for element in item.iter("time"):
        if found := date_of(element, now, params=params):
            return element, found[0], found[1]
    named_element = named()
    if named_element is not None and (found := date_of(named_element, now, params=params)):
        return named_element, found[0], found[1]
    found = find_date(opening_text(item, params.comment_date_chars),
                      now)  # an unnamed date line near the top
    return (None, found[0], found[1]) if found else (None, None, None)


def date_of(stamp: lxml.html.HtmlElement, now: datetime,
            params: CommentParams = COMMENTS) -> tuple[datetime, str] | None:
    """The date of an element that carries one: its datetime attribute, title, else text."""
    return (find_date(stamp.get("datetime") or "", now)
            or find_date(stamp.get("title") or "", now)
            or find_date(opening_text(stamp, params.comment_date_chars), now))
