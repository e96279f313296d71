"""The journal keeps every item until the database has it: outages, kills, replays."""

from __future__ import annotations

import os
import re
import secrets
import signal
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from models import Page
from models.db import PROJECT_ROOT as ROOT
from models.db import get_engine, session_factory
from models.journal import Journal, read_segment
from models.persist import (
    SegmentWriteError,
    is_outage,
    store_identity,
    store_journal_root,
    write_segments,
)
from models.stored import FetchFacts, content_hash, stored_line, stored_page
from pipelines.process import PageResult
from pipelines.results import ArticleData, CommentData, ListData, PageTypeDecision, RecordData
from tests.factories import article_page
from tests.tcp_proxy import TcpProxy


def _pages(url: str) -> int:
    with session_factory(url)() as session:
        return session.scalar(select(func.count()).select_from(Page))


def test_segments_survive_an_outage_and_are_written_once_it_ends(pg_url: str,
                                                                 tmp_path: Path) -> None:
    proxy = TcpProxy(make_url(pg_url).port or 5432).start()
    via_proxy = make_url(pg_url).set(port=proxy.port).render_as_string(hide_password=False)
    journal = Journal(tmp_path)
    for i in range(3):
        journal.append(article_page(f"https://a.cn/{i}.html"))
    proxy.stop()
    with pytest.raises(SegmentWriteError) as raised:
        write_segments(session_factory(via_proxy), journal.seal())
    assert is_outage(raised.value.cause)
    assert len(journal.seal()) == 1  # still journalled
    proxy.start()
    get_engine(via_proxy).dispose()
    written = write_segments(session_factory(via_proxy), journal.seal())
    assert [w.status for w in written] == ["new"] * 3 and journal.seal() == []
    proxy.stop()
    assert _pages(pg_url) == 3


_WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from models.journal import Journal
    from tests.factories import article_page
    journal = Journal(Path(sys.argv[1]))
    for i in range(4):
        journal.append(article_page(f"https://killed.cn/{i}.html"))
    print("ready", flush=True)
    time.sleep(60)
""")


def _killed_writer(root: Path) -> None:
    process = subprocess.Popen([sys.executable, "-c", _WRITER, str(root)], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()


def test_items_of_a_sigkilled_crawler_are_adopted_and_stored(pg_url: str,
                                                             tmp_path: Path) -> None:
    _killed_writer(tmp_path)
    journal = Journal(tmp_path)
    assert journal.adopt_orphans() == 4
    write_segments(session_factory(pg_url), journal.seal())
    journal.close()
    assert _pages(pg_url) == 4
    assert list(tmp_path.iterdir()) == []


def test_a_page_the_database_refuses_is_set_aside_and_the_rest_written(
        pg_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """PostgreSQL refuses an index row over its size limit (ProgramLimitExceeded, raised as
    an OperationalError): that page goes to rejected/, its neighbours are stored, and the
    batch is not taken for an outage and retried for ever."""
    long_url = "https://a.cn/" + secrets.token_urlsafe(7_500)  # random: the index cannot
    # compress it under its limit
    journal = Journal(tmp_path / "store")
    for url in ("https://a.cn/1.html", long_url, "https://a.cn/2.html"):
        journal.append(article_page(url))
    with caplog.at_level("ERROR"):
        written = write_segments(session_factory(pg_url), journal.seal())
    assert [w.status for w in written] == ["new", "rejected", "new"]
    assert _pages(pg_url) == 2 and journal.seal() == []
    [rejected] = (tmp_path / "store" / "rejected").iterdir()
    assert [r["url"] for r in read_segment(rejected)] == [long_url]
    [line] = [r.getMessage() for r in caplog.records]
    assert f"refused the page {long_url[:60]}" in line and len(line) < 600  # no SQL, no data


def test_an_outage_is_one_line_without_the_batch(pg_url: str, tmp_path: Path) -> None:
    proxy = TcpProxy(make_url(pg_url).port or 5432)  # a free port, never started
    closed = make_url(pg_url).set(port=proxy.port).render_as_string(hide_password=False)
    journal = Journal(tmp_path)
    journal.append(article_page("https://a.cn/1.html", body="机密正文" * 1000))
    with pytest.raises(SegmentWriteError) as raised:
        write_segments(session_factory(closed), journal.seal())
    message = str(raised.value)
    assert "\n" not in message and "机密正文" not in message and "[SQL" not in message


def test_a_live_journal_is_never_adopted(tmp_path: Path) -> None:
    owner = Journal(tmp_path)
    owner.append({"url": "x"})
    assert Journal(tmp_path).adopt_orphans() == 0


def _replay(root: Path, url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crawler", "replay-spill", str(root),
                           "--database-url", url], cwd=ROOT, capture_output=True, text=True,
                          check=False)


def test_replay_command_writes_what_a_dead_crawl_left(pg_url: str, tmp_path: Path) -> None:
    _killed_writer(store_journal_root(tmp_path, pg_url))
    done = _replay(tmp_path, pg_url)
    assert done.returncode == 0, done.stderr
    assert "replayed 4 items: 4 new" in done.stdout
    assert re.search(r"^wrote 4 of 4 journalled items in [\d.]+ s$", done.stderr, re.M), \
        done.stderr  # its progress, on stderr
    assert _pages(pg_url) == 4


def test_a_database_has_one_journal_folder_however_its_url_is_spelled(tmp_path: Path) -> None:
    spellings = ["postgresql+psycopg2://crawler:secret@DB.example.org/opinion",
                 "postgresql://other@db.example.org:5432/opinion"]
    assert len({store_journal_root(tmp_path, url) for url in spellings}) == 1
    assert "secret" not in store_identity(spellings[0])
    others = ["postgresql://db.example.org/other", "postgresql://db.example.org:5433/opinion",
              f"sqlite:///{tmp_path / 'a.sqlite3'}", f"sqlite:///{tmp_path / 'b.sqlite3'}"]
    roots = {store_journal_root(tmp_path, url) for url in spellings + others}
    assert len(roots) == 5


def test_items_journalled_for_one_database_never_reach_another(pg_url: str, tmp_path: Path) -> None:
    """Two stores share a journal directory: each replay writes its own items only."""
    sqlite_url = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    subprocess.run([sys.executable, "-m", "crawler", "migrate", "--database-url", sqlite_url],
                   cwd=ROOT, check=True, capture_output=True)
    _killed_writer(store_journal_root(tmp_path, sqlite_url))
    into_pg = _replay(tmp_path, pg_url)
    assert "replayed 0 items" in into_pg.stdout, into_pg.stderr
    assert _pages(pg_url) == 0
    into_sqlite = _replay(tmp_path, sqlite_url)
    assert "replayed 4 items: 4 new" in into_sqlite.stdout, into_sqlite.stderr
    assert _pages(sqlite_url) == 4
    refused = _replay(store_journal_root(tmp_path, sqlite_url), pg_url)
    assert refused.returncode == 2 and "pass that database as --database-url" in refused.stderr


def test_journals_of_an_unknown_database_are_named_not_replayed(pg_url: str,
                                                               tmp_path: Path) -> None:
    _killed_writer(tmp_path)  # the flat layout of older versions: no store folder
    done = _replay(tmp_path, pg_url)
    assert "replayed 0 items" in done.stdout
    assert "1 journal folders in" in done.stderr and "belong to no database" in done.stderr
    assert _pages(pg_url) == 0


def test_a_line_cut_short_by_a_crash_is_skipped(tmp_path: Path) -> None:
    segment = tmp_path / "00000001.jsonl"
    segment.write_text('{"url": "a"}\n{"url": "b"}\n{"url": "c', encoding="utf-8")
    assert [r["url"] for r in read_segment(segment)] == ["a", "b"]


def test_only_journal_directories_are_adopted(tmp_path: Path) -> None:
    (tmp_path / "rejected").mkdir()
    (tmp_path / "rejected" / "x-00000001.jsonl").write_text('{"url": "bad"}\n')
    (tmp_path / "unrelated" / "nested").mkdir(parents=True)
    assert Journal(tmp_path).adopt_orphans() == 0
    assert (tmp_path / "rejected" / "x-00000001.jsonl").exists()
    assert (tmp_path / "unrelated" / "nested").is_dir()


def test_a_journal_line_holds_the_stored_record_with_its_content_hash(tmp_path: Path) -> None:
    """The crawl journals `stored_line` (the extracted part serialised once, for hash and
    line both): read back, it is exactly the record `stored_page` builds."""
    facts = FetchFacts(url="https://a.cn/1.html", final_url="https://a.cn/1.html", status=200,
                       fetched_at=datetime(2026, 11, 22, 1, 0, tzinfo=UTC), encoding="gbk",
                       source_id=3, crawl_run_id=9, ticket="t1")
    article = ArticleData(title='标题 "引号"', content_text="第一段\n\n第二段",
                          content_html="<p>第一段</p>\n<p>第二段</p>",
                          published_at=datetime(2026, 11, 20, 10, 0, tzinfo=UTC),
                          comments=[CommentData(text="同意\n楼上", author="网友")])
    listing = ListData(records=[RecordData(title="记录", url="https://a.cn/2.html",
                                           date=datetime(2026, 11, 21), extra={"k": "v"})],
                       next_page="https://a.cn/?page=2")
    results = [PageResult(PageTypeDecision("news", 0.9, "classifier", [("news", 0.9)]),
                          article=article),
               PageResult(PageTypeDecision("list", 0.8, "rule:x"), listing=listing),
               PageResult(PageTypeDecision("other", 0.5, "classifier"))]
    journal = Journal(tmp_path)
    for result in results:
        journal.append_line(stored_line(facts, result))
    lines = list(read_segment(journal.seal()[0]))
    assert lines == [stored_page(facts, result) for result in results]
    for line in lines:
        extracted = {key: line[key] for key in ("page_type", "article", "records",
                                                "next_page_url")}
        assert line["content_hash"] == content_hash(extracted)
    journal.close()
