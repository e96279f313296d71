"""SQLAlchemy 2.0 models: what the crawler stores, on SQLite (embedded) or PostgreSQL."""

from models.base import Base
from models.crawl import CrawlRun, Source
from models.page import Article, ArticleVersion, Comment, ListRecord, Page, SiteTemplate

__all__ = ["Article", "ArticleVersion", "Base", "Comment", "CrawlRun", "ListRecord", "Page",
           "SiteTemplate", "Source"]
