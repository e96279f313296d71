"""Title, author, source, publish time and language of an article page.

Declared metadata (JSON-LD, <meta>, microdata: structured) is trusted first; the page is
read only for what is missing: the <h1>/<title> pair (titles), byline and 来源 lines
(byline), date lines and <time> elements (dates.publish), all from the blocks near the
headline (blocks). Language is the prose's (its script, else its stopwords; code left out), the
markup's declaration only where the text does not tell.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import lxml.html

from pipelines.article.blocks import page_blocks
from pipelines.article.body import render
from pipelines.article.body.density import NodeStats
from pipelines.article.dates.clock import Clock, day_first
from pipelines.article.dates.cn_fields import has_cn_labels
from pipelines.article.dates.parse import find_date
from pipelines.article.dates.publish import page_date, publish_date
from pipelines.article.dates.zones import local_now, page_zone
from pipelines.article.markup import Markup, read_markup
from pipelines.article.metadata.byline import page_byline, page_declared_author, pick_author
from pipelines.article.metadata.structured import declared
from pipelines.article.metadata.titles import pick_title, title_parts
from pipelines.language import detect_language, prose_language
from pipelines.lexicon import CODE_TAGS
from pipelines.page_text import clean


@dataclass
class Metadata:
    """What the article route reports besides body and comments."""

    title: str | None = None
    author: str | None = None
    source: str | None = None
    published_at: datetime | None = None
    published_raw: str | None = None
    language: str | None = None
    zone: ZoneInfo | None = None  # the clock the page's zone-less times were read on


def extract_metadata(
    tree: lxml.html.HtmlElement, body: lxml.html.HtmlElement, url: str | None,
    now: datetime, content_text: str = "", removed: Collection = (), markup: Markup | None = None,
    counted: Mapping[lxml.html.HtmlElement, NodeStats] | None = None,
    zone: ZoneInfo | None = None, prose: str | None = None,
) -> Metadata:
    """Declared values first, the page (outside `removed` blocks) for whatever is missing;
    `markup` is the route's shared table of `body` (read here when not given), `counted`
    its density counters where the route has them (see page_blocks), `zone` the zone the
    crawl was told the site's times are in (else the page's domain or language decide),
    `prose` the body text without its code (prose_text; `content_text` when not given)."""
    found = declared(tree)
    markup = markup or read_markup(body)
    title = pick_title(tree, found, url, markup, content_text)
    cn_labels = has_cn_labels(markup.text())
    stated = (found.language or "").split("-")[0].split("_")[0].lower() or None
    language = (prose_language(content_text if prose is None else prose, stated)
                or prose_language(title or "", stated) or stated
                or detect_language(content_text))
    zone = page_zone(url, language, zone)
    clock = Clock(local_now(now, zone), day_first(found.language or language))
    declared_author, weak = page_declared_author(found, url)
    wanted = weak or not declared_author
    # A declared publish date beats the one shown under the headline: when they differ, the
    # shown one is mostly the last update, and monitoring needs first publication.
    # Declared dates are written by machines: a slashed one is month first whatever the page.
    date, rivals = _agreed(found.date, found.dates, clock.now, zone) if found.date else (None, [])
    # The page is read only for what is missing: most pages declare author and date.
    read = wanted or cn_labels or not date or rivals
    blocks = page_blocks(markup, removed, title, counted) if read else []
    author, source = page_byline(blocks, clock, wanted, cn_labels)
    if rivals:  # declarations that disagree, as many for each: the one the page shows
        shown = page_date(blocks, None, clock, cn_labels)
        if shown and shown[0].tzinfo:
            date = _local([d for d in (date, *rivals) if _instant(d[0]) == _instant(shown[0])],
                          zone) or date
    titles = (part for title in (found.title, found.page_title)
              for part in title_parts(clean(title) or ""))  # read only when the date needs them
    date = publish_date(date, found.weak_date, blocks, url, clock, cn_labels, titles, markup,
                        content_text, zone)
    return Metadata(
        title=_nfc(title),
        author=_nfc(pick_author(declared_author, weak, author)),
        source=source,
        published_at=date[0] if date else None,
        published_raw=date[1] if date else None,
        language=language,
        zone=zone,
    )


def prose_text(content: Iterable[lxml.html.HtmlElement], drop: Collection[lxml.html.HtmlElement],
               text: str) -> str:
    """The body's text without its code (<pre>, <code>, formulas): `text`, the body's whole
    text, where it holds none. A post's code is no evidence of its language."""
    content = list(content)
    roots = [root for root in content if root.tag not in CODE_TAGS
             and next(root.iterancestors(*CODE_TAGS), None) is None]
    code = {element for root in roots for element in root.iter(*CODE_TAGS)}
    return render.to_text(roots, {*drop, *code}) if code or len(roots) < len(content) else text


def _agreed(date: str, dates: tuple[str, ...], now: datetime,
            zone: ZoneInfo | None) -> tuple[tuple[datetime, str] | None, list]:
    """(the declared publish time, its rivals): `date` (JSON-LD's first), unless more of the
    page's declarations (`dates`) give another instant; where no instant has the most, the
    others are its rivals, and the one the page shows is taken. An SEO plugin that writes
    the local wall-clock time with a UTC offset, or UTC with the local one, is outvoted by
    the page's own <meta> and microdata; of those that agree, the one written on the page's
    `zone`'s clock is kept (its raw string then shows the page's own day)."""
    first = find_date(date, now)
    if len(dates) < 2 or first is None or first[0].tzinfo is None:
        return first, []
    # only times with a zone vote: "12:55" and "12:55Z" need not disagree
    found = [f for f in (find_date(d, now) for d in dates) if f and f[0].tzinfo]
    votes = Counter(_instant(f[0]) for f in found)
    ranked = votes.most_common()
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:  # no instant has the most
        return first, [f for f in found if _instant(f[0]) != _instant(first[0])]
    if ranked[0][0] == _instant(first[0]):
        return first, []
    return _local([f for f in found if _instant(f[0]) == ranked[0][0]], zone), []


def _local(agreeing: list[tuple[datetime, str]],
           zone: ZoneInfo | None) -> tuple[datetime, str] | None:
    """Of declarations of one instant, the first written on the `zone`'s clock, else the
    first."""
    local = (f for f in agreeing if zone and f[0].utcoffset() == f[0].astimezone(zone).utcoffset())
    return next(local, agreeing[0] if agreeing else None)


def _instant(when: datetime) -> datetime:
    """A declared (zoned) time's instant."""
    return when.astimezone(UTC)


def _nfc(text: str | None) -> str | None:
    """Composed Unicode, as text editors save it: one code point per letter where one exists."""
    return unicodedata.normalize("NFC", text) if text else text
