"""SQLAlchemy 2.0 models: what the crawler stores, on SQLite (embedded) or PostgreSQL."""

from models.base import Base
from models.crawl import CrawlRun, Source
from models.health import HealthAlert
from models.page import Article, ArticleVersion, Comment, ListRecord, Page, SiteTemplate
from models.search import SearchDocument
from models.story import ArticleStory, StoryBand, StoryLine
from models.watch import Alert, Delivery, Watch

__all__ = ["Alert", "Article", "ArticleStory", "ArticleVersion", "Base", "Comment", "CrawlRun",
           "Delivery", "HealthAlert", "ListRecord", "Page", "SearchDocument", "SiteTemplate",
           "Source", "StoryBand", "StoryLine", "Watch"]
