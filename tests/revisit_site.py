"""A small live site whose articles, comments and thread pages change between crawls, for
the revisit tests: a news page with comment ids and ETags, a news page with neither (only
the same bytes tell it unchanged), and a forum thread that grows pages."""

from __future__ import annotations

import hashlib
import threading
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PARAGRAPH = ("市政府今天召开新闻发布会，介绍了城市更新行动的最新进展。发布会上，有关负责人表示，"
             "今年以来全市共完成老旧小区改造一百二十个，惠及居民四万余户。")


@dataclass
class Comment:
    author: str
    time: str
    text: str
    anchor: str | None = None  # the element id, when the site gives one


def _comments_html(comments: list[Comment]) -> str:
    items = "".join(
        f'<li class="comment"{f" id={c.anchor!r}" if c.anchor else ""}>'
        f'<div class="comment-meta"><span class="comment-author">{c.author}</span> '
        f'<span class="comment-time">{c.time}</span></div><p>{c.text}</p></li>'
        for c in comments)
    return f'<div class="comments"><h3>网友评论</h3><ol class="comment-list">{items}</ol></div>'


def news_page(title: str, body: str, comments: list[Comment]) -> str:
    paragraphs = "".join(f"<p>{body}{n}</p>" for n in range(4))
    return (f"<html><head><meta charset='utf-8'><title>{title}</title></head><body>"
            f"<div class='nav'><a href='/'>首页</a></div><div class='article'><h1>{title}</h1>"
            f"<div class='info'>2026-11-20 09:30 来源：本站</div>{paragraphs}</div>"
            f"{_comments_html(comments)}</body></html>")


def thread_url(number: int) -> str:
    """Page 1 of the thread has no number in its URL, as on most forums."""
    return "/thread/7" if number == 1 else f"/thread/7?page={number}"


def thread_page(number: int, last: int, posts: list[Comment]) -> str:
    pager = " ".join(f'<a href="{thread_url(n)}">{n}</a>' if n != number else f"<b>{n}</b>"
                     for n in range(1, last + 1))
    if number < last:
        pager += f' <a class="next" href="{thread_url(number + 1)}">下一页</a>'
    items = "".join(
        f'<div class="post" id="{p.anchor}"><div class="postauthor">{p.author}</div>'
        f'<div class="postinfo">发表于 {p.time}</div><div class="postmessage">{p.text}</div></div>'
        for p in posts)
    return (f"<html><head><meta charset='utf-8'><title>讨论：城市更新 - 第{number}页</title></head>"
            f"<body><div class='nav'><a href='/'>首页</a></div><h1>讨论：城市更新</h1>"
            f"<div class='pager'>{pager}</div><div class='posts'>{items}</div>"
            f"<div class='pager'>{pager}</div></body></html>")


@dataclass
class Served:
    body: str
    etag: bool = False  # answer with an ETag, and 304 to a matching If-None-Match


@dataclass
class RevisitSite:
    """The pages by path (the test changes them between crawls), and what was asked."""

    pages: dict[str, Served] = field(default_factory=dict)
    hits: Counter[str] = field(default_factory=Counter)
    not_modified: Counter[str] = field(default_factory=Counter)
    conditional: Counter[str] = field(default_factory=Counter)

    def __enter__(self) -> RevisitSite:
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                served = site.pages.get(self.path)
                site.hits[self.path] += 1
                if served is None:
                    self.send_error(404)
                    return
                body = served.body.encode()
                tag = f'"{hashlib.sha256(body).hexdigest()[:16]}"'
                asked = self.headers.get("If-None-Match")
                if asked:
                    site.conditional[self.path] += 1
                if served.etag and asked == tag:
                    site.not_modified[self.path] += 1
                    self.send_response(304)
                    self.send_header("ETag", tag)
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                if served.etag:
                    self.send_header("ETag", tag)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *_: object) -> None:
        self.server.shutdown()
        self.server.server_close()
