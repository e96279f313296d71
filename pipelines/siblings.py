"""Template diff: same-template sibling URLs, pages a site renders with one template.

`url_pattern` reduces a URL to host + path shape: fixed words stay, while ids, dates,
slugs and hashes become placeholders, and the query keeps only its sorted keys. Two
URLs with one pattern are normally rendered by one template; among the target's links
the siblings are those with its pattern, closest in ids and dates first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from os.path import commonprefix
from urllib.parse import parse_qsl, urljoin, urlsplit

from pipelines.params import SIBLINGS, SiblingParams

_EXTENSION = re.compile(r"(\.[A-Za-z][A-Za-z0-9]{0,5})$")
_DATE = re.compile(r"(19|20)\d{2}[-_]?[01]\d[-_]?[0-3]\d")
_HASH = re.compile(r"(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{8,}|[0-9a-fA-F]{16,}")
_RANDOM_CASE = re.compile(r"(?=(?:.*[A-Z]){2})(?=.*[a-z])[A-Za-z]{6,}")
_TOKEN_SPLIT = re.compile(r"([-_.,+~]+)")
_NUMBER = re.compile(r"\d+")


def _token_shape(token: str) -> str:
    if token.isdigit():
        return "{n}"
    if _HASH.fullmatch(token) or _RANDOM_CASE.fullmatch(token):
        return "{h}"
    return token.lower()


def _segment_shape(segment: str, params: SiblingParams) -> str:
    """One path segment with its variable parts replaced by placeholders."""
    match = _EXTENSION.search(segment)
    ext = match.group(1).lower() if match else ""
    stem = segment[: match.start()] if match else segment
    if _DATE.fullmatch(stem):
        return "{date}" + ext
    tokens = _TOKEN_SPLIT.split(stem)
    words = tokens[::2]
    if (len(words) >= params.slug_min_words
            and sum(w.isalpha() for w in words) >= params.slug_min_alpha_words):
        return "{slug}" + ext
    return "".join(t if i % 2 else _token_shape(t) for i, t in enumerate(tokens)) + ext


def url_pattern(url: str, params: SiblingParams = SIBLINGS) -> str:
    """Host + path shape + sorted query keys, e.g. 'example.com/news/{n}/{n}.html?id&page'."""
    parts = urlsplit(url)
    segments = [_segment_shape(s, params) for s in parts.path.split("/") if s]
    keys = sorted({key for key, _ in parse_qsl(parts.query, keep_blank_values=True)})
    query = "?" + "&".join(keys) if keys else ""
    return f"{(parts.hostname or '').lower()}/{'/'.join(segments)}{query}"


def _numbers(url: str) -> list[int]:
    parts = urlsplit(url)
    return [int(n) for n in _NUMBER.findall(parts.path + "?" + parts.query)]


def _distance(target: str, candidate: str) -> tuple[list[int], int]:
    """Closeness to the target: differences of ids/dates in order, then shared prefix."""
    diffs = [abs(a - b) for a, b in zip(_numbers(target), _numbers(candidate), strict=False)]
    return diffs, -len(commonprefix([target, candidate]))


def _without_fragment(url: str) -> str:
    return url.split("#", 1)[0]


def sibling_candidates(url: str, links: Iterable[str], limit: int | None = None,
                       identity: Callable[[str], str | None] = _without_fragment,
                       params: SiblingParams = SIBLINGS) -> list[str]:
    """Up to `limit` (default `params.max_candidates`) links with the target's URL pattern,
    closest first, each in the form `identity` gives (None: unusable); never the target
    under another spelling, since a page compared with itself would make its whole body
    look like template."""
    limit = params.max_candidates if limit is None else limit
    target = identity(url) or _without_fragment(url)
    pattern = url_pattern(target, params)
    seen = {target}
    found: list[str] = []
    for link in links:
        absolute = identity(urljoin(target, link.strip()))
        if absolute is None or absolute in seen or not absolute.startswith(("http://",
                                                                           "https://")):
            continue
        seen.add(absolute)
        if url_pattern(absolute, params) == pattern:
            found.append(absolute)
    found.sort(key=lambda link: _distance(target, link))
    return found[:limit]
