"""The search index the store keeps beside what it writes: one row per searchable thing
(an article, a comment, a list record) with its text as index terms. The reading layer
(`reading/`) queries it; the store (`models.store.save_pages`) keeps it current."""

from models.search.document import SearchDocument
from models.search.index import filed_moments, reindex_pages

__all__ = ["SearchDocument", "filed_moments", "reindex_pages"]
