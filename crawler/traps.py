"""Crawler traps told by a URL's shape alone: a path segment or a query key=value pair that
recurs, as relative links on a misconfigured server (`/a/b/a/b/a/b/…`) or a form that appends
its parameters again on every submit (`?f=1&f=1&f=1…`) produce.

The rule is Internet Archive Zeno's (its `hasPathLoop`: one segment or pair recurring more
often than a limit), which generalises Heritrix's PathologicalPathDecideRule (identical
consecutive segments) to repeats that alternate.
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import urlsplit


def repeats_too_often(url: str, limit: int) -> bool:
    """True if one non-empty path segment, or one query `key=value` pair, occurs more than
    `limit` times in `url` (0: never)."""
    if not limit:
        return False
    parts = urlsplit(url)
    for pieces in (parts.path.split("/"), parts.query.split("&")):
        counts = Counter(piece for piece in pieces if piece)
        if counts and max(counts.values()) > limit:
            return True
    return False
