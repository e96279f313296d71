"""URL features of page-type classification: depth, host dots, a real date, type keywords and
their depth score.

The URL string is the URL without its scheme and without a trailing "/"; level 1 of the
depth score is the host.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import date
from math import log1p
from urllib.parse import urlsplit

from pipelines.lexicon import OTHER_URL_SEGMENTS, TYPE_CLASSES, URL_KEYWORDS
from pipelines.params import PAGE_FEATURES, PageFeatureParams

# The method's ten date shapes (YYYY-MM-DD … YYYY_MM/DD), each bounded by non-digits, and
# YYYY_MM_DD (Chinese portals, e.g. guancha.cn's 2019_09_07_516923.shtml; see
# docs/DECISIONS.md, "URL date shapes").
_DATE_SHAPES = tuple(
    re.compile(r"(?<!\d)(\d{4})" + shape + r"(?!\d)")
    for shape in (
        r"-(\d{2})-(\d{2})", r"(\d{2})(\d{2})", r"-(\d{2})/(\d{2})", r"-(\d{2})()",
        r"(\d{2})()", r"/(\d{2})-(\d{2})", r"/(\d{2})(\d{2})", r"/(\d{2})/(\d{2})",
        r"/(\d{2})()", r"_(\d{2})/(\d{2})", r"_(\d{2})_(\d{2})",
    )
)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d")  # how such a year starts in ASCII digits
# A last path segment that names a directory page rather than one item.
_INDEX_LEAF = re.compile(r"^((index|default|list|home|main)([_-]?\d{1,3})?(\.\w+)?)?$")
_DIGIT_RUN = re.compile(r"\d+")
_WORD = re.compile(r"[a-z]{2,}")
_OTHER_SEGMENT = re.compile(r"/(?:" + "|".join(OTHER_URL_SEGMENTS) + r")(?:[-_.][^/]*)?(?=/|$)")


def url_string(url: str) -> str:
    """The URL string: lower-cased, scheme and trailing "/" removed."""
    return _SCHEME.sub("", url.strip().lower()).rstrip("/")


def is_real_date(year: str, month: str, day: str,
                 params: PageFeatureParams = PAGE_FEATURES) -> bool:
    """True when the parts name a real calendar day (day may be empty: month precision)."""
    y, m, d = int(year), int(month), int(day or 1)
    if not params.min_url_year <= y <= params.max_url_year:
        return False
    try:
        date(y, m, d)
    except ValueError:
        return False
    return True


def has_valid_date(text: str, params: PageFeatureParams = PAGE_FEATURES) -> bool:
    """True when any of the date shapes in `text` is a real date.

    Every shape starts with a year, which must be 19xx or 20xx and follow no digit: an
    ASCII URL without one skips the eleven shape scans (most URLs). Other URLs may spell a
    year in other digits ("２０１９"), which the shapes and int() accept.
    """
    if text.isascii() and not _YEAR.search(text):
        return False
    return any(
        is_real_date(*match.groups(), params)
        for shape in _DATE_SHAPES
        for match in shape.finditer(text)
    )


def keyword_score(levels: list[str], keywords: tuple[str, ...]) -> float:
    """Depth-weighted keyword score: level j of D weighs 2j / (D(D+1)), so weights sum to 1.

    The method's formula is garbled in its description; deeper levels weighing more
    matches its intent that a keyword's position matters (the leaf names the page).
    """
    depth = len(levels)
    norm = depth * (depth + 1) / 2
    return float(sum(j / norm for j, level in enumerate(levels, 1)
                     if any(k in level for k in keywords)))


LEAF_FEATURES = frozenset(("url_index_leaf", "url_leaf_digits", "url_leaf_words",
                           "url_digit_share", "url_last_words", "url_last_digits"))


def leaf_features(url: str) -> dict[str, float]:
    """Shape of the path: directory-like leaf, id digits and slug words in the leaf and in the
    last named segment, digit share.

    Item pages end in an id or a slug; section indexes end in "/" or index.html.
    Only the path and query count: host digits (an IP address) name the site, not the page.
    """
    parts = urlsplit(url.strip().lower())
    leaf = parts.path.rsplit("/", 1)[-1]
    stem = leaf.rsplit(".", 1)[0]
    local = parts.path.rstrip("/") + parts.query
    # The last named segment, also of a path that ends in "/" (a post /2013/05/a-slug/, a
    # tag page /tags/nginx/, a page of posts /posts/9/), whose leaf is empty.
    last = parts.path.rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return {
        "url_last_words": log1p(len(_WORD.findall(last))),
        "url_last_digits": log1p(max(map(len, _DIGIT_RUN.findall(last)), default=0)),
        "url_index_leaf": float(bool(_INDEX_LEAF.match(leaf))),
        "url_leaf_digits": log1p(max(map(len, _DIGIT_RUN.findall(stem)), default=0)),
        "url_leaf_words": log1p(len(_WORD.findall(stem))),
        "url_digit_share": sum(c.isdigit() for c in local) / max(len(local), 1),
    }


def url_features(url: str | None, names: Collection[str] | None = None,
                 params: PageFeatureParams = PAGE_FEATURES) -> dict[str, float]:
    """URL features of one page (all, or at least `names`); none without a URL (the model
    then reads "no evidence"). The date shapes, leaf shape and keyword scores are only
    computed when asked for: together they cost about as much as a page's tag counts."""
    if not url:
        return {}

    def want(name: str) -> bool:
        return names is None or name in names

    text = url_string(url)
    levels = text.split("/")
    features = {
        "url_depth": float(text.count("/") + 1),
        "url_host_dots": float(levels[0].count(".")),
        "url_has_query": float("?" in text),
    }
    if want("url_has_date"):
        features["url_has_date"] = float(has_valid_date(text, params))
    if names is None or not LEAF_FEATURES.isdisjoint(names):
        features |= leaf_features(url)
    if want("url_kw_other"):  # path segments of reference pages (OTHER_URL_SEGMENTS)
        path = text.partition("/")[2]
        features["url_kw_other"] = float(len(_OTHER_SEGMENT.findall("/" + path))) if path else 0.0
    for kind in TYPE_CLASSES:
        words = URL_KEYWORDS[kind]
        if want(f"url_kw_{kind}"):
            features[f"url_kw_{kind}"] = float(sum(text.count(k) for k in words))
        if want(f"url_kwscore_{kind}"):
            features[f"url_kwscore_{kind}"] = keyword_score(levels, words)
    return features
