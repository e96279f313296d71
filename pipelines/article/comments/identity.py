"""A comment's identity in its article, so a revisit recognises the comments it stored.

The page's own handle comes first: the comment element's id or data id (`comment-123`,
`post_456`, `data-pid="789"`) or a named anchor at its head (`<a name="pid789">`), which
stays the same when the comment moves or is edited. Without one, the identity is a hash of
its author, time and whitespace-normalised text; the same comment written twice on a page
(`+1`) is told apart by its occurrence. A handle must hold a digit: an id such as
`comments` names the section, not one comment.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import lxml.html

# Attributes that hold a comment's own handle, in order of trust.
ANCHOR_ATTRIBUTES = ("data-comment-id", "data-post-id", "data-pid", "data-cid", "data-id", "id")
_NAMED_ANCHORS = ".//a[@name]"


def comment_anchor(item: lxml.html.HtmlElement) -> str | None:
    """The comment's own handle on the page, or None when it has none."""
    for name in ANCHOR_ATTRIBUTES:
        value = (item.get(name) or "").strip()
        if any(char.isdigit() for char in value):
            return f"{name}={value}"
    named = item.find(_NAMED_ANCHORS)
    value = (named.get("name") or "").strip() if named is not None else ""
    if any(char.isdigit() for char in value):
        return f"name={value}"
    return None


def _digest(text: str) -> str:
    """A fixed-length stand-in for text of any length (a stored key has a bounded size)."""
    return hashlib.sha256(text.encode()).hexdigest()[:40]


def _content_key(comment: Mapping[str, Any]) -> str:
    text = " ".join(str(comment.get("text") or "").split()).casefold()
    return "text:" + _digest("\x1f".join((comment.get("author") or "",
                                          str(comment.get("published_at") or ""), text)))


def comment_keys(comments: Iterable[Mapping[str, Any]]) -> list[str]:
    """The identity of each comment (plain records: anchor, author, published_at, text), in
    order; unique within the list."""
    keys = []
    seen: Counter[str] = Counter()
    for comment in comments:
        anchor = comment.get("anchor")
        key = f"anchor:{_digest(anchor)}" if anchor else _content_key(comment)
        seen[key] += 1
        keys.append(key if seen[key] == 1 else f"{key}#{seen[key]}")
    return keys
