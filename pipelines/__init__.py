"""The extraction package: pure functions over one parsed page, no Scrapy, no database,
no network, so it can be tested, benchmarked and reused alone.

Its front door is this module: load a page (`load_document`), decide its type
(`classify_page`), and extract it (`process_document`, or `decide_type` then `extract`
when the caller keeps its own template cache, as the crawler does). Everything else in
the package is an implementation detail. Names load on first use, so importing one of
them does not import the whole route.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "Deadline": "pipelines.deadline",
    "OutOfTimeError": "pipelines.deadline",
    "Document": "pipelines.document",
    "NotHtmlError": "pipelines.document",
    "load_document": "pipelines.document",
    "classify_page": "pipelines.pagetype",
    "is_feed": "pipelines.feeds",
    "feed_links": "pipelines.feeds",
    "SiteRule": "pipelines.pagetype.rules",
    "PageResult": "pipelines.process",
    "decide_type": "pipelines.process",
    "extract": "pipelines.process",
    "keeps_body": "pipelines.process",
    "process_document": "pipelines.process",
    "out_of_time": "pipelines.process",
    "extract_article": "pipelines.article",
    "mine_records": "pipelines.records",
    "Template": "pipelines.template_diff",
    "denoise_with_sibling": "pipelines.template_diff",
    "template_mask": "pipelines.template_diff",
    "sibling_candidates": "pipelines.siblings",
    "url_pattern": "pipelines.siblings",
    "zone_named": "pipelines.article.dates.zones",
    "result_json": "pipelines.cli",
    "ARTICLE_TYPES": "pipelines.results",
    "PAGE_TYPES": "pipelines.results",
    "ArticleData": "pipelines.results",
    "CommentData": "pipelines.results",
    "ListData": "pipelines.results",
    "PageTypeDecision": "pipelines.results",
    "RecordData": "pipelines.results",
    "comment_json": "pipelines.results",
    "comment_keys": "pipelines.article.comments",
    "later_thread_pages": "pipelines.article.thread_pages",
    "record_json": "pipelines.results",
    "dispatch": "pipelines.subcommands",
    "LogGuard": "pipelines.log_lines",
    "guard_root_logging": "pipelines.log_lines",
    "JsonLinesFormatter": "pipelines.log_lines",
    "JSON_LINES": "pipelines.log_lines",
    "LOG_CONTEXT": "pipelines.log_lines",
    "LOG_LINES": "pipelines.params",
    "LogLineParams": "pipelines.params",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Import a front-door name from its module on first use (PEP 562)."""
    if name not in _EXPORTS:
        raise AttributeError(f"module 'pipelines' has no attribute {name!r}")
    value = getattr(import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
