"""One spelling per URL, so the store's unique key and the seen-set agree."""

from __future__ import annotations

from w3lib.url import canonicalize_url


def normalise_url(url: str) -> str:
    """Canonical form: sorted query, no fragment, percent-encoding normalised."""
    return canonicalize_url(url, keep_fragments=False)
