"""What a hostile site serves is neither stored as active HTML nor written whole into the
log, and no password of the crawl's services reaches the log: crawled for real, into
PostgreSQL, through a Redis that asks a password."""

from __future__ import annotations

import random
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis import Redis
from sqlalchemy.engine import make_url

from crawler import settings
from tests.crawling import run_spider, stored
from tests.integration.crawler.test_scope_crawl import PROSE, Recorder
from tests.services import ensure_redis
from tests.xss import PAYLOADS, problems

PASSWORD = "Pw-5ecret-7f3a"  # of the database and Redis URLs; must appear in no log line
REDIS_DATABASE = 2  # this module's Redis database number
PER_PAGE = 20  # payloads per article page: one that breaks its page's parse spares the rest


def _article(title: str, payloads: list[str]) -> str:
    """An article whose paragraphs alternate with the payloads."""
    body = "".join(f"<p>{title}: {n}. {PROSE[3:-4]}</p>{payload}"
                   for n, payload in enumerate(payloads))
    return (f"<html><head><title>{title}</title></head><body><h1>{title}</h1>"
            f"<div class=\"content\">{body}<p>{PROSE}</p></div></body></html>")


@pytest.fixture
def xss_site() -> Iterator[Recorder]:
    chunks = [PAYLOADS[i:i + PER_PAGE] for i in range(0, len(PAYLOADS), PER_PAGE)]
    pages: dict[str, tuple[int, dict[str, str], str | bytes]] = {
        f"/a{n}.html": (200, {}, _article(f"Article {n}", chunk)) for n, chunk in enumerate(chunks)}
    links = "".join(f'<li><a href="{path}">article</a></li>' for path in pages)
    pages["/"] = (200, {}, f"<html><body><h1>Home</h1>{PROSE}<ul>{links}</ul></body></html>")
    site = Recorder("127.0.0.1", pages)
    yield site
    site.shutdown()
    site.server_close()


def test_stored_article_html_holds_no_active_content(xss_site: Recorder, pg_url: str,
                                                      tmp_path: Path) -> None:
    done = run_spider(pg_url, tmp_path, "-a", f"start_urls={xss_site.origin}/", "-a", "depth=1")
    assert done.returncode == 0, done.stderr[-3000:]
    articles = {url: page.article for url, page in stored(pg_url).items()
                if url.endswith(".html") and page.article}
    assert len(articles) == len(PAYLOADS[::PER_PAGE])
    unsafe = {url: problems(article.body_html) for url, article in articles.items()}
    assert {url: found for url, found in unsafe.items() if found} == {}
    # the payloads were in the stored body (their text and their safe parts are)
    joined = "".join(article.body_html for article in articles.values())
    assert '<a href="http://ok.example/">fine</a>' in joined
    assert "leading spaces</a>" in joined and "data base64</a>" in joined


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def redis_with_password(tmp_path: Path) -> Iterator[str]:
    """A Redis of this test's own that refuses clients without the password."""
    ensure_redis()  # installs redis-server where it is missing
    port = _free_port()
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--requirepass", PASSWORD,
         "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://:{PASSWORD}@127.0.0.1:{port}/{REDIS_DATABASE}"
    deadline = time.monotonic() + 20
    while True:
        try:
            Redis.from_url(url).ping()
            break
        except Exception:  # noqa: BLE001 - not up yet
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.1)
    yield url
    server.terminate()
    server.wait(timeout=20)


@pytest.fixture
def log_site() -> Iterator[Recorder]:
    """A 5 MB binary body and a /proc/self/environ-like body, both served as text/html; the
    same environment as a Content-Type header padded past the line cap; a redirect to a URL
    with credentials."""
    noise = random.Random(24).randbytes(5 * 1024 * 1024)
    environ = (f"DATABASE_URL=postgresql+psycopg2://crawler:{PASSWORD}@db.example.org/opinion\0"
               f"REDIS_URL=redis://:{PASSWORD}@redis.example.org:6379/0\0"
               f"PGPASSWORD={PASSWORD}\0HOME=/root\0" + "X=" + "y" * 3000 + "\0")
    header = environ.replace("\0", " ") + "z" * (settings.LOG_LINE_MAX_CHARS + 1000)
    links = "".join(f'<li><a href="/{name}">{name}</a></li>'
                    for name in ("binary", "environ", "typed", "redirect"))
    site = Recorder("127.0.0.1", {
        "/": (200, {}, f"<html><body><h1>Home</h1>{PROSE}<ul>{links}</ul></body></html>"),
        "/binary": (200, {}, noise),
        "/environ": (200, {}, environ.encode()),
        "/typed": (200, {"Content-Type": f"application/octet-stream; note={header}"}, noise[:99]),
        "/redirect": (302, {"Location": f"http://crawler:{PASSWORD}@127.0.0.2:9/x"}, ""),
    })
    yield site
    site.shutdown()
    site.server_close()


def test_no_log_line_is_long_or_carries_a_password(
        log_site: Recorder, pg_url: str, redis_with_password: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    database_url = make_url(pg_url).set(password=PASSWORD).render_as_string(hide_password=False)
    monkeypatch.setenv("MAX_IDLE_TIME_BEFORE_CLOSE", "3")
    monkeypatch.setenv("CRAWL_LOG_LEVEL", "DEBUG")  # Scrapy's every line, ours too
    done = run_spider(database_url, tmp_path, "-a", f"start_urls={log_site.origin}/",
                      "-a", "depth=1", redis_url=redis_with_password)
    log = done.stdout + done.stderr
    assert done.returncode == 0, log[-3000:]
    assert {"/binary", "/environ", "/typed", "/redirect"} <= set(log_site.hits)
    assert "Overridden settings" in log and "skipped non-HTML" in log  # the lines were written
    assert PASSWORD not in log
    assert max(map(len, log.splitlines())) <= settings.LOG_LINE_MAX_CHARS
    assert len(stored(pg_url)) == 1  # the home page; the rest is no HTML or out of scope
