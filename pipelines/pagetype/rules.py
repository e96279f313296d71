"""Step 1 of SPEC S3: URL rules, each naming exactly one page type; the first match decides.

Per-site rules (from the `Source` row) come first and override the built-ins.
Built-ins are kept only when they are precise on labelled pages
(`python -m bench.pagetype` prints each rule's precision); a rule whose pattern
also fits another type's pages (e.g. `/blog/` fits both posts and blog indexes)
is left to the classifier. Order matters: pagination and archives are checked
before the article patterns they could otherwise be mistaken for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pipelines.results import PAGE_TYPES


@dataclass(frozen=True)
class SiteRule:
    """A per-site rule: a regex searched in the full URL, and the type it names."""

    pattern: str
    type: str

    def __post_init__(self) -> None:
        if self.type not in PAGE_TYPES:
            raise ValueError(f"unknown page type {self.type!r} in site rule {self.pattern!r}")
        re.compile(self.pattern)

    @classmethod
    def from_json(cls, data: str | Sequence[dict[str, Any]] | None) -> tuple[SiteRule, ...]:
        """Rules from the Source row's JSON: a list of {"pattern": …, "type": …}."""
        if not data:
            return ()
        items = json.loads(data) if isinstance(data, str) else data
        return tuple(cls(pattern=str(item["pattern"]), type=str(item["type"])) for item in items)


@dataclass(frozen=True)
class BuiltinRule:
    """A named URL rule shipped with the project."""

    name: str
    type: str
    regex: re.Pattern[str]


def _rule(name: str, page_type: str, pattern: str) -> BuiltinRule:
    return BuiltinRule(name, page_type, re.compile(pattern, re.I))


_SLUG = r"[^/?#]*[a-z0-9][^/?#]*"  # a non-empty path segment
BUILTIN_RULES: tuple[BuiltinRule, ...] = (
    # Paged listings: /page/3, ?page=2, ?paged=2, PAGEN_1=5, /Seite/3, index_2.html, list_3.html.
    _rule("pagination", "list",
          r"(/page/\d+/?$|[?&](page|paged|pn|pagen_\d+)=\d+|/seite/\d+|"
          r"/(index|list)_\d+\.s?html?$)"),
    # Forum boards: phpBB/vBulletin/Discuz (also X's mod=forumdisplay) boards, board-N-P pages,
    # Baidu Tieba bars.
    _rule("forum_board", "list",
          r"(forumdisplay|viewforum\.php|/(forum|board)-\d+-\d+\.html|tieba\.baidu\.com/f\?)"),
    # Forum threads: Discuz (thread-T-P(-L).html, mod=viewthread), phpBB, vBulletin, phpwind,
    # XenForo, Tieba, Tianya.
    _rule("forum_thread", "forum",
          r"(viewthread|/thread-\d+-\d+(-\d+)?\.html|viewtopic\.php|showthread\.php|"
          r"read\.php\?tid=|/threads/" + _SLUG + r"|tieba\.baidu\.com/p/\d+|"
          r"bbs\.[^/]+/post-[\w-]+\.shtml)"),
    # Date archives: a path that ends right after /YYYY/MM(/DD)/.
    _rule("date_archive", "list", r"^[a-z]+://[^/]+(/[\w-]+)*/(19|20)\d\d/[01]\d(/[0-3]\d)?/?$"),
    # Blog hosts with a post path (dated slug or Tumblr post id).
    _rule("blog_host_post", "blog",
          r"^[a-z]+://[^/]*(\.wordpress\.com|\.blogspot\.[a-z.]+|\.tumblr\.com)/"
          r"((19|20)\d\d/[01]\d/|post/\d+)"),
    # Chinese portal article ids: Sina doc-i…, 163 /article/ (dy), QQ /a/YYYYMMDD/, Xinhua content_.
    _rule("portal_article", "news",
          r"(/doc-i[a-z0-9]+\.s?html|163\.com/(dy/)?article/\w+\.html|qq\.com/a/\d{8}/|"
          r"/content_\d+\.s?html?)"),
    # Encyclopaedia articles are reference pages, not news, blogs or lists.
    _rule("wiki_article", "other", r"(wikipedia\.org/wiki/|baike\.baidu\.com/item/)"),
)


def match_rule(url: str | None, site_rules: Sequence[SiteRule] = ()) -> tuple[str, str] | None:
    """(type, decided_by) of the first matching rule — site rules first — or None."""
    if not url:
        return None
    for site_rule in site_rules:
        if re.search(site_rule.pattern, url):
            return site_rule.type, f"site:{site_rule.pattern}"
    for rule in BUILTIN_RULES:
        if rule.regex.search(url):
            return rule.type, f"rule:{rule.name}"
    return None
