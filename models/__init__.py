"""SQLAlchemy 2.0 models: what the crawler stores, on SQLite (embedded) or PostgreSQL."""

from models.base import Base
from models.crawl import CrawlRun, Source
from models.page import Article, Comment, ListRecord, Page, SiteTemplate
from models.search import SearchDocument

__all__ = ["Article", "Base", "Comment", "CrawlRun", "ListRecord", "Page", "SearchDocument",
           "SiteTemplate", "Source"]
