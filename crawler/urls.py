"""One spelling per URL, so the store's unique key, the seen-sets and the requests agree.

Beyond w3lib's canonical form (sorted query, no fragment, percent-encoding normalised,
lower-case scheme and host), a URL's identity drops the default port, the directory
index at the end of its path (`/a/index.html` is `/a/`) and tracking parameters
(`utm_source` …): the same article linked three ways is one page. The index names and
tracking parameters are the crawl settings `URL_DIRECTORY_INDEXES` and
`URL_TRACKING_PARAMETERS` (crawler/settings.py), overridable with `-s`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urlsplit, urlunsplit

from w3lib.url import canonicalize_url

from crawler import settings as defaults

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

_DEFAULT_PORTS = {"http": 80, "https": 443}


class UrlIdentity(NamedTuple):
    """What two spellings of one page may differ in; hashable, so normalising is cached."""

    tracking_parameters: frozenset[str]  # exact query names, lower-case
    tracking_prefixes: tuple[str, ...]  # query name prefixes (a setting entry ending in '*')
    directory_indexes: frozenset[str]  # last path segments served for their directory

    @classmethod
    def of(cls, tracking_parameters: Iterable[str],
           directory_indexes: Iterable[str]) -> UrlIdentity:
        """From setting values: names compare case-insensitively; 'utm_*' is a prefix."""
        names = [name.strip().lower() for name in tracking_parameters if name.strip()]
        return cls(frozenset(name for name in names if not name.endswith("*")),
                   tuple(name[:-1] for name in names if name.endswith("*")),
                   frozenset(name.strip().lower() for name in directory_indexes
                             if name.strip()))

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> UrlIdentity:
        """The crawl's identity, so `-s URL_TRACKING_PARAMETERS=…` reaches every URL; a
        setting that is absent (settings built without the project's) keeps its default."""
        return cls.of(settings.getlist("URL_TRACKING_PARAMETERS",
                                       defaults.URL_TRACKING_PARAMETERS),
                      settings.getlist("URL_DIRECTORY_INDEXES", defaults.URL_DIRECTORY_INDEXES))

    def is_tracking(self, name: str) -> bool:
        name = name.lower()
        return name in self.tracking_parameters or name.startswith(self.tracking_prefixes)


DEFAULT_IDENTITY = UrlIdentity.of(defaults.URL_TRACKING_PARAMETERS,
                                  defaults.URL_DIRECTORY_INDEXES)


def _without_default_port(scheme: str, netloc: str, port: int | None) -> str:
    if port is not None and _DEFAULT_PORTS.get(scheme) == port:
        return netloc.rsplit(":", 1)[0]
    return netloc


def _without_index(path: str, indexes: frozenset[str]) -> str:
    head, slash, last = path.rpartition("/")
    return head + slash if slash and last.lower() in indexes else path


@lru_cache(maxsize=100_000)  # a site's nav links recur on every page; canonicalising is slow
def normalise_url(url: str, identity: UrlIdentity = DEFAULT_IDENTITY) -> str:
    """Canonical form: sorted query without tracking parameters, no fragment, no default
    port, no directory index, percent-encoding normalised. Raises ValueError for a URL
    that has none (a port out of range)."""
    parts = urlsplit(canonicalize_url(url, keep_fragments=False))
    query = "&".join(pair for pair in parts.query.split("&")
                     if pair and not identity.is_tracking(pair.split("=", 1)[0]))
    netloc = _without_default_port(parts.scheme, parts.netloc, parts.port)
    path = _without_index(parts.path, identity.directory_indexes)
    return urlunsplit((parts.scheme, netloc, path, query, ""))


def canonical_or_none(url: str, identity: UrlIdentity = DEFAULT_IDENTITY) -> str | None:
    """`normalise_url`, or None for a link that has no canonical form (a port out of
    range, a broken IPv6 host): such a URL can never be requested, and one bad link must
    not cost the page that carries it its other links."""
    try:
        return normalise_url(url, identity)
    except ValueError:
        return None
