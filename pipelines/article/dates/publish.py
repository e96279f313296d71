"""The publish date of an article: declared dates first, then the page's dated lines around
the headline, the URL, the title and the text, read on the page's clock and placed in its
zone."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import lxml.html

from pipelines.article.blocks import Block, names_date
from pipelines.article.dates.clock import Clock
from pipelines.article.dates.cn_fields import cn_fields
from pipelines.article.dates.parse import find_date, is_clock, is_relative
from pipelines.article.dates.zones import local_now, localise
from pipelines.article.markup import Markup
from pipelines.lexicon import CN_DATE_LABELS, ONLY_RELATIVE_DATE, PUBLISHED_LABEL
from pipelines.page_text import text_of
from pipelines.params import PUBLISH_DATE, PublishDateParams

_URL_DATE = re.compile(r"/((?:19|20)\d{2})[/-]?(\d{2})[/-]?(\d{2})/")
_URL_MONTH = re.compile(r"/((?:19|20)\d{2})/(\d{2})/(?!\d)")  # WordPress "/2010/05/slug/"
_URL_DAY_FIRST = re.compile(r"/(\d{2})[-.](\d{2})[-.]((?:19|20)\d{2})(?:[/.?#-]|$)")


def _block_date(block: Block, clock: Clock):
    """A date-named block's date: its text or the start of a longer one, else a machine date
    in its attributes (<span class="updated" title="2013-04-04T18:52:11+00:00"></span>)."""
    if block.text or block.head:
        return clock.find(block.text or block.head)
    element = block.element
    value = element.get("datetime") or element.get("content") or element.get("title")
    return clock.find(value) if value and not text_of(element).strip() else None


def page_date(blocks: list[Block], url: str | None, clock: Clock, cn_labels: bool = True,
              weak: tuple[datetime, str] | None = None, params: PublishDateParams = PUBLISH_DATE):
    """(datetime, raw) from <time>, labelled date lines and date-named elements: the headline's
    own lines below it first, then above it (page headers show today's date), then further
    below (teaser lists show other articles' dates); then the `weak` declared date (a
    generic <meta name=date>, a modification time), then the URL, then the first date shown
    in the few blocks after the headline (an unnamed byline, a dateline opening the text),
    then in the few just above it. A date shown without its year is completed by `weak`
    (_completed). `cn_labels` as for page_byline.

    A relative time ("今天", "3小时前", "today", a bare "14:05") counts only as the page's
    own: in a date-named element between the headline and the text's first paragraph (a
    teaser list after the text says "今天" of other articles), else as the last resort
    (_own_relative). Navigation, widgets and teasers say "today" of other things, and an
    archived page would be dated the day it was fetched."""
    opened = [b for b in blocks if not b.shut]
    below = [b for b in opened if 0 <= b.since_title <= params.near_title_blocks]
    above = [b for b in opened if b.since_title < 0]
    far = [b for b in opened if b.since_title > params.near_title_blocks]
    opening = next((b.since_title for b in below if b.text is None and b.head), None)
    lines = [b for b in below if opening is None or b.since_title < opening]
    found = (next(_marked_dates(below, clock, cn_labels, set(lines), params), None)
             or next(_marked_dates(above, clock, cn_labels, params=params), None)
             or next(_marked_dates(far, clock, cn_labels, params=params), None)
             or weak or url_date(url, clock))
    near_above = [b for b in reversed(above) if b.since_title >= -params.near_above_blocks]
    shown = (_shown_date(b, clock, params=params) for b in below + near_above)
    found = found or next((date for date in shown if date), None)
    return _completed(found or _own_relative(lines + near_above, clock), weak)


def _own_relative(near: list[Block], clock: Clock) -> tuple[datetime, str] | None:
    """A relative time standing alone in a line next to the headline (`near`: its own lines
    and the few just above it; a bare time of day only in a date-named element): not a word
    in a sentence ("今天是星期三", "Today's top stories"), nor a link (a menu's "今天")."""
    for block in near:
        date = block.text and clock.find(block.text)
        if (date and is_relative(date[1]) and _stands_alone(block, date)
                and (not is_clock(block.text) or names_date(block.hint))):
            return date
    return None


def _completed(found: tuple[datetime, str] | None,
               weak: tuple[datetime, str] | None) -> tuple[datetime, str] | None:
    """A date shown without its year ("发布时间：10-08 12:00", a bare "12:00") is the declared
    `weak` date when that agrees with what is shown (day and month, the time where shown):
    the page shows the short form of the moment it declares, and the year the short form
    gets otherwise is a guess from the fetch time."""
    if found is None or weak is None or str(found[0].year) in found[1]:
        return found
    shown, declared = found[0], weak[0]
    same_time = (shown.hour, shown.minute) in ((0, 0), (declared.hour, declared.minute))
    same_day = is_clock(found[1]) or (shown.month, shown.day) == (declared.month, declared.day)
    return weak if same_day and same_time else found


def _shown_date(block: Block, clock: Clock, params: PublishDateParams = PUBLISH_DATE):
    """An absolute date in an unnamed block: anywhere in a short line, or opening a longer one
    ("Pressemitteilung vom 25. Januar 2022 | Berlin – …")."""
    if block.text:
        found = clock.find(block.text)
        return found if found and not is_relative(found[1]) else None
    found = block.head and clock.find(block.head)
    usable = found and not is_relative(found[1])
    return found if usable and block.head.find(found[1]) < params.dateline_chars else None


def _stands_alone(block: Block, found: tuple[datetime, str]) -> bool:
    """Whether a date is all its block says but for a date's lead-in ("发布于 3小时前"), and
    the block no link."""
    text = block.text
    return (block.element.tag != "a" and text is not None
            and ONLY_RELATIVE_DATE.fullmatch(text.replace(found[1], "", 1)) is not None)


def _marked_dates(blocks: list[Block], clock: Clock, cn_labels: bool,
                  relative: Collection[Block] = (),
                  params: PublishDateParams = PUBLISH_DATE) -> Iterator[tuple[datetime, str]]:
    """The dates of <time> elements, then of labelled or date-named blocks, in that order
    (read lazily: the first is mostly the one taken); relative ones only in the blocks of
    `relative`."""
    for block in blocks:
        if block.element.tag == "time":
            found = clock.find(block.element.get("datetime") or block.text)
            if found and (block in relative or not is_relative(found[1])):
                yield found
    for block in blocks:
        labelled = cn_labels and any(label in CN_DATE_LABELS
                                     for label, _ in cn_fields(block.text))
        if labelled or names_date(block.hint):
            found = _block_date(block, clock)
            if found and (block in relative or not is_relative(found[1])):
                yield found
        found = _labelled_date(block.element, clock, params=params)
        if found and (block in relative or not is_relative(found[1])):
            yield found


def _labelled_date(element: lxml.html.HtmlElement, clock: Clock,
                   params: PublishDateParams = PUBLISH_DATE):
    """The date after a Western publication label ("Erschienen am: 13.10.2021"), in the same
    element or, where the label stands alone, in the text or element right after it
    (<span>Erschienen am:</span> <h2>13.10.2021</h2>). Only the element's own first text is
    matched: reading every block's whole text cost more than all date rules."""
    label = element.text and PUBLISHED_LABEL.match(element.text)
    if not label:
        return None
    found = clock.find(text_of(element)[:params.label_reach_chars])
    after = element.getnext()
    if found or (element.tail or "").strip():
        return found or clock.find(element.tail)
    return clock.find(text_of(after)[:params.label_reach_chars]) if after is not None else None


def url_date(url: str | None, clock: Clock):
    """The /2023/05/01/, /20230501/ or /01-05-2023 date in an article URL."""
    match = _URL_DATE.search(url or "")
    if match:
        return clock.find("-".join(match.groups()))
    match = _URL_DAY_FIRST.search(url or "")
    return clock.find("-".join(reversed(match.groups()))) if match else None


def month_date(url: str | None, text: str, clock: Clock, params: PublishDateParams = PUBLISH_DATE):
    """A day in the month that the URL gives (/2010/05/slug/): the first date written
    anywhere in the page's `text` within that month ("wurde am 19. Mai 2010 gepostet" in a
    sidebar)."""
    match = _URL_MONTH.search(url or "")
    if not match:
        return None
    year, month = match.group(1), int(match.group(2))
    at = text.find(year)
    while at >= 0:
        found = clock.find(text[max(0, at - params.month_window): at + params.month_window])
        if found and found[0].year == int(year) and found[0].month == month:
            return found
        at = text.find(year, at + len(year))
    return None


def title_date(parts: Iterable[str], clock: Clock):
    """A date standing as a whole part of the title ("08.11.2021 | Online-Fachtag …"), as
    press-release and event pages title their items: `parts`, the declared and <title>
    titles' parts."""
    for part in parts:
        date = clock.find(part)
        if date and date[1] == part and not is_relative(part):  # a title "Today": no date
            return date
    return None


def local_day(found: tuple[datetime, str], url: str | None, zone: ZoneInfo | None,
              clock: Clock):
    """The time in the page's own zone, so that its calendar day is the page's: a time
    written without a zone is in it; a zoned one is moved into the zone of the URL's date
    when that is the neighbouring day (the time was written in UTC), else into `zone`.
    """
    when, raw = found
    if when.tzinfo is None:
        return localise(when, zone), raw
    day = url_date(url, clock)
    shift = (day[0].date() - when.date()).days if day else 0
    if shift in (-1, 1):
        hours = shift * (1 + (when.hour if shift < 0 else 23 - when.hour))
        return when.astimezone(timezone(timedelta(hours=max(-12, min(14, hours))))), raw
    return (when.astimezone(zone), raw) if zone else found



def publish_date(declared: tuple[datetime, str] | None, weak: str | None, blocks: list[Block],
                 url: str | None, clock: Clock, cn_labels: bool, title_parts: Iterable[str],
                 markup: Markup, content_text: str, zone: ZoneInfo | None,
                 params: PublishDateParams = PUBLISH_DATE):
    """(datetime, raw) of the publication in the page's zone: the `declared` date, else the
    page's (page_date, with the `weak` declared date), a date that is a whole part of the
    title, a day in the URL's month, the opening of the text (not a relative word there:
    "announced today that …" is the prose's)."""
    # Never from removed blocks: a comment's or a sidebar item's date would mislead readers.
    generic = find_date(weak, clock.now) if weak and not declared else None
    opening = clock.find(content_text[:params.text_date_chars])
    date = (declared or page_date(blocks, url, clock, cn_labels, generic, params=params)
            or title_date(title_parts, clock) or month_date(url, markup.text(), clock,
                                                            params=params)
            or (opening if opening and not is_relative(opening[1]) else None))
    return local_day(date, url, zone, clock) if date else None


def posted_date(raw: str | None, fetched_at: datetime,
                zone: ZoneInfo | None) -> tuple[datetime, str] | None:
    """A forum thread's opening post's time (`raw`, as written) on the page's clock."""
    if not raw:
        return None
    found = find_date(raw, local_now(fetched_at, zone))
    return (localise(found[0], zone), found[1]) if found else None
