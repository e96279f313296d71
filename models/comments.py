"""Comments merged into their article by identity: stored once, whatever number of fetches
see them.

A fetch of one page of an article (a thread's page N, or the one page of a news article)
brings that page's comments in page order. Each is matched to its stored row by its key
(pipelines.comment_keys): a known one keeps its row (its text updated and `edited_at` set
if it changed, its place updated, `gone_at` cleared if it had gone), an unknown one is
added, and a stored one last seen on that page that the fetch no longer shows is marked
gone. Nothing is deleted. Rows are read once per batch and written in bulk.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from models.page import Comment
from models.stored import to_datetime
from pipelines import comment_keys

_COMMENTS = Comment.__table__
_ROW_FIELDS = ("id", "article_id", "key", "page_number", "position", "author", "published_at",
               "text", "first_seen_at", "edited_at", "gone_at")


class CommentMerge:
    """The stored comments of some articles, updated fetch by fetch, then written at once."""

    def __init__(self, session: Session, article_ids: Iterable[int]) -> None:
        self.session = session
        self.rows: dict[int, dict[str, dict[str, Any]]] = {}
        self._dirty: set[int] = set()  # id() of changed stored rows
        wanted = sorted(set(article_ids))
        for article_id in wanted:
            self.rows[article_id] = {}
        columns = [getattr(Comment, name) for name in _ROW_FIELDS]
        for start in range(0, len(wanted), 500):
            for found in session.execute(select(*columns).where(
                    Comment.article_id.in_(wanted[start:start + 500]))):
                row = dict(zip(_ROW_FIELDS, found, strict=True))
                self.rows[row["article_id"]][row["key"]] = row

    def merge(self, article_id: int, page_number: int, comments: Sequence[dict[str, Any]],
              fetched_at: datetime) -> Counter[str]:
        """One fetch of page `page_number` of the article; counts comments new and gone."""
        stored = self.rows.setdefault(article_id, {})
        counts: Counter[str] = Counter()
        keys = comment_keys(comments)
        for position, (key, comment) in enumerate(zip(keys, comments, strict=True)):
            row = stored.get(key)
            if row is None:
                stored[key] = {"id": None, "article_id": article_id, "key": key,
                               "page_number": page_number, "position": position,
                               "author": comment.get("author"),
                               "published_at": to_datetime(comment.get("published_at")),
                               "text": comment["text"], "first_seen_at": fetched_at,
                               "edited_at": None, "gone_at": None}
                counts["new"] += 1
                continue
            changes = {"page_number": page_number, "position": position, "gone_at": None}
            if row["text"] != comment["text"]:
                changes.update(text=comment["text"], edited_at=fetched_at)
            self._update(row, changes)
        seen = set(keys)
        for key, row in stored.items():
            if row["page_number"] == page_number and key not in seen and row["gone_at"] is None:
                self._update(row, {"gone_at": fetched_at})
                counts["gone"] += 1
        return counts

    def _update(self, row: dict[str, Any], changes: dict[str, Any]) -> None:
        if any(row[name] != value for name, value in changes.items()):
            row.update(changes)
            if row["id"] is not None:
                self._dirty.add(row["id"])

    def write(self) -> None:
        """Insert the new comments and update the changed ones (two bulk statements)."""
        rows = [row for stored in self.rows.values() for row in stored.values()]
        new = [{k: v for k, v in row.items() if k != "id"} for row in rows if row["id"] is None]
        if new:
            self.session.execute(insert(_COMMENTS), new)
        changed = [{k: v for k, v in row.items() if k != "article_id"}
                   for row in rows if row["id"] in self._dirty]
        if changed:
            self.session.execute(update(Comment), changed)
