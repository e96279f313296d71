"""One spelling per URL, so the store's unique key and the seen-set agree."""

from __future__ import annotations

from functools import lru_cache

from w3lib.url import canonicalize_url


@lru_cache(maxsize=100_000)  # a site's nav links recur on every page; canonicalising is slow
def normalise_url(url: str) -> str:
    """Canonical form: sorted query, no fragment, percent-encoding normalised."""
    return canonicalize_url(url, keep_fragments=False)


def canonical_or_none(url: str) -> str | None:
    """`normalise_url`, or None for a link that has no canonical form (a port out of
    range, a broken IPv6 host): such a URL can never be requested, and one bad link must
    not cost the page that carries it its other links."""
    try:
        return normalise_url(url)
    except ValueError:
        return None
