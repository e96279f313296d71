"""One spelling per URL, so the store's unique key and the seen-set agree."""

from __future__ import annotations

from functools import lru_cache

from w3lib.url import canonicalize_url


@lru_cache(maxsize=100_000)  # a site's nav links recur on every page; canonicalising is slow
def normalise_url(url: str) -> str:
    """Canonical form: sorted query, no fragment, percent-encoding normalised."""
    return canonicalize_url(url, keep_fragments=False)
