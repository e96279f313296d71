"""bench.sites: its scoring functions, its replay proxy, and one whole run, on a tiny
hand-written site (two posts, one list page, an own-host https link) made here."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import ssl
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench.sites import run_site, site_table
from bench.sites_score import (
    PathMap,
    Row,
    SiteTruth,
    Stored,
    comment_found,
    link_hops,
    published_day,
    records_figures,
    score_site,
)
from bench.sites_serve import serve_proxy, serve_site

HOST = "own.example"
POST_A = "Alpha is the first post.\nIt has two lines of plain prose."
POST_B = "Beta is the second post, written without any comments at all."
LAYOUT = ("<!doctype html><html lang=en><head><meta charset=utf-8><title>{title}</title>"
          "</head><body><nav><a href='/'>Home</a> <a href='/about/'>About</a></nav>"
          "<main>{main}</main><footer>Tiny site footer</footer></body></html>")


def _post(title: str, body: str, day: str) -> str:
    paragraphs = "".join(f"<p>{line}</p>" for line in body.split("\n"))
    return LAYOUT.format(title=title, main=f"<article><h1>{title}</h1><time datetime="
                         f"'{day}T08:00:00+00:00'>{day}</time>{paragraphs}</article>")


@pytest.fixture
def tiny_site(tmp_path: Path) -> Path:
    """root/ and truth.json: a home page listing both posts (one by an absolute https link
    to the site's own host), two posts and an about page."""
    folder = tmp_path / "tiny"
    files = {
        "index.html": LAYOUT.format(title="Tiny", main=(
            f"<ul class=posts><li><a href='https://{HOST}/posts/a/'>Alpha</a> 2024-01-02</li>"
            "<li><a href='/posts/b/index.html'>Beta</a> 2024-01-01</li></ul>")),
        "posts/a/index.html": _post("Alpha", POST_A, "2024-01-02"),
        "posts/b/index.html": _post("Beta", POST_B, "2024-01-01"),
        "about/index.html": LAYOUT.format(title="About", main="<p>About this tiny site.</p>"),
    }
    for name, html in files.items():
        (folder / "root" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "root" / name).write_text(html, encoding="utf-8")
    truth = {"site": {"language": "en", "base_path": "/", "start": "/", "own_hosts": [HOST]},
             "pages": {
                 "/": {"type": "list", "title": "Tiny", "items": ["/posts/a/", "/posts/b/"]},
                 "/posts/a/": {"type": "blog", "title": "Alpha", "date": "2024-01-02",
                               "body": "Alpha\n" + POST_A,
                               "comments": [{"author": "Ann", "text": "Nice post, thanks!"}]},
                 "/posts/b/": {"type": "blog", "title": "Beta", "date": "2024-01-01",
                               "body": "Beta\n" + POST_B},
                 "/about/": {"type": "other", "title": "About"}}}
    (folder / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    return folder


class WordSets:
    """A stand-in for the shared scorer (not in CI): word-set shares per post."""

    def doc_counts(self, true_text: str, pred_text: str, mode: str) -> tuple[Row, bool]:
        true, pred = set(re.findall(r"\w+", true_text)), set(re.findall(r"\w+", pred_text))
        total = len(true | pred) or 1
        return (len(true & pred) / total, len(pred - true) / total,
                len(true - pred) / total), true == pred

    def aggregate(self, rows: list[Row]) -> tuple[float, float, float]:
        p = sum(tp / (tp + fp) if tp + fp else 0.0 for tp, fp, _ in rows) / len(rows)
        r = sum(tp / (tp + fn) if tp + fn else 0.0 for tp, _, fn in rows) / len(rows)
        return p, r, 2 * p * r / (p + r) if p + r else 0.0


def test_paths_fold_origins_indexes_and_directories(tiny_site: Path) -> None:
    paths = PathMap(SiteTruth.load(tiny_site), ["http://127.0.0.1:8123"])
    assert paths.path(f"https://{HOST}/posts/a/index.html") == "/posts/a/"
    assert paths.path("http://127.0.0.1:8123/posts/b") == "/posts/b/"  # directory, no slash
    assert paths.path("b/", "http://127.0.0.1:8123/posts/") == "/posts/b/"
    assert paths.path("http://127.0.0.1:8123/%E4%B8%AD/x.html") == "/中/x.html"
    assert paths.path("https://elsewhere.example/posts/a/") is None
    assert paths.path("mailto:someone@example.org") is None


def test_link_hops_follow_own_host_links(tiny_site: Path) -> None:
    truth = SiteTruth.load(tiny_site)
    hops = link_hops(truth, truth.real_origin() or "")
    assert truth.real_origin() == f"https://{HOST}"
    assert hops == {"/": 0, "/posts/a/": 1, "/posts/b/": 1, "/about/": 1}


def test_comment_match_and_publish_day() -> None:
    assert comment_found("Nice post,\n thanks!", ["Ann 2024-01-03 nice post, thanks!"])
    assert not comment_found("Nice post, thanks!", ["Nice post"])
    assert not comment_found("ok", ["ok " + "x" * 200])  # one long row is not every comment
    when = datetime(2019, 3, 15, 20, 59, tzinfo=UTC)
    assert published_day(when, "2019-03-15T20:59:53+0000", "zh") == "2019-03-15"
    assert published_day(when, "Mar 15, 2019", "zh") == "2019-03-16"  # Beijing's clock
    assert published_day(when, "Mar 15, 2019", "en") == "2019-03-15"
    assert published_day(None, None, "en") is None


def test_score_site_counts_each_measure(tiny_site: Path) -> None:
    truth = SiteTruth.load(tiny_site)
    origin = f"https://{HOST}"
    stored = [
        Stored(f"{origin}/", "list", records=[f"{origin}/posts/a/", f"{origin}/about/"],
               next_page_url=f"{origin}/page/2/"),
        Stored(f"{origin}/posts/a/", "blog", title="alpha", body="Alpha\n" + POST_A,
               language="en", published_at=datetime(2024, 1, 2, 8, tzinfo=UTC),
               comments=["Ann: Nice post, thanks!"]),
        Stored(f"http://{HOST}/posts/a/", "blog", body="a copy under http"),
        Stored(f"{origin}/posts/b/", "list", body="Beta", comments=["2024-01-01 a dated line"]),
        Stored(f"{origin}/feed.xml", "other", comments=["x", "y"]),
    ]
    hops = {"/": 0, "/posts/a/": 1, "/posts/b/": 1, "/about/": 1}
    peers = {"trafilatura": {"/posts/a/": "Alpha\n" + POST_A, "/posts/b/": "Beta\n" + POST_B}}
    score = score_site(truth, stored, hops, 3, origin, peers, WordSets())
    assert (score.coverage.hits, score.coverage.total) == (2, 2)
    assert score.duplicates == 1 and score.outside == {"other": 1}
    assert score.confusion["article", "article"] == 1 and score.confusion["article", "list"] == 1
    assert score.confusion["other", "not stored"] == 1
    assert (score.posts_as_list.hits, score.types.hits, score.types.total) == (1, 2, 3)
    assert score.body["ours"].exact == 1 and score.body["trafilatura"].exact == 2
    assert score.title.value == 0.5 and score.day.value == 0.5  # Beta has neither
    assert score.comments.value == 1.0 and score.stray_comments == 1 + 2
    assert records_figures(score)[:2] == (0.5, 0.5)
    assert score.next_spurious == 1 and not score.next_found.total
    table = site_table(score, WordSets())
    assert "| title exact | 0.500 (1/2) |" in table and "| article | 1 | 1 | 0 | 0 |" in table


@pytest.mark.skipif(shutil.which("openssl") is None,
                    reason="the proxy makes its https certificate with the openssl CLI")
def test_proxy_answers_own_hosts_over_http_and_https_and_refuses_others(
        tiny_site: Path, tmp_path: Path) -> None:
    unverified = ssl.create_default_context()
    unverified.check_hostname, unverified.verify_mode = False, ssl.CERT_NONE
    with (serve_site(tiny_site / "root") as site,
          serve_proxy(site, [HOST], tmp_path) as proxy):
        opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({"http": proxy.url, "https": proxy.url}),
            urllib.request.HTTPSHandler(context=unverified))
        for url in (f"https://{HOST}/posts/a/", f"http://{HOST}/posts/a/",
                    f"{site.origin}/posts/a/"):
            with opener.open(url, timeout=10) as answer:
                assert answer.status == 200 and b"Alpha is the first post" in answer.read()
        with opener.open(f"https://{HOST}/posts/b", timeout=10) as answer:  # 301 → slash
            assert answer.url == f"https://{HOST}/posts/b/" and b"Beta" in answer.read()
        for url in ("http://elsewhere.example/", "https://elsewhere.example/"):
            with pytest.raises((urllib.error.URLError, OSError)):
                opener.open(url, timeout=10)
        assert proxy.refused == {"elsewhere.example": 2}


@pytest.mark.skipif(shutil.which("openssl") is None,
                    reason="the proxy makes its https certificate with the openssl CLI")
def test_whole_run_crawls_the_real_origin_through_the_proxy(tiny_site: Path) -> None:
    args = argparse.Namespace(database="sqlite", admin_url="", depth=3, keep=None)
    score = run_site(tiny_site, args, WordSets())
    assert score.coverage.value == 1.0 and score.confusion["list", "not stored"] == 0
    assert score.stored_pages == 4 and not score.outside and score.duplicates == 0
    assert score.title.value == 1.0 and score.day.value == 1.0
    assert not any("refused" in note for note in score.notes)
