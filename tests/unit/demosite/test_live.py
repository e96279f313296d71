"""The live demo site: a deterministic plan of changes, applied when the clock reaches
them, logged with the moment each appeared, and served with stable comment ids."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

from models.db import PROJECT_ROOT as ROOT
from tests.demosite import DemoServer, SiteConfig
from tests.demosite.catalog import Catalog
from tests.demosite.live import LiveClock, LiveConfig, LiveSite, plan

SMALL = SiteConfig(articles_per_section=4, threads_per_board=3, blog_posts=5)
HOUR = LiveConfig(scale=3600.0, comment_edits_per_hour=10, comment_deletes_per_hour=10)


def _fetch(url: str) -> str:
    with urllib.request.urlopen(url) as response:
        return response.read().decode("utf-8", "replace")


def test_the_plan_is_the_same_for_the_same_seed_and_holds_every_kind_of_change() -> None:
    start, changes = plan(Catalog(0, SMALL), HOUR)
    again = plan(Catalog(0, SMALL), HOUR)[1]
    assert changes == again
    assert [change.at for change in changes] == sorted(change.at for change in changes)
    kinds = Counter(change.kind for change in changes)
    assert set(kinds) == {"item", "comment", "comment_edit", "comment_delete", "article_edit"}
    assert 40 <= kinds["item"] <= 80 and 180 <= kinds["comment"] <= 300
    published = {change.path for change in changes if change.kind == "item"}
    assert not published & {item.path for item in start}  # new paths only
    assert plan(Catalog(1, SMALL), HOUR)[1] != changes


def test_comment_ids_stay_with_their_comment_and_blog_comments_have_none() -> None:
    start, changes = plan(Catalog(0, SMALL), HOUR)
    threads = [item for item in start if item.kind == "forum" and item.comments]
    assert [c.cid for c in threads[0].comments] == list(range(2, 2 + len(threads[0].comments)))
    ids: dict[str, set[int]] = {}
    for change in changes:
        if change.kind == "comment":
            cid = change.comment.cid
            assert (cid is None) == change.path.startswith("/blog/")
            assert cid is None or cid not in ids.setdefault(change.path, set())  # never reused
            if cid is not None:
                ids[change.path].add(cid)
        if change.kind == "comment_edit":
            assert change.comment.cid is not None  # only comments with ids are edited


def test_clock_scale_and_wall_times() -> None:
    clock = LiveClock(60.0)
    assert clock.now() == 0.0
    clock.start(wall=1000.0)
    assert clock.wall(120.0) == 1002.0
    with pytest.raises(ValueError):
        LiveClock(0)


def test_changes_appear_when_the_clock_reaches_them_and_are_logged() -> None:
    live = LiveSite(Catalog(0, SMALL), HOUR)
    first = live.changes[0]
    before = live.site()
    assert live.truth == []
    live.clock.start(wall=0.0)  # an hour ago and more: every change is due
    after = live.site()
    assert len(live.truth) == len(live.changes)
    assert [r["kind"] for r in live.truth] == [c.kind for c in live.changes]
    assert live.truth[0]["wall"] == pytest.approx(first.at / HOUR.scale, abs=1e-3)
    new = next(c for c in live.changes if c.kind == "item")
    assert after.get(new.path) is not None and before.get(new.path) is None
    pages, size = live.size("http://x")
    assert pages > len(before.pages) - 2 and size > 0


def test_the_server_serves_the_live_site_with_comment_ids() -> None:
    with DemoServer(config=SMALL, live=HOUR) as server:
        live = server.live
        assert live is not None
        comment = next(c for c in live.changes
                       if c.kind == "comment" and c.path.startswith("/forum/"))
        earlier = _fetch(server.url + comment.path)
        assert comment.comment.text not in earlier
        live.clock.start(wall=0.0)
        page = _fetch(server.url + comment.path)
        assert f'id="post-{comment.comment.cid}"' in page
        news = next(c for c in live.changes if c.kind == "comment" and c.path.startswith("/news/"))
        assert f'id="comment-{news.comment.cid}"' in _fetch(server.url + news.path)
        assert server.sent[comment.path] == len(earlier.encode()) + len(page.encode())


def test_the_command_serves_the_live_site_and_writes_its_truth_on_exit(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    out, err = tmp_path / "truth.json", tmp_path / "stderr.txt"
    # Ctrl-C stops the server unless its parent ignores SIGINT, as a suite started in the
    # background by a shell without job control does (`cmd &`): the server then inherits the
    # ignoring; a parent with a handler of its own passes the default on.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    with err.open("w") as stderr:  # a file, not a pipe: nothing the server says can block it
        server = subprocess.Popen([sys.executable, "-m", "tests.demosite", "serve", "--port",
                                   str(port), "--live", "--scale", "36000", "--truth-out",
                                   str(out)], cwd=ROOT, stderr=stderr)
    signal.signal(signal.SIGINT, previous)
    try:
        deadline = time.monotonic() + 60
        while "live" not in err.read_text() and server.poll() is None:
            assert time.monotonic() < deadline, err.read_text()
            time.sleep(0.05)
        time.sleep(0.5)  # 5 simulated hours: every change of the hour is due
        assert "<rss" in _fetch(f"http://127.0.0.1:{port}/feed.xml")
    finally:
        server.send_signal(signal.SIGINT)
        try:  # exiting applies the changes due and rebuilds the site: a second of CPU
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            signals = [line for line in Path(f"/proc/{server.pid}/status").read_text()
                       .splitlines() if line.startswith(("SigBlk", "SigIgn", "State"))]
            server.kill()
            raise AssertionError(f"the server did not end on SIGINT: {signals}\n"
                                 f"{err.read_text()[-3000:]}") from None
    truth = json.loads(out.read_text(encoding="utf-8"))
    assert {record["kind"] for record in truth} >= {"item", "comment"}
