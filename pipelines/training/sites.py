"""Which site a training page belongs to, so that grouped cross-validation never puts one
site on both sides.

A page with a URL belongs to its host (`site_of`). A page without one
is placed by the sites its HTML names: the registrable domain of its `<link rel=canonical>` or
`og:url`, and of any host holding a good share of its absolute links (hubs left out). Pages
naming a common domain are one group (`connected`), so a site whose pages name it in
different ways is not split. Groups only decide which pages are held out together (in the
benchmark's folds and the temperature's out-of-fold fit): every page is trained on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from urllib.parse import urlsplit

import tldextract

from pipelines.document import Document
from pipelines.lexicon import BLOG_PLATFORMS, HUB_DOMAINS
from pipelines.params import PAGE_TYPE_TRAINING, PageTypeTrainingParams

# The public suffix list shipped with tldextract: no download, the same answer on every run.
_DOMAINS = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None,
                                 include_psl_private_domains=True,
                                 extra_suffixes=BLOG_PLATFORMS)
_ARCHIVE = "web.archive.org"  # an archived page belongs to the site it archives
_DECLARED = "//link[@rel='canonical']/@href | //meta[@property='og:url']/@content"


def site_of(url: str | None) -> str | None:
    """The host of a URL without "www.", the archived site's for a web.archive.org copy;
    None when it has none or does not parse."""
    try:
        parts = urlsplit(url or "")
        host = (parts.hostname or "").removeprefix("www.")
    except ValueError:  # "http://[bad" and the like in hand-written hrefs
        return None
    if host == _ARCHIVE and "://" in parts.path:
        return site_of(parts.path.split("/", 3)[-1])
    return host or None


def registrable(host: str) -> str:
    """The registrable domain of a host ("news.bbc.co.uk" → "bbc.co.uk", a blog platform's
    subdomain kept whole), "" for a string under no public suffix."""
    return _DOMAINS(host).top_domain_under_public_suffix


def site_keys(group: str) -> set[str]:
    """The registrable domains a group name holds (space-separated hosts or domains); a name
    that holds none is its own key."""
    return {registrable(part) or part for part in group.split()}


def page_sites(doc: Document,
               params: PageTypeTrainingParams = PAGE_TYPE_TRAINING) -> set[str]:
    """The domains a page without URL names as its own (see the module docstring)."""
    declared = {registrable(site_of(url) or "") for url in doc.tree.xpath(_DECLARED)}
    links = Counter(registrable(site_of(href) or "") for href in doc.tree.xpath("//a/@href"))
    linked = {d: n for d, n in links.items() if d and d not in HUB_DOMAINS}
    total = sum(linked.values())
    return (declared | {d for d, n in linked.items() if n >= params.link_site_share * total}) - {""}


def connected(keys: Sequence[set[str]]) -> list[int]:
    """Per item, the index of the first item of its connected component, items being
    connected when they share a key."""
    parent = list(range(len(keys)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i] = parent[parent[i]]
        return i

    first: dict[str, int] = {}
    for i, item_keys in enumerate(keys):
        for key in item_keys:
            low, high = sorted((root(i), root(first.setdefault(key, i))))
            parent[high] = low
    return [root(i) for i in range(len(keys))]


def inferred_groups(docs: Sequence[Document],
                    params: PageTypeTrainingParams = PAGE_TYPE_TRAINING) -> list[str | None]:
    """Site groups of pages without URL: pages connected by a common domain of `page_sites`
    form one group, named by all its domains; None for a page that names none."""
    sites = [page_sites(doc, params) for doc in docs]
    component = connected(sites)
    domains: dict[int, set[str]] = {}
    for c, page in zip(component, sites, strict=True):
        domains.setdefault(c, set()).update(page)
    return [" ".join(sorted(domains[c])) or None for c in component]
