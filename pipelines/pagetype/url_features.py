"""URL features of SPEC S3: depth, host dots, a real date, type keywords and their depth score.

The URL string is the URL without its scheme and without a trailing "/" (seed 003,
claim 3); level 1 of the depth score is the host.
"""

from __future__ import annotations

import re
from datetime import date
from math import log1p
from urllib.parse import urlsplit

from pipelines.pagetype.vocab import TYPE_CLASSES, URL_KEYWORDS

# The seed's ten date shapes (YYYY-MM-DD … YYYY_MM/DD), each bounded by non-digits.
_DATE_SHAPES = tuple(
    re.compile(r"(?<!\d)(\d{4})" + shape + r"(?!\d)")
    for shape in (
        r"-(\d{2})-(\d{2})", r"(\d{2})(\d{2})", r"-(\d{2})/(\d{2})", r"-(\d{2})()",
        r"(\d{2})()", r"/(\d{2})-(\d{2})", r"/(\d{2})(\d{2})", r"/(\d{2})/(\d{2})",
        r"/(\d{2})()", r"_(\d{2})/(\d{2})",
    )
)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)
MIN_YEAR, MAX_YEAR = 1990, 2099  # product ids like 1234-56 are not dates
# A last path segment that names a directory page rather than one item.
_INDEX_LEAF = re.compile(r"^((index|default|list|home|main)([_-]?\d{1,3})?(\.\w+)?)?$")
_DIGIT_RUN = re.compile(r"\d+")
_WORD = re.compile(r"[a-z]{2,}")


def url_string(url: str) -> str:
    """The seed's URL string: lower-cased, scheme and trailing "/" removed."""
    return _SCHEME.sub("", url.strip().lower()).rstrip("/")


def is_real_date(year: str, month: str, day: str) -> bool:
    """True when the parts name a real calendar day (day may be empty: month precision)."""
    y, m, d = int(year), int(month), int(day or 1)
    if not MIN_YEAR <= y <= MAX_YEAR:
        return False
    try:
        date(y, m, d)
    except ValueError:
        return False
    return True


def has_valid_date(text: str) -> bool:
    """True when any of the seed's date shapes in `text` is a real date."""
    return any(
        is_real_date(*match.groups())
        for shape in _DATE_SHAPES
        for match in shape.finditer(text)
    )


def keyword_score(levels: list[str], keywords: tuple[str, ...]) -> float:
    """Depth-weighted keyword score: level j of D weighs 2j / (D(D+1)), so weights sum to 1.

    The seed's formula is garbled in the source text; deeper levels weighing more
    matches its intent that a keyword's position matters (the leaf names the page).
    """
    depth = len(levels)
    norm = depth * (depth + 1) / 2
    return float(sum(j / norm for j, level in enumerate(levels, 1)
                     if any(k in level for k in keywords)))


def leaf_features(url: str) -> dict[str, float]:
    """Shape of the path: directory-like leaf, id digits and slug words in the leaf, digit share.

    Item pages end in an id or a slug; section indexes end in "/" or index.html.
    Only the path and query count: host digits (an IP address) name the site, not the page.
    """
    parts = urlsplit(url.strip().lower())
    leaf = parts.path.rsplit("/", 1)[-1]
    stem = leaf.rsplit(".", 1)[0]
    local = parts.path.rstrip("/") + parts.query
    return {
        "url_index_leaf": float(bool(_INDEX_LEAF.match(leaf))),
        "url_leaf_digits": log1p(max(map(len, _DIGIT_RUN.findall(stem)), default=0)),
        "url_leaf_words": log1p(len(_WORD.findall(stem))),
        "url_digit_share": sum(c.isdigit() for c in local) / max(len(local), 1),
    }


def url_features(url: str | None) -> dict[str, float]:
    """All URL features of one page; none without a URL (the model then reads "no evidence")."""
    if not url:
        return {}
    text = url_string(url)
    levels = text.split("/")
    host = levels[0]
    features = {
        "url_depth": float(text.count("/") + 1),
        "url_host_dots": float(host.count(".")),
        "url_has_date": float(has_valid_date(text)),
        "url_has_query": float("?" in text),
    } | leaf_features(url)
    for kind in TYPE_CLASSES:
        words = URL_KEYWORDS[kind]
        features[f"url_kw_{kind}"] = float(sum(text.count(k) for k in words))
        features[f"url_kwscore_{kind}"] = keyword_score(levels, words)
    return features
