"""The index rows PostgreSQL's store inserts by joining the terms to the stored things
(`_insert_joined`) are the rows read whole and built in Python (`_rows`, SQLite's way):
the same columns, and a vector of the same terms; and array literals (`pg_array`) read
back as the values they were made of."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select, text
from sqlalchemy.orm import Session, sessionmaker

from models.bulk import pg_array
from models.db import get_engine
from models.page import Page
from models.search import SearchDocument
from models.search.index import _COLUMNS, _rows, reindex_pages, vector_sql
from models.store import save_pages
from tests.factories import article_page, list_page

# Everything an index row's columns come from, on each kind: a published and an undated
# comment, a gone one (a rewrite drops it), an undated article, records with and without
# dates, quotes and backslashes in the texts.
_PAGES = [
    article_page("http://news.example.cn/a1", body='疫情 "防控" \\ 進展。',
                 comments=("疫情何时结束？", 'a "quoted" \\ comment', "被删除的评论")),
    article_page("https://WWW.Example.com:8443/a2?x=1", body="Climate change, ＣＯＶＩＤ.",
                 comments=()),
    list_page("http://news.example.cn/list", ("http://news.example.cn/a1",
                                              "https://www.example.com/a2")),
]


def _stored(session: Session) -> list[int]:
    pages = [dict(page) for page in _PAGES]
    pages[1]["article"] = {**pages[1]["article"], "published_at": None, "language": None}
    save_pages(session, pages)
    rewritten = article_page("http://news.example.cn/a1", body="疫情防控进展。",
                             comments=("疫情何时结束？", 'a "quoted" \\ comment'))
    rewritten["content_hash"] = "changed"
    save_pages(session, [rewritten])  # the third comment is gone now
    session.commit()
    return list(session.scalars(select(Page.id)))


def test_joined_rows_are_the_rows_built_in_python(pg_url: str) -> None:
    with sessionmaker(get_engine(pg_url))() as session:
        ids = _stored(session)
        built = sorted(_rows(session, ids), key=lambda row: (row[0], row[1]))
        assert reindex_pages(session, ids) == len(built) == 6  # 1 + 2 comments + 1 + 2
        stored = session.execute(select(
            *(SearchDocument.__table__.c[name] for name in _COLUMNS[:-2]),
            text("vector::text")).order_by(SearchDocument.kind, SearchDocument.ref_id)).all()
        vectors = [session.scalar(text(f"SELECT ({vector_sql(':title', ':text')})::text"),
                                  {"title": row[-2], "text": row[-1]}) for row in built]
        assert [tuple(row) for row in stored] == [
            (*row[:-2], vector) for row, vector in zip(built, vectors, strict=True)]
        assert {row[4] for row in built} == {"news.example.cn", "www.example.com"}
        assert any(row[7] is not None and row[0] == "comment" for row in built)


def test_array_literals_read_back_as_their_values(pg_url: str) -> None:
    texts = ['a"b', "c\\d", None, "x y", "", "it's", "{}", "NULL", "中文 ，", "\\\\\"", " ,"]
    values = {"bigint": [0, -2**63, 2**63 - 1], "text": texts,
              "bytea": [b"\x00\x01\xff", None, b""],
              "timestamptz": [datetime(2026, 1, 1, 3, 4, 5, 123456, tzinfo=UTC), None]}
    with sessionmaker(get_engine(pg_url))() as session:
        for kind, given in values.items():
            found = session.scalar(text(f"SELECT CAST(:v AS {kind}[])"), {"v": pg_array(given)})
            assert [bytes(v) if isinstance(v, memoryview) else v for v in found] == given
        assert pg_array([1.5, True]) == [1.5, True]  # left to the driver
        assert pg_array([]) == "{}"
