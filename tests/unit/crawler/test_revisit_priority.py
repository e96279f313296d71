"""A run's due revisits are fetched after its new articles and before plain links: behind a
burst of revisits a new article waited for all of them (docs/BENCHMARKS.md, "Freshness")."""

from __future__ import annotations

from crawler.discovery import PRIORITY_ENTRY_SPAN, entry_priority
from crawler.revisits import REVISIT
from crawler.spiders.site import PRIORITY_LINK, PRIORITY_RECORD, PRIORITY_START, start_priority


def test_revisits_come_after_new_articles_and_before_links() -> None:
    revisit = start_priority({REVISIT: {"etag": None, "last_modified": None, "body_hash": "x"}})
    assert start_priority({"run_id": 1}) == PRIORITY_START
    assert PRIORITY_LINK < revisit < min(PRIORITY_RECORD, entry_priority(PRIORITY_ENTRY_SPAN))
