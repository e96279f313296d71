"""Search on PostgreSQL and SQLite: the same stored pages, the same queries, the same hits."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from models.page import Page
from models.search import SearchDocument
from models.store import save_pages
from reading.export import rows
from reading.query import QueryError
from reading.search import Filters, search
from tests.factories import article_page, list_page


def _article(url: str, title: str, body: str, published: datetime,
             comments: tuple[str, ...] = ()) -> dict:
    page = article_page(url, body=body, comments=comments)
    page["article"]["title"] = title
    page["article"]["published_at"] = published.isoformat()
    return page


def _store(session: Session) -> None:
    save_pages(session, [
        _article("http://news.example.cn/a1", "防控新进展", "今天的疫情防控工作取得进展。",
                 datetime(2026, 11, 1, tzinfo=UTC), comments=("疫情何时结束？", "加油")),
        _article("http://tw.example.tw/a2", "臺灣新聞", "臺灣的疫情與經濟發展。",
                 datetime(2026, 11, 10, tzinfo=UTC)),
        _article("http://blog.example.com/a3", "Climate change", "Climate change is real; "
                 "the educational effort on climate matters.", datetime(2026, 10, 1, tzinfo=UTC)),
        _article("http://blog.example.com/a4", "Weather", "Change the climate of the debate.",
                 datetime(2026, 11, 20, tzinfo=UTC)),
        list_page("http://news.example.cn/list", ("http://news.example.cn/a1",)),
    ])
    session.commit()


def _urls(session: Session, query: str, **filters: object) -> list[str]:
    order = filters.pop("order", "relevance")
    return [hit.url for hit in search(session, query, Filters(**filters), order=order).hits]


def test_a_two_character_chinese_word_is_found_in_simplified_and_traditional(
        session: Session) -> None:
    _store(session)
    assert set(_urls(session, "疫情", kinds=("article",))) == {
        "http://news.example.cn/a1", "http://tw.example.tw/a2"}
    assert _urls(session, "台湾") == ["http://tw.example.tw/a2"]
    assert _urls(session, "疫情防控") == ["http://news.example.cn/a1"]
    assert _urls(session, "情防控工") == ["http://news.example.cn/a1"]
    assert _urls(session, "防疫") == []  # the pair does not occur in that order


def test_words_phrases_and_booleans(session: Session) -> None:
    _store(session)
    assert _urls(session, '"climate change"') == ["http://blog.example.com/a3"]
    assert set(_urls(session, "climate change")) == {"http://blog.example.com/a3",
                                                      "http://blog.example.com/a4"}
    assert _urls(session, "climate -debate") == ["http://blog.example.com/a3"]
    assert _urls(session, "climate NOT debate") == ["http://blog.example.com/a3"]
    assert set(_urls(session, "台湾 OR weather")) == {"http://tw.example.tw/a2",
                                                     "http://blog.example.com/a4"}
    assert _urls(session, "(台湾 OR weather) debate") == ["http://blog.example.com/a4"]
    assert _urls(session, "educat*") == ["http://blog.example.com/a3"]
    assert _urls(session, "CLIMATE Change", kinds=("article",), order="time") == [
        "http://blog.example.com/a4", "http://blog.example.com/a3"]


def test_comments_and_list_records_are_searched_with_their_kind(session: Session) -> None:
    _store(session)
    hits = search(session, "疫情 结束").hits
    assert [(hit.kind, hit.article_url) for hit in hits] == [
        ("comment", "http://news.example.cn/a1")]
    assert [hit.kind for hit in search(session, "记录").hits] == ["record"]


def test_filters_by_time_site_source_type_and_language(session: Session) -> None:
    _store(session)
    since = datetime(2026, 11, 5, tzinfo=UTC)
    assert _urls(session, "疫情", since=since) == ["http://tw.example.tw/a2"]
    assert _urls(session, "疫情", until=since, kinds=("article",)) == [
        "http://news.example.cn/a1"]
    assert _urls(session, "climate", sites=("example.com",)) != []
    assert _urls(session, "climate", sites=("example.cn",)) == []
    assert _urls(session, "疫情", page_types=("list",)) == []
    assert set(_urls(session, "疫情", languages=("zh",), kinds=("article",))) == {
        "http://news.example.cn/a1", "http://tw.example.tw/a2"}
    assert _urls(session, "疫情", sources=("²",)) == []  # a digit, not a number: a name


def test_title_matches_rank_first_and_snippets_mark_the_terms(session: Session) -> None:
    _store(session)
    hits = search(session, "climate", Filters(kinds=("article",)), order="relevance").hits
    assert hits[0].url == "http://blog.example.com/a3"
    assert "<mark>Climate</mark> change is real" in hits[0].snippet
    assert "<mark>臺灣</mark>" in search(session, "台湾").hits[0].snippet


def test_the_index_follows_rewrites_and_deletes(session: Session) -> None:
    _store(session)
    page = _article("http://blog.example.com/a4", "Weather", "Nothing about it now.",
                    datetime(2026, 11, 20, tzinfo=UTC))
    page["content_hash"] = "changed"
    save_pages(session, [page])
    session.commit()
    assert _urls(session, "debate") == []
    assert _urls(session, "nothing") == ["http://blog.example.com/a4"]
    session.execute(delete(Page).where(Page.url == "http://blog.example.com/a3"))
    session.commit()
    assert _urls(session, "climate", kinds=("article",)) == []
    assert session.scalar(select(func.count()).select_from(SearchDocument).where(
        SearchDocument.site == "blog.example.com", SearchDocument.kind == "article")) == 1


def test_pages_of_results(session: Session) -> None:
    _store(session)
    everything = search(session, "climate OR 疫情 OR 台湾", limit=50)
    first = search(session, "climate OR 疫情 OR 台湾", limit=2)
    second = search(session, "climate OR 疫情 OR 台湾", limit=2, offset=2)
    assert len(everything.hits) > 4 and not everything.more
    assert first.more and second.more
    assert [(hit.kind, hit.id) for hit in first.hits + second.hits] == [
        (hit.kind, hit.id) for hit in everything.hits[:4]]


def test_newest_first_finds_matches_older_than_the_rows_it_tests_first(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL tests the newest RECENT_SCAN rows first (the list records and comments
    here), then looks the rest up in the index: the same hits as SQLite's one query."""
    _store(session)
    monkeypatch.setattr("reading.search.RECENT_SCAN", 2)
    assert _urls(session, "climate", order="time") == [
        "http://blog.example.com/a4", "http://blog.example.com/a3"]
    first = search(session, "climate", Filters(since=datetime(2026, 9, 1, tzinfo=UTC)), limit=1)
    assert [hit.url for hit in first.hits] == ["http://blog.example.com/a4"] and first.more
    monkeypatch.setattr("reading.search.RECENT_SCAN", 1000)
    assert [hit.url for hit in search(session, "climate", limit=1).hits] == [
        "http://blog.example.com/a4"]


def test_a_hit_scores_the_same_newest_first_and_by_relevance(session: Session) -> None:
    """Newest first, PostgreSQL ranks only the page's hits; the scores are the same."""
    _store(session)
    by_time = {hit.url: hit.score for hit in search(session, "climate", order="time").hits}
    by_relevance = {hit.url: hit.score
                    for hit in search(session, "climate", order="relevance").hits}
    assert by_time == by_relevance and len(by_time) == 2
    assert all(score > 0 for score in by_time.values())


@pytest.mark.parametrize("query", ["NOT x", "-x", "a OR -b", "(a", "...", "a )"])
def test_a_bad_query_is_refused_with_a_reason(session: Session, query: str) -> None:
    with pytest.raises(QueryError):
        search(session, query)


def test_export_streams_every_row_once_oldest_first_in_chunks(session: Session) -> None:
    _store(session)
    everything = list(rows(session, None, Filters(), chunk=2))
    assert len(everything) == len({(row["kind"], row["id"]) for row in everything}) == 7
    times = [row["published_at"] for row in everything]
    assert times == sorted(times)
    found = list(rows(session, "疫情", Filters(kinds=("article",)), chunk=1))
    assert [row["url"] for row in found] == ["http://news.example.cn/a1",
                                             "http://tw.example.tw/a2"]
    assert found[1]["text"] == "臺灣的疫情與經濟發展。" and found[1]["language"] == "zh"


def test_export_walks_rows_of_one_publish_time_across_chunks_once_each(
        session: Session) -> None:
    """Ties on the publish time (a feed's batch, a forum's comments) straddle chunks: each
    chunk goes on after the last id of that time, not past the time."""
    same = datetime(2026, 11, 5, 8, 0, tzinfo=UTC)
    save_pages(session, [_article(f"http://news.example.cn/t{number}", f"同一时刻 {number}",
                                  f"第{number}条消息的正文。", same) for number in range(7)]
               + [_article("http://news.example.cn/later", "稍后", "之后的消息。",
                           datetime(2026, 11, 6, tzinfo=UTC))])
    session.commit()
    for chunk in (1, 2, 3, 8):
        exported = [row["url"] for row in rows(session, None, Filters(kinds=("article",)),
                                               chunk=chunk)]
        assert sorted(exported[:7]) == [f"http://news.example.cn/t{n}" for n in range(7)]
        assert exported[7:] == ["http://news.example.cn/later"]
