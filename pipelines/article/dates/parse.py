"""Find and normalise publish dates as real pages write them, Chinese and Western.

Handles ISO 8601, 2023年5月1日 10:00, 2023-05-01 10:00:00, 2023/5/1, 05-01 10:00
(year taken from the fetch time), 昨天/前天/今天 HH:MM, N分钟前/N小时前/N天前,
"3 hours ago", a bare "14:05" (today), "May 1, 2023", "1 May 2023", "1. Mai 2023",
"1 de mayo de 2023", "1 maggio 2023", "1 мая 2023", 01.05.2023, 01.05.23 and RFC 2822.
Relative forms are resolved against the fetch time. A result is timezone-aware only when the text
says which zone; otherwise it is naive and the caller decides.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

from pipelines.hanzi import either, simplified
from pipelines.lexicon import (
    AFTERNOON_WORDS,
    COUNT_WORDS,
    DAY_WORD_OFFSET,
    MONTHS,
    RELATIVE_UNIT_SECONDS,
    RELATIVE_WORDS,
    RFC_DAYS,
    RFC_MONTHS,
)
from pipelines.page_text import by_first_letter
from pipelines.params import DATE_PARSE, DateParseParams

# Longest first, so that "march" is tried before "mar"; a lookahead on the first letters
# spares the alternation every position that starts no month name.
_MONTH_WORD = "(?=[{}])(?:{})".format(
    re.escape("".join(sorted({name[0] for name in MONTHS}))),
    by_first_letter(sorted(MONTHS, key=len, reverse=True)))
# A time, "下午 3:20" (Taiwan, Hong Kong: afternoon) and "10時30分" (Japanese) included.
_TIME = (r"(?:[T\s]*(?:(?P<cn_ap>上午|下午|晚上|中午|凌晨)\s*)?"
         r"(?P<H>\d{1,2})(?:[:：]|" + either("时|点") + r")(?P<M>\d{1,2})"
         r"(?:[:：分](?P<S>\d{1,2})(?:\.\d+)?秒?)?)?")
_ZONE = r"\s*(?P<Z>Z|[+-]\d{2}:?\d{2}|UTC|GMT)?"
# Its separators pair up, 年 with 月 and a dash, slash or dot with itself (checked in
# _absolute): "2019年1-7月" is January to July, no date.
_FULL = re.compile(
    r"(?P<y>(?:19|20)\d{2})\s*(?P<s1>[-/.年])\s*(?P<m>\d{1,2})\s*(?P<s2>[-/.月])\s*(?P<d>\d{1,2})"
    r"\s*日?" + _TIME + _ZONE,
    re.I,
)
_PAIRED = {"年": "月", "-": "-", "/": "/", ".": "."}
# _SHORT's month and _EN_DMY's day test what stands before them after their first digit
# ((?<![\d/.-]\d), and (?<!\w\d) for \b): a pattern that opens with a digit lets the regex
# engine skip to the digits of a text, one that opens with \b or a lookbehind is tried at
# every position. Same matches and groups as the plain patterns
# (tests/unit/pipelines/test_dates.py checks it on random texts).
_SHORT = re.compile(
    r"(?P<m>\d(?<![\d/.-]\d)\d?)(?:[-/]|月)(?P<d>\d{1,2})日?" + _TIME + r"(?![\d/.\-月])")
_EN_MDY = re.compile(
    rf"\b(?P<mw>{_MONTH_WORD})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>(?:19|20)\d{{2}})"
    r"(?:,?\s+(?:at\s+)?(?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?\s*(?P<ap>[ap]\.?m\.?)?)?",
    re.I,
)
_EN_DMY = re.compile(
    rf"(?P<d>\d(?<!\w\d)\d?)(?:st|nd|rd|th|\.|º)?\s*(?:de\s+)?(?P<mw>{_MONTH_WORD})\.?,?\s+"
    r"(?:de\s+)?(?P<y>(?:19|20)\d{2})(?:,?\s+(?:um\s+|à\s+|at\s+|a las\s+)?(?P<H>\d{1,2})[:h]"
    r"(?P<M>\d{2}))?",
    re.I,
)
# European numeric day.month.year: 28.01.2022, 28. 1. 2022 14:30, and 28.01.22 (two digits
# each, so that version numbers such as 1.2.3 are not read as dates). A two-digit year run
# into its time, as elements side by side give it ("28.09.1912:44"), is no year 1912.
_DMY = re.compile(
    r"(?<![\d.])(?P<d>\d{1,2})\.\s?(?P<m>\d{1,2})\.\s?(?P<y>(?:19|20)\d{2})(?![\d.]|:\d)"
    r"(?:,?\s+(?:um\s+)?(?P<H>\d{1,2}):(?P<M>\d{2}))?"
    r"|(?<![\d.])(?P<d2>\d{2})\.(?P<m2>\d{2})\.(?P<y2>\d{2})(?:(?=\d{2}:\d{2})|(?![\d.]))"
    r"(?:,?\s*(?:um\s+)?(?P<H2>\d{1,2}):(?P<M2>\d{2}))?"
)
# Slashed numeric dates with the year last: 10/19/2019 is month first (US use) unless the
# caller says the page is day-first (10/05/2022 on a Spanish page); when the first number
# cannot be a month (19/10/2019) it is the day.
# Forums also write two-digit years (26/10/13), two digits each as with dots.
_SLASHED = re.compile(
    r"(?<![\d/.])(?:(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>(?:19|20)\d{2})|"
    r"(?P<a2>\d{2})/(?P<b2>\d{2})/(?P<y3>\d{2}))(?![\d/])"
    r"(?:,?\s+(?P<H>\d{1,2}):(?P<M>\d{2})\s*(?P<ap>[ap]\.?m\.?)?)?", re.I
)
# What a pattern cannot match without, found by a search that opens with a digit or a
# literal (the engine skips to those): an English date's year after a space, _DMY's day and
# month. Most texts (a comment's first 200 characters) hold none, and _EN_MDY, _EN_DMY and
# _DMY, which open with \b or a lookbehind, were tried at every position of them.
_SPACED_YEAR = re.compile(r"(?:19|20)\d\d(?<=\s\d{4})")
_DOTTED = re.compile(r"\d\.\s?\d{1,2}\.")
_SLASH = re.compile("/")
# The absolute patterns in the order they are tried, each with its test (None: no test).
_ABSOLUTE = ((_FULL, None), (_EN_MDY, _SPACED_YEAR), (_EN_DMY, _SPACED_YEAR), (_DMY, _DOTTED),
             (_SLASHED, _SLASH))
_DIGIT = re.compile(r"\d")  # as the patterns read digits: any script's
# A bare clock time ("14:05") as the whole text: today, as news lists write it.
_CLOCK = re.compile(r"\s*(?P<H>[01]?\d|2[0-3])[:：](?P<M>[0-5]\d)\s*")
# Simplified and traditional Chinese ("3小時前"), Japanese ("5分前", "2時間前") and English.
_RELATIVE = re.compile(
    r"(?P<n>\d+|" + either("半|一|两|几") + r")\s*(?P<unit>"
    + either("秒|分钟|分|小时|个小时|时间|天|周|星期|个月") + "|"
    r"seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?)\s*(?:前|ago)",
    re.I,
)
_DAY_WORD = re.compile(
    r"(?P<w>" + either("刚刚|今天|昨天|前天") + "|今日|昨日|just now|today|yesterday)" + _TIME,
    re.I)


def _zone(token: str | None) -> timezone | None:
    if not token:
        return None
    if token.upper() in ("Z", "UTC", "GMT"):
        return UTC
    sign = -1 if token[0] == "-" else 1
    digits = token[1:].replace(":", "")
    return timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:4])))


def _build(year: int, month: int, day: int, groups: dict[str, str | None]) -> datetime | None:
    hour = int(groups.get("H") or 0)
    minute = int(groups.get("M") or 0)
    second = int(groups.get("S") or 0)
    meridiem = (groups.get("ap") or "").lower().replace(".", "")
    if (meridiem == "pm" or groups.get("cn_ap") in AFTERNOON_WORDS) and hour < 12:
        hour += 12
    elif meridiem == "am" and hour == 12:
        hour = 0
    try:
        return datetime(year, month, day, hour, minute, second, tzinfo=_zone(groups.get("Z")))
    except ValueError:
        return None


def _absolute(groups: dict[str, str | None], now: datetime, day_first: bool) -> datetime | None:
    """A datetime from the groups of one absolute pattern; two-digit years are this century's."""
    if groups.get("y2"):
        year = 2000 + int(groups["y2"])
        if year > now.year:
            return None
        groups = {**groups, "H": groups["H2"], "M": groups["M2"]}
        return _build(year, int(groups["m2"]), int(groups["d2"]), groups)
    if groups.get("a") or groups.get("a2"):
        first, second = int(groups["a"] or groups["a2"]), int(groups["b"] or groups["b2"])
        month_first = first <= 12 and (not day_first or second > 12)
        month, day = (first, second) if month_first else (second, first)
        year = int(groups["y"]) if groups["y"] else 2000 + int(groups["y3"])
        return _build(year, month, day, groups) if year <= now.year else None
    if groups.get("s1") and _PAIRED[groups["s1"]] != groups["s2"]:
        return None
    month = int(groups["m"]) if groups.get("m") else MONTHS[groups["mw"].lower()]
    return _build(int(groups["y"]), month, int(groups["d"]), groups)


def _may_be_relative(text: str) -> bool:
    """Whether _RELATIVE or _DAY_WORD could match: each needs one of a few words, which
    substring tests find in a fraction of one search's cost (casefold() maps every character
    that re.I matches to one of their letters, "ſ" to "s" included)."""
    if ("前" in text or "天" in text or "刚" in text or "剛" in text or "今日" in text
            or "昨日" in text):
        return True
    folded = text.casefold()
    return any(word in folded for word in RELATIVE_WORDS)


def _relative(text: str, now: datetime) -> tuple[datetime, str] | None:
    if not _may_be_relative(text):
        return None
    match = _RELATIVE.search(text)
    if match:
        count = COUNT_WORDS.get(simplified(match["n"])) or float(match["n"])
        unit = (match["unit"].lower().rstrip("s") if match["unit"].isascii()
                else simplified(match["unit"]))
        return now - timedelta(seconds=count * RELATIVE_UNIT_SECONDS[unit]), match.group(0)
    match = _DAY_WORD.search(text)
    if match:
        word = simplified(match["w"]).lower()
        base = now - timedelta(days=DAY_WORD_OFFSET[word])
        if match["H"] is None:
            return (base if word in ("刚刚", "just now") else base.replace(
                hour=0, minute=0, second=0, microsecond=0)), match.group(0)
        built = _build(base.year, base.month, base.day, match.groupdict())
        if built:
            return built.replace(tzinfo=now.tzinfo), match.group(0)
    return None


def _may_be_rfc2822(text: str) -> bool:
    """Whether parsedate_to_datetime could read `text`, by the parser's own first steps:
    after an optional weekday, its first two words are the day and the month (either way
    round), the month exactly a name, the day a number (one trailing comma cut), and at
    least four words (or a 10-Jul-12 word and two more). A looser test (a month abbreviation
    among the first three words) let through mostly texts the parser fails on by raising
    ("July 10th, 2012", "11. Jul, 2012", "John on July 21"; see docs/DECISIONS.md, 'Article
    route speed')."""
    words = text.split(maxsplit=5)  # the parser reads five words after a weekday
    if not words:
        return False
    if words[0].endswith(",") or words[0].lower() in RFC_DAYS:
        del words[0]
    else:
        words[0] = words[0][words[0].rfind(",") + 1:]
    if len(words) == 3 and len(parts := words[0].split("-")) == 3:
        words = parts + words[1:]
    if len(words) < 4:
        return False
    day, month = words[0], words[1].lower()
    if month not in RFC_MONTHS:
        day, month = words[1], words[0].lower()
        if month not in RFC_MONTHS:
            return False
    day = day[:-1] if day.endswith(",") else day
    # what int() reads: a sign, decimal digits and underscores between them
    return day.lstrip("+-").replace("_", "").isdecimal()


def find_date(text: str, now: datetime | None = None,
              day_first: bool = False, params: DateParseParams = DATE_PARSE) -> tuple[datetime,
                                                                                      str] | None:
    """The first date written in `text`, with the exact substring it was read from;
    `day_first` reads slashed dates as day/month/year (all but US-English pages)."""
    if not text:
        return None
    now = now or datetime.now(UTC)
    if not _DIGIT.search(text):  # every form but the relative words writes a digit
        return _relative(text, now)
    if _may_be_rfc2822(text):
        try:
            return parsedate_to_datetime(text.strip()), text.strip()
        except (TypeError, ValueError, IndexError):
            pass
    for pattern, needed in _ABSOLUTE:
        if needed is not None and needed.search(text) is None:
            continue
        for match in pattern.finditer(text):
            built = _absolute(match.groupdict(), now, day_first)
            if built:
                return built, match.group(0).strip()
    short = "-" in text or "/" in text or "月" in text  # what _SHORT needs between m and d
    for match in _SHORT.finditer(text) if short else ():
        built = _build(now.year, int(match["m"]), int(match["d"]), match.groupdict())
        if built:
            latest = now.replace(tzinfo=None) + timedelta(days=params.max_future_days)
            if built.replace(tzinfo=None) > latest:
                built = built.replace(year=now.year - 1)  # "12-30" read in January
            return built, match.group(0).strip()
    clock = _CLOCK.fullmatch(text)
    if clock:
        return _build(now.year, now.month, now.day, clock.groupdict()), text.strip()
    return _relative(text, now)


def is_clock(text: str) -> bool:
    """Only a time of day: "today" on a list page, too weak to date an article."""
    return bool(_CLOCK.fullmatch(text))


def is_relative(raw: str) -> bool:
    """Whether a date as found (find_date's raw string) is relative to the fetch time: "今天",
    "昨天 10:30", "3小时前", "2 hours ago", "today", a bare "14:05". It tells a page's age only
    where it stands as the page's own time."""
    raw = raw.strip()
    return bool(_CLOCK.fullmatch(raw) or _RELATIVE.fullmatch(raw) or _DAY_WORD.fullmatch(raw))


def parse_date(text: str | None, now: datetime | None = None,
               params: DateParseParams = DATE_PARSE) -> datetime | None:
    """Normalise one date string; None when no date can be read from it."""
    found = find_date(text or "", now, params=params)
    return found[0] if found else None
