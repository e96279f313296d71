"""A crawler trap served on 127.0.0.1 (tests and `python -m tests.trapsite`): lists that
never end and a calendar without a first or last day.

- `/list?page=N`: a list page of records `/item/N-K.html` with a pager whose next page is
  `?page=N+1`, for every N;
- `/calendar?day=YYYY-MM-DD`: a day of a calendar, its events as records and the next and previous
  day as its pager, for every day;
- `/loop/…`: a page whose relative link leads two levels deeper into a repeating path
  (`/loop/a/b/a/b/…`);
- `/hub?n=N`: a page of N links to articles (`/item/hub-K.html`), more than a queue takes;
- `/`: the home page, linking the first three.

Wide pages link as real ones do, and multiply the work: a list's pager shows the numbers
of the pages around it, a calendar day its month as a grid of days.

Every page is generated from its URL; the server remembers only which paths it served.
"""

from __future__ import annotations

import argparse
import threading
from collections import Counter
from datetime import date, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

RECORDS_PER_PAGE = 5
PAGER_WIDTH = 5  # page numbers either side of the current one on a wide pager
PROSE = ("<p>" + "这是一篇足够长的文章正文，用来说明陷阱网站的每一页都是真实的页面。" * 4
         + "</p>") * 3


def _page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title></head>'
            f'<body><div class="nav"><a href="/">首页</a> <a href="/list?page=1">列表</a> '
            f'<a href="/calendar?day=2024-01-01">日历</a></div><h1>{title}</h1>{body}'
            "<div class=\"footer\">版权所有 陷阱网</div></body></html>")


def _records(items: list[tuple[str, str, str]]) -> str:
    rows = "".join(f'<li><a href="{href}">{title}</a> <span class="date">{day}</span>'
                   f"<p>{title}的摘要，介绍这一条记录的内容。</p></li>"
                   for href, title, day in items)
    return f'<ul class="list">{rows}</ul>'


def list_page(number: int, wide: bool) -> str:
    items = [(f"/item/{number}-{k}.html", f"第{number}页第{k}条新闻标题", "2024-01-01")
             for k in range(1, RECORDS_PER_PAGE + 1)]
    around = range(max(number - PAGER_WIDTH, 1), number + PAGER_WIDTH + 1) if wide else (
        number, number + 1)
    numbers = " ".join(f'<span class="current">{n}</span>' if n == number
                       else f'<a href="/list?page={n}">{n}</a>' for n in around)
    pager = (f'<div class="pager"><a href="/list?page={max(number - 1, 1)}">上一页</a> '
             f'{numbers} <a href="/list?page={number + 1}">下一页</a></div>')
    return _page(f"新闻列表 第{number}页", _records(items) + pager)


def item_page(name: str) -> str:
    return _page(f"新闻 {name}", f'<div class="article"><p class="info">2024-01-01 10:00 '
                                f"来源：陷阱网</p>{PROSE}</div>")


def calendar_page(day: date, wide: bool) -> str:
    items = [(f"/event/{day.isoformat()}-{k}.html", f"{day.isoformat()} 活动{k}",
              day.isoformat()) for k in range(1, RECORDS_PER_PAGE + 1)]
    before, after = day - timedelta(days=1), day + timedelta(days=1)
    pager = (f'<div class="pager"><a rel="prev" href="/calendar?day={before.isoformat()}">'
             f'上一页</a> <a rel="next" href="/calendar?day={after.isoformat()}">下一页</a>'
             "</div>")
    first = day.replace(day=1)
    month = [first + timedelta(days=n) for n in range(31)
             if (first + timedelta(days=n)).month == first.month] if wide else []
    grid = "".join(f'<a href="/calendar?day={d.isoformat()}">{d.day}</a> ' for d in month)
    return _page(f"活动日历 {day.isoformat()}",
                 _records(items) + pager + f'<div class="month">{grid}</div>')


def loop_page(path: str) -> str:
    return _page(f"目录 {path}", f'{PROSE}<p><a href="a/b/">下一级目录</a></p>')


def hub_page(links: int) -> str:
    items = "".join(f'<p><a href="/item/hub-{k}.html">文章{k}</a></p>' for k in range(links))
    return _page("文章索引", PROSE + items)


def home_page() -> str:
    return _page("陷阱网", PROSE + '<p><a href="/list?page=1">新闻列表</a> '
                 '<a href="/calendar?day=2024-01-01">活动日历</a> <a href="/loop/">目录</a></p>')


def answer(path_and_query: str, wide: bool = False) -> tuple[int, str]:
    """The status and HTML of a path; 404 for what the trap does not serve."""
    parts = urlsplit(path_and_query)
    path = parts.path
    try:
        if path == "/":
            return 200, home_page()
        if path == "/list":
            return 200, list_page(int(parse_qs(parts.query).get("page", ["1"])[0]), wide)
        if path == "/hub":
            return 200, hub_page(int(parse_qs(parts.query).get("n", ["0"])[0]))
        if path.startswith(("/item/", "/event/")):
            return 200, item_page(path.rsplit("/", 1)[-1])
        if path == "/calendar":
            day = parse_qs(parts.query).get("day", ["2024-01-01"])[0]
            return 200, calendar_page(date.fromisoformat(day), wide)
        if path.startswith("/loop/"):
            return 200, loop_page(path)
    except ValueError:
        pass
    return 404, _page("404", "<p>没有这一页。</p>")


class TrapServer(ThreadingHTTPServer):
    """The trap on 127.0.0.1 (port 0: an ephemeral one), served from a daemon thread;
    `hits` counts the GETs per path kind (list, calendar, item, event, loop, …)."""

    daemon_threads = True

    def __init__(self, port: int = 0, wide: bool = False) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.wide = wide
        self.hits: Counter[str] = Counter()
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def __enter__(self) -> TrapServer:
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *_: object) -> None:
        self.shutdown()
        self.server_close()

    def count(self, path: str) -> None:
        kind = path.split("/")[1].split("?")[0] or "home"
        with self._lock:
            self.hits[kind] += 1


class _Handler(BaseHTTPRequestHandler):
    server: TrapServer

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.server.count(self.path)
        status, html = answer(self.path, self.server.wide)
        data = html.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *_: object) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the crawler trap on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=8099)
    parser.add_argument("--wide", action="store_true", help="pagers and month grids")
    arguments = parser.parse_args()
    with TrapServer(arguments.port, arguments.wide) as server:
        print(f"serving the trap on {server.url}", flush=True)
        threading.Event().wait()


if __name__ == "__main__":
    main()
