"""The pages of a paginated forum thread: its next page, and which links are its later pages.

A thread's next page is the pager's next link (records.next_page) only where the page
numbers in the two URLs say it goes forward (`thread?page=2` after `thread`, `-3.html`
after `-2.html`): a "next thread" or "下一篇" link leads to another thread, not onward in
this one. The later pages a pager lists (3, 4, … 20) are reached one by one through next
pages, each told it belongs to the thread, so they are not followed as plain links.

A later page of a thread (its pager links back to page 1, or marks the page before it as
the previous page) holds replies only: its first post is a reply, not the thread's opening
post, and the page names the thread's first page it belongs to.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipelines.document import Document
from pipelines.records.next_page import earlier_pages, find_next_page, page_numbers


def thread_next_page(doc: Document) -> str | None:
    """The thread's next page, or None on its last page (or a page without numbered pages)."""
    if doc.url is None:
        return None
    found = find_next_page(doc.body, doc.url)
    numbers = page_numbers(doc.url, found) if found else None
    return found if numbers is not None and numbers[1] > numbers[0] else None


def thread_first_page(doc: Document) -> tuple[str, int] | None:
    """(the thread's first page, this page's number) on a later page of a numbered thread;
    None on a first page. The first page is the earliest the pager links to (the page before
    this one where the pager shows only that); this page's number is one more than the
    highest number of an earlier page's link (offset pagers write `start=10` for page 2),
    else the number in its URL."""
    if doc.url is None:
        return None
    earlier = earlier_pages(doc.body, doc.url)
    if not earlier:
        return None
    first = min(earlier, key=lambda found: found[1])[0]
    labels = [label for _, _, label in earlier if label is not None]
    if labels:
        return first, max(labels) + 1
    numbers = page_numbers(first, doc.url)
    return first, numbers[1] if numbers else 2


def later_thread_pages(page_url: str, next_page: str, links: Iterable[str]) -> set[str]:
    """The links that are later pages of the thread whose page `page_url` is and whose next
    page is `next_page`: numbered further than the next page, in the same place."""
    later = set()
    for link in links:
        onward = page_numbers(next_page, link)
        if onward is not None and onward[1] > onward[0] and page_numbers(page_url, link):
            later.add(link)
    return later
