"""Reader comments and forum replies: find their sections and split them into single comments.

A comment section is found three ways: markup names it (comment, reply,
respond, discuss, 评论, 回复…); a heading announces it ("3 Responses",
"Leave a reply", 网友评论) and the blocks after that heading hold it; or, unnamed,
it is a run of same-shape sibling blocks after the headline, each a short text
with a date or a "says:"/回复 cue and few links. Inside a section, comments are
the most repeated element shape (tag + class words, numbers and odd/even
alternation ignored) that carries text; a section without repeats is one
comment. Forum threads are the same shape at page scale: repeated post blocks
holding most of the page's text; the first post is the body, the others are
replies. Nothing here changes the tree.
"""

from __future__ import annotations

from pipelines.article.comments.identity import comment_anchor, comment_keys
from pipelines.article.comments.items import OpeningPost, opening_post, parse_item
from pipelines.article.comments.sections import find_sections, parse_section
from pipelines.article.comments.shapes import repeated_groups
from pipelines.article.comments.threads import find_posts

__all__ = ["OpeningPost", "comment_anchor", "comment_keys", "find_posts", "find_sections",
           "opening_post", "parse_item", "parse_section", "repeated_groups"]
