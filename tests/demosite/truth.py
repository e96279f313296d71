"""Ground-truth records: what each page shows, as data.

Detail pages get title/author/date/body/comments; list pages get their records. List
templates render these very records, so a list's truth cannot drift from its HTML.
Every record has the same keys (see `_record`); kind-specific extras live in "meta".
"""

from __future__ import annotations

from tests.demosite import formats as f
from tests.demosite.catalog import BOARD_BY_TOPIC, CHINA_TZ, Item


def _record(url: str, page_type: str, template: str, lang: str, **fields: object) -> dict:
    record: dict = {
        "url": url, "type": page_type, "template": template, "lang": lang,
        "encoding": "utf-8", "title": "", "author": "", "published": None,
        "published_raw": None, "body": "", "comments": [], "records": [], "next_page": None,
        "edition": None, "meta": {},
    }
    record.update(fields)
    return record


def detail_truth(item: Item) -> dict:
    """The truth of an article, thread or blog post page."""
    template = f.template_of(item)
    meta = dict(item.meta)
    if item.kind == "news":
        meta["section"] = item.group
    elif item.kind == "forum":
        meta["board"] = BOARD_BY_TOPIC[item.group][0]
    else:
        meta["category"] = item.group
    return _record(
        item.path, item.kind, template, f.lang_of(item),
        encoding="gbk" if template == "news-legacy" else "utf-8",
        title=item.title, author=item.author, published=f.iso(item, item.when),
        published_raw=f.shown_time(item), body="\n\n".join(item.paragraphs),
        comments=[{"author": c.author, "published": f.iso(item, c.when),
                   "published_raw": f.shown_time(item, c.when), "text": c.text}
                  for c in item.comments],
        edition=item.edition, meta=meta,
    )


def list_truth(url: str, template: str, title: str, records: list[dict], *,
               next_page: str | None = None, lang: str = "zh", encoding: str = "utf-8") -> dict:
    """The truth of a list page: its heading, records and next page."""
    return _record(url, "list", template, lang, encoding=encoding, title=title,
                   records=records, next_page=next_page)


def other_truth(url: str, title: str, texts: tuple[str, ...], **meta: object) -> dict:
    """The truth of a page that is neither a detail nor a list page."""
    return _record(url, "other", "static", "zh", title=title, body="\n\n".join(texts),
                   meta=dict(meta))


def news_record(item: Item) -> dict:
    """One row of a news section list."""
    record = {"title": item.title, "url": item.path, "date": f.list_date(item),
              "published": f.iso(item, item.when)}
    template = f.template_of(item)
    if template != "news-legacy":
        record["snippet"] = f.snippet(item)
    if template == "news-en":
        record["author"] = item.author
    return record


def portal_record(item: Item) -> dict:
    """One row of the front page's latest-news feed (China time, whatever the section)."""
    when = item.when.astimezone(CHINA_TZ)
    return {"title": item.title, "url": item.path, "date": f"{when:%Y-%m-%d %H:%M}",
            "published": when.isoformat(), "section": item.group}


def thread_record(item: Item) -> dict:
    """One row of a forum board: dated by its last post."""
    last = item.comments[-1] if item.comments else None
    when = last.when if last else item.when
    return {"title": item.title, "url": item.path, "date": f.list_date(item, when),
            "published": f.iso(item, when), "author": item.author,
            "replies": len(item.comments), "views": item.meta["views"],
            "last_author": last.author if last else item.author}


def post_record(item: Item) -> dict:
    """One entry of the blog archive."""
    return {"title": item.title, "url": item.path, "date": f.list_date(item),
            "published": f.iso(item, item.when), "snippet": f.snippet(item),
            "author": item.author, "comments": len(item.comments)}
