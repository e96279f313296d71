"""Calendar days as pages write them: pipelines.dates, plus the Western numeric and German
shapes it does not read (19.10.2019, 10/19/2019, 19. Oktober 2019).

Used both as a sign feature and to find the ground-truth day among the blocks.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from pipelines.dates import find_date

_NUMERIC_DAY = re.compile(r"(?<![\d.])(\d{1,2})([./])(\d{1,2})\2((?:19|20)\d{2})(?!\d)")
_GERMAN_MONTHS = ("januar", "februar", "märz", "april", "mai", "juni", "juli", "august",
                  "september", "oktober", "november", "dezember")
_GERMAN_DAY = re.compile(
    r"(?<!\d)(\d{1,2})\.\s*(" + "|".join(_GERMAN_MONTHS) + r"|jänner)\s+((?:19|20)\d{2})", re.I)


def _numeric_day(text: str) -> tuple[date, str] | None:
    for match in _NUMERIC_DAY.finditer(text):
        first, separator, second, year = match.groups()
        day, month = int(first), int(second)
        if separator == "/" and day <= 12:
            day, month = month, day  # 10/19/2019: slashes are read month first
        try:
            return date(int(year), month, day), match.group(0)
        except ValueError:
            continue
    return None


def find_day(text: str, now: datetime | None = None) -> tuple[date, str] | None:
    """The first calendar day written in `text`, with the substring it was read from."""
    found = find_date(text, now)
    if found:
        return found[0].date(), found[1]
    match = _GERMAN_DAY.search(text)
    if match:
        month = 1 if match[2].lower() == "jänner" else _GERMAN_MONTHS.index(match[2].lower()) + 1
        try:
            return date(int(match[3]), month, int(match[1])), match.group(0)
        except ValueError:
            pass
    return _numeric_day(text)
