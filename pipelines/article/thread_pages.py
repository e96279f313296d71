"""The pages of a paginated forum thread: its next page, and which links are its later pages.

A thread's next page is the pager's next link (records.next_page) only where the page
numbers in the two URLs say it goes forward (`thread?page=2` after `thread`, `-3.html`
after `-2.html`): a "next thread" or "下一篇" link leads to another thread, not onward in
this one. The later pages a pager lists (3, 4, … 20) are reached one by one through next
pages, each told it belongs to the thread, so they are not followed as plain links.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipelines.document import Document
from pipelines.records.next_page import find_next_page, page_numbers


def thread_next_page(doc: Document) -> str | None:
    """The thread's next page, or None on its last page (or a page without numbered pages)."""
    if doc.url is None:
        return None
    found = find_next_page(doc.body, doc.url)
    numbers = page_numbers(doc.url, found) if found else None
    return found if numbers is not None and numbers[1] > numbers[0] else None


def later_thread_pages(page_url: str, next_page: str, links: Iterable[str]) -> set[str]:
    """The links that are later pages of the thread whose page `page_url` is and whose next
    page is `next_page`: numbered further than the next page, in the same place."""
    later = set()
    for link in links:
        onward = page_numbers(next_page, link)
        if onward is not None and onward[1] > onward[0] and page_numbers(page_url, link):
            later.add(link)
    return later
