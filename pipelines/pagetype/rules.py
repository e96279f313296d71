"""Page-type classification, step 1: URL rules, each naming exactly one page type; the first
match decides.

Per-site rules (from the `Source` row) come first and override the built-ins.
Built-ins are kept only when they are precise on labelled pages
(`python -m bench.pagetype` prints each rule's precision); a rule whose pattern
also fits another type's pages (e.g. `/blog/` fits both posts and blog indexes)
is left to the classifier. Order matters: forum threads are checked before pagination
(a thread's later page is the thread), pagination and archives before the article
patterns they could otherwise be mistaken for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pipelines.results import PAGE_TYPES

# What a Source's `page_type_rules` may hold, said in every refusal.
SITE_RULES_ACCEPTED = ('a JSON array of {"pattern": REGEX searched in the URL, "type": '
                       + " | ".join(PAGE_TYPES) + "} objects, one such object, "
                       "or either as a JSON string")


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
    def from_json(cls, data: str | Sequence[Any] | dict[str, Any] | None) -> tuple[SiteRule, ...]:
        """Rules from the Source row's JSON in any form it is stored in (an array of
        {"pattern", "type"} objects, one object, either double-encoded as a JSON string);
        ValueError naming the first malformed rule and the accepted forms, so a source is
        refused once, when loaded, rather than failing every page."""
        try:
            items = json.loads(data) if isinstance(data, str) and data.strip() else data
        except json.JSONDecodeError as error:
            raise ValueError(f"page_type_rules {data!r}: not JSON ({error}); "
                             f"accepted: {SITE_RULES_ACCEPTED}") from error
        if isinstance(items, str):  # a JSON string holding the JSON: double-encoded
            return cls.from_json(items)
        if not items:
            return ()
        if isinstance(items, dict):
            items = [items]
        if not isinstance(items, list):
            raise ValueError(f"page_type_rules {json.dumps(items)}: not a rule list; "
                             f"accepted: {SITE_RULES_ACCEPTED}")
        return tuple(cls._from_item(at, item) for at, item in enumerate(items))

    @classmethod
    def _from_item(cls, at: int, item: Any) -> SiteRule:
        """One rule of the list; ValueError naming it (by position and content) if malformed."""
        try:
            if not isinstance(item, dict) or set(item) != {"pattern", "type"}:
                raise ValueError('a rule is an object with exactly "pattern" and "type"')
            if not isinstance(item["pattern"], str) or not isinstance(item["type"], str):
                raise ValueError("pattern and type are strings")
            return cls(pattern=item["pattern"], type=item["type"])
        except (ValueError, re.error) as error:
            reason = f"bad regex ({error})" if isinstance(error, re.error) else str(error)
            raise ValueError(f"page_type_rules[{at}] {json.dumps(item, ensure_ascii=False)}: "
                             f"{reason}; accepted: {SITE_RULES_ACCEPTED}") from error


@dataclass(frozen=True)
class BuiltinRule:
    """A named URL rule shipped with the project; `unless` names URLs it leaves alone."""

    name: str
    type: str
    regex: re.Pattern[str]
    unless: Callable[[str], bool] | None = None

    def matches(self, url: str) -> bool:
        return self.regex.search(url) is not None and not (self.unless and self.unless(url))


def _rule(name: str, page_type: str, pattern: str,
          unless: Callable[[str], bool] | None = None) -> BuiltinRule:
    return BuiltinRule(name, page_type, re.compile(pattern, re.I), unless)


# A path segment of a listing (a section, a taxonomy, a board, search): its URL names no item.
_LISTING_SEGMENT = re.compile(r"/(?:tags?|categor(?:y|ies)|labels?|authors?|archives?|search|"
                              r"forums?|boards?|lists?|index|sections?|channels?)(?=[/._-]|$)",
                              re.I)
# What names one item in a URL: a query parameter holding a post's, thread's or article's id
# (WordPress ?p=123, phpBB ?t=5), an item segment followed by an id or a slug
# (/p/123, /post/a-slug, /questions/42/…), or a leaf that is an id of five digits or more or a
# slug of three words or more (/2023/05/88231.html, /blog/my-first-post).
_ITEM_QUERY = re.compile(r"[?&](?:p|t|tid|pid|aid|postid|threadid|topicid|articleid|showtopic)"
                         r"=\d+(?:&|#|$)", re.I)
_ITEM_SEGMENT = re.compile(r"/(?:p|posts?|articles?|stor(?:y|ies)|threads?|topics?|t|questions?|"
                           r"items?|view|show|details?|entry|entries)/"
                           r"[^/]*(?:\d{2,}|[a-z0-9]+[-_][a-z0-9]+)", re.I)
_ITEM_LEAF = re.compile(r"/(?:[^/]*\d{5,}[^/]*|[^/.]*[a-z0-9]+(?:[-_][a-z0-9]+){2,}[^/]*)/?$", re.I)
# A view script that a query id names the item of (`news_view.html?idx=8576`,
# `articleView.html?idxno=12`, `read.php?no=7`, `board_view.asp?seq=3`): a script named for
# showing one record, and a parameter named for a record's id or number holding digits. Such
# CMSs (many Korean and Japanese news and board sites) carry the list's `&page=N` into every
# article link, so the article's URL reads as a list's page.
_VIEW_LEAF = re.compile(r"(?:view|read|detail|show)[^/]*$", re.I)
# The id's parameter names no page (pageno, pagenum) and no category (catid, cat_no).
_ID_QUERY = re.compile(r"[?&](?![a-z_]*(?:page|pg|cat))[a-z_]*(?:id|idx|no|num|seq|srl)[a-z_]*"
                       r"=\d+(?:&|#|$)", re.I)


def names_one_item(url: str) -> bool:
    """Whether the URL is an item view (a forum thread, a post, an article: a URL that names
    one item, see _ITEM_QUERY, _ITEM_SEGMENT, _ITEM_LEAF, or a view script with a record's
    id in its query, see _VIEW_LEAF and _ID_QUERY). Under a listing segment only what
    follows the listing's own name counts (/category/a-slug names a category, /forum/topic/
    a-slug a thread). Its `?page=N` pages the item (a thread's replies, a long article), not a
    list."""
    path, _, query = url.partition("?")
    if _ITEM_QUERY.search("?" + query):
        return True
    path = re.sub(r"^[a-z][a-z0-9+.-]*://[^/]*", "", path, flags=re.I)
    if _VIEW_LEAF.search(path.rsplit("/", 1)[-1]) and _ID_QUERY.search("?" + query):
        return True
    listings = list(_LISTING_SEGMENT.finditer(path))
    if listings:  # what follows the last listing segment
        path = path[listings[-1].end():]
        if _ITEM_SEGMENT.search(path):
            return True
        path = re.sub(r"^[/._-]?[^/]*", "", path, count=1)  # the listing's own name
    return bool(_ITEM_SEGMENT.search(path) or _ITEM_LEAF.search(path))


# A page number in the path (/page/3, /Seite/3, index_2.html) or a listing's own query
# parameter (?paged=2, PAGEN_1=5): a list's page whatever the URL names.
_PATH_PAGER = re.compile(r"(/page/\d+/?$|[?&](paged|pagen_\d+)=\d+|/seite/\d+|"
                         r"/(index|list)_\d+\.s?html?$)", re.I)
# A page number in the query (?page=2, &pn=3): an item view's is the item's next page.
_QUERY_PAGE = re.compile(r"[?&](?:page|pn)=\d+", re.I)


def _query_paged_item(url: str) -> bool:
    """The URL is paged by its query alone (no path pager) and names one item (see
    names_one_item): a thread's or a post's later page, left to the classifier."""
    return bool(_QUERY_PAGE.search(url)) and _PATH_PAGER.search(url) is None and names_one_item(url)


_SLUG = r"[^/?#]*[a-z0-9][^/?#]*"  # a non-empty path segment
BUILTIN_RULES: tuple[BuiltinRule, ...] = (
    # Forum threads: Discuz (thread-T-P(-L).html, mod=viewthread), phpBB, vBulletin, phpwind,
    # XenForo, Tieba, Tianya; before pagination, as a thread's later page (`&page=2`) is the
    # thread's.
    _rule("forum_thread", "forum",
          r"(viewthread|/thread-\d+-\d+(-\d+)?\.html|viewtopic\.php|showthread\.php|"
          r"read\.php\?tid=|/threads/" + _SLUG + r"|tieba\.baidu\.com/p/\d+|"
          r"bbs\.[^/]+/post-[\w-]+\.shtml|"
          # Invision (/topic/123-slug/) and SMF archives (/topics/123-slug.html): an id, then
          # a slug; a news site's topic hub (/topics/climate) has no id.
          r"/topics?/\d+-" + _SLUG + ")"),
    # Paged listings: /page/3, ?page=2, ?paged=2, PAGEN_1=5, /Seite/3, index_2.html, list_3.html;
    # not `?page=N` on a URL that names one item (a thread, a post: see names_one_item).
    _rule("pagination", "list",
          r"(/page/\d+/?$|[?&](page|paged|pn|pagen_\d+)=\d+|/seite/\d+|"
          r"/(index|list)_\d+\.s?html?$)", _query_paged_item),
    # Forum boards: phpBB/vBulletin/Discuz (also X's mod=forumdisplay) boards, board-N-P pages,
    # Baidu Tieba bars, Invision forums and SMF archives' boards (/forum/12-slug/,
    # /boards/12-slug.html: an id, then a slug, as their topics).
    _rule("forum_board", "list",
          r"(forumdisplay|viewforum\.php|/(forum|board)-\d+-\d+\.html|tieba\.baidu\.com/f\?|"
          r"/(?:forums?|boards?)/\d+-" + _SLUG + ")"),
    # Date archives: a path that ends right after /YYYY/, /YYYY/MM/ or /YYYY/MM/DD/ (or names
    # that page YYYY.html, YYYY/MM.html …), under segments that are no numbers (a post
    # /2013/03/11/2012/ is none). Each segment is read once, atomically: the segment pattern
    # that placed its letter anywhere backtracked catastrophically over long hyphenated slugs.
    _rule("date_archive", "list",
          r"^[a-z]+://[^/]+(?>/(?=[\w-]*[a-z_-])[\w-]*)*/(19|20)\d\d(/[01]\d(/[0-3]\d)?)?"
          r"(/|\.s?html?)?$"),
    # Taxonomy archives of blog and news themes (Hexo, Hugo, Jekyll, WordPress, Pelican): the
    # posts of one tag, category, label or author, however few (a tag of one post is still its
    # list). A tag's later pages: `/category/x2.html` here, `/tag/x/page/2/` under pagination.
    _rule("taxonomy_archive", "list",
          r"^[a-z]+://[^/]+(?:/[^/?#]+)*/(?:tags?|categor(?:y|ies)|labels?|authors?)/[^/?#]+?"
          r"(?:/|\d*\.s?html?)$"),
    # The index of all tags, categories, series or authors (`/tags/`, `/all-categories/`,
    # `/authors.html`): a cloud or directory of names that link to those archives, no list
    # of posts; with no slug after the segment. (`/archives/` lists the posts: not here.)
    _rule("taxonomy_index", "other",
          r"^[a-z]+://[^/]+(?:/[^/?#]+)*/(?:all-)?(?:tags?|categor(?:y|ies)|labels?|authors?|"
          r"series)(?:/|\.s?html?)?$"),
    # Blog hosts with a post path (dated slug or Tumblr post id).
    _rule("blog_host_post", "blog",
          r"^[a-z]+://[^/]*(\.wordpress\.com|\.blogspot\.[a-z.]+|\.tumblr\.com)/"
          r"((19|20)\d\d/[01]\d/|post/\d+)"),
    # Chinese portal article ids: Sina doc-i…, 163 /article/ (dy), QQ /a/YYYYMMDD/, Xinhua content_.
    _rule("portal_article", "news",
          r"(/doc-i[a-z0-9]+\.s?html|163\.com/(dy/)?article/\w+\.html|qq\.com/a/\d{8}/|"
          r"/content_\d+\.s?html?)"),
    # Encyclopaedia and wiki pages (MediaWiki's /wiki/Page, a site's /wiki/ section) are
    # reference pages, not news, blogs or lists.
    _rule("wiki_article", "other", r"(/wiki/[^?#]|baike\.baidu\.com/item/)"),
)


def match_rule(url: str | None, site_rules: Sequence[SiteRule] = ()) -> tuple[str, str] | None:
    """(type, decided_by) of the first matching rule — site rules first — or None."""
    if not url:
        return None
    for site_rule in site_rules:
        if re.search(site_rule.pattern, url):
            return site_rule.type, f"site:{site_rule.pattern}"
    for rule in BUILTIN_RULES:
        if rule.matches(url):
            return rule.type, f"rule:{rule.name}"
    return None
