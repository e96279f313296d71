"""How each template writes dates and snippets, shared by rendering and ground truth.

Both the HTML and the ground-truth record call these functions, so the "raw string
as shown" in the truth is byte-for-byte what the page displays.
"""

from __future__ import annotations

from datetime import datetime, tzinfo

from tests.demosite.banks import EN_MONTHS
from tests.demosite.catalog import CHINA_TZ, SECTION_BY_KEY, Item

SNIPPET_CHARS = {"zh": 60, "en": 150}


def template_of(item: Item) -> str:
    """The detail template an item is rendered with."""
    return SECTION_BY_KEY[item.group].template if item.kind == "news" else item.kind


def lang_of(item: Item) -> str:
    """zh or en."""
    return "en" if template_of(item) in ("news-en", "blog") else "zh"


def display_zone(item: Item) -> tzinfo:
    """The zone the page shows times in: the section's for news, China time elsewhere."""
    return SECTION_BY_KEY[item.group].zone if item.kind == "news" else CHINA_TZ


def iso(item: Item, when: datetime) -> str:
    """ISO 8601 with the offset of the zone the page shows."""
    return when.astimezone(display_zone(item)).isoformat()


def _en_clock(when: datetime) -> str:
    hour = when.hour % 12 or 12
    return f"{hour}:{when.minute:02d} {'am' if when.hour < 12 else 'pm'}"


def _en_day(when: datetime, short: bool = False) -> str:
    month = EN_MONTHS[when.month - 1]
    month = f"{month[:3]}." if short and len(month) > 4 else month
    return f"{month} {when.day}, {when.year}"


def shown_time(item: Item, when: datetime | None = None) -> str:
    """A detail page's time (the item's own, or a comment's) exactly as displayed."""
    when = (when or item.when).astimezone(display_zone(item))
    template = template_of(item)
    if template == "news-legacy":
        return f"{when:%Y年%m月%d日 %H:%M}"
    if template == "news-en":
        return f"{_en_day(when, short=True)} {when:%H:%M} GMT"
    if template == "blog":
        return f"{_en_day(when)} at {_en_clock(when)}"
    return f"{when:%Y-%m-%d %H:%M}"


def list_date(item: Item, when: datetime | None = None) -> str:
    """The date a list page shows next to an item's link."""
    when = (when or item.when).astimezone(display_zone(item))
    template = template_of(item)
    if template in ("news-en", "blog"):
        return _en_day(when, short=template == "news-en")
    if template == "news-legacy":
        return f"{when:%Y/%m/%d}"
    if template == "forum":
        return f"{when:%Y-%m-%d %H:%M}"
    return f"{when:%Y-%m-%d}"


def snippet(item: Item) -> str:
    """The teaser a list page shows: the start of the first paragraph, cut at a word."""
    text = item.paragraphs[0]
    limit = SNIPPET_CHARS[lang_of(item)]
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if lang_of(item) == "en":
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip("，,;；") + "…"
