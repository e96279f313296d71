"""Record mining on list pages: similar sibling subtrees become records.

annotate (tree_stats) → candidate sets (regions, via tree_match) → main set (choose)
→ template and fields (template, fields); next_page finds the pager link.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from pipelines.article.dates.zones import local_now, localise, page_zone
from pipelines.bounds import RECORDS
from pipelines.deadline import NO_DEADLINE, Deadline
from pipelines.document import Document, join_url
from pipelines.language import detect_language
from pipelines.params import RECORD_MINING, RecordMiningParams
from pipelines.records.choose import choose_region
from pipelines.records.fields import extract_fields
from pipelines.records.next_page import find_next_page
from pipelines.records.regions import find_regions
from pipelines.records.tree_stats import annotate
from pipelines.results import ListData

__all__ = ["mine_records"]


def _base_url(doc: Document) -> str | None:
    """The URL relative links resolve against: <base href> over the fetched URL."""
    base = doc.tree.find(".//base[@href]")
    if base is not None:
        return join_url(doc.url or "", base.get("href", "").strip()) or doc.url
    return doc.url


def _zone(doc: Document) -> ZoneInfo | None:
    """The page's time zone: the crawl's for its site, else from its country domain or
    language (the declared one, else the script of its <title>: a list page's text is
    mostly other pages' titles)."""
    language = doc.tree.get("lang") or detect_language(doc.tree.findtext(".//title") or "")
    return page_zone(doc.url, language, doc.zone)


def mine_records(doc: Document, params: RecordMiningParams = RECORD_MINING,
                 deadline: Deadline = NO_DEADLINE) -> ListData:
    """The main list's records (title, URL, date, snippet, extras), its first
    `doc.bounds.max_records`, and the next-page link; dates on the page's clock, as
    articles' are. Raises OutOfTimeError when the deadline passes, checked between stages."""
    body = doc.body
    base = _base_url(doc)
    stats = annotate(body)
    deadline.check("record tree")
    regions = find_regions(body, stats, params, deadline, doc.bounds.max_records)
    region = choose_region(regions, stats, params, body)
    deadline.check("record regions")
    zone = _zone(doc)
    now = local_now(doc.fetched_at, zone)
    if region and len(region.records) > doc.bounds.max_records:
        doc.capped.add(RECORDS)
        region.records = region.records[:doc.bounds.max_records]
    records = extract_fields(region.records, base, now, params) if region else []
    deadline.check("record fields")
    for record in records:
        record.date = localise(record.date, zone)
    tops = [el for record in region.records for el in record] if region else []
    return ListData(records=records, next_page=find_next_page(doc.tree, base, params, tops))
