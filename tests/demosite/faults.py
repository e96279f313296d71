"""Fault endpoints under /faults/: the broken responses a crawl must log and survive.

They are not linked from the normal site; `/faults/` itself lists them so a crawl test
can start there. Each entry in `FAULTS` says what the crawler is expected to do.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from functools import cached_property
from random import Random

HUGE_BYTES = 10 * 1024 * 1024
FAULTS = {
    "/faults/500.html": "HTTP 500: log, retry per policy, move on",
    "/faults/503.html": "HTTP 503 with Retry-After: log, retry per policy, move on",
    "/faults/loop-a": "302 to /faults/loop-b and back: stop at the redirect limit",
    "/faults/slow.html": "answers only after the slow delay: time out",
    "/faults/file.bin": "application/octet-stream: skip, do not parse",
    "/faults/image.html": "PNG bytes labelled text/html: detect binary, do not parse",
    "/faults/huge.html": "10 MB HTML page: enforce the size limit",
    "/faults/empty.html": "200 with an empty body: log, store nothing",
    "/faults/broken.html": "unclosed tags: parse leniently, still extract the text",
    "/faults/mislabeled.html": "header says utf-8, body is GBK: detect the real encoding",
    "/faults/gb18030.html": "GB18030 with no charset anywhere: detect the encoding",
}
BROKEN_HTML = (
    "<html><head><title>残缺的页面<body><div class=content><h1>页面标记不完整"
    "<p>这一段没有结束标签，解析器需要自己补全。<p>第二段同样如此，<b>加粗也没有闭合"
    "<div><p>最后一段嵌在未闭合的div里。"
)
MISLABELED_TEXT = "<html><head><title>编码错误的页面</title></head><body><p>{}</p></body></html>"
GB18030_TEXT = (
    "<html><head><title>没有声明编码的页面</title></head><body>"
    "<p>这一页用GB18030编码，包含GBK之外的字符：䶮、𠀀、€，但哪里都没有声明字符集。</p>"
    "<p>解码器必须根据字节本身判断编码，不能默认使用UTF-8。</p></body></html>"
)


@dataclass(frozen=True)
class Response:
    """A canned HTTP response; `delay` seconds pass before it is sent."""

    status: int
    body: bytes = b""
    content_type: str | None = "text/html; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0


def _png(size: int = 64) -> bytes:
    """A valid grey PNG image, built with zlib so no binary blob lives in the source."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    rows = b"".join(b"\x00" + bytes(range(size)) for _ in range(size))
    header = struct.pack(">IIBBBBB", size, size, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _page(title: str, text: str) -> bytes:
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{title}</title></head>"
            f"<body><h1>{title}</h1><p>{text}</p></body></html>").encode()


class Faults:
    """Builds the fault responses; heavy bodies are made once, on first request."""

    def __init__(self, slow_seconds: float = 5.0) -> None:
        self.slow_seconds = slow_seconds

    def respond(self, path: str) -> Response | None:
        """The fault response for `path`, or None when it is not a fault endpoint."""
        if path == "/faults/":
            return Response(200, self.index)
        canned = {
            "/faults/500.html": lambda: Response(500, _page("服务器错误", "内部错误。")),
            "/faults/503.html": lambda: Response(503, _page("服务暂不可用", "请稍后再试。"),
                                                 headers=(("Retry-After", "1"),)),
            "/faults/loop-a": lambda: _redirect("/faults/loop-b"),
            "/faults/loop-b": lambda: _redirect("/faults/loop-a"),
            "/faults/slow.html": lambda: Response(200, _page("慢页面", "终于加载完成。"),
                                                  delay=self.slow_seconds),
            "/faults/file.bin": lambda: Response(200, self.binary, "application/octet-stream"),
            "/faults/image.html": lambda: Response(200, _png(), "text/html"),
            "/faults/huge.html": lambda: Response(200, self.huge),
            "/faults/empty.html": lambda: Response(200, b"", "text/html"),
            "/faults/broken.html": lambda: Response(200, BROKEN_HTML.encode()),
            "/faults/mislabeled.html": lambda: Response(200, MISLABELED_TEXT.format(
                "页头声明的是UTF-8，可正文实际上是GBK编码的中文内容。").encode("gbk")),
            "/faults/gb18030.html": lambda: Response(200, GB18030_TEXT.encode("gb18030"),
                                                     "text/html"),
        }
        make = canned.get(path)
        return make() if make else None

    @cached_property
    def index(self) -> bytes:
        """The only page linking to the faults."""
        rows = "".join(f'<li><a href="{path}">{path}</a> — {expect}</li>'
                       for path, expect in FAULTS.items())
        return _page("故障页面", "测试用。").replace(b"</body>", f"<ul>{rows}</ul></body>".encode())

    @cached_property
    def binary(self) -> bytes:
        """64 KiB of deterministic noise."""
        return Random("faults:binary").randbytes(64 * 1024)

    @cached_property
    def huge(self) -> bytes:
        """A well-formed HTML page of just over HUGE_BYTES."""
        paragraph = ("<p>这是一个超大的页面，用来测试爬虫对响应大小的限制。"
                     "This page is deliberately huge to test the size limit.</p>\n").encode()
        count = HUGE_BYTES // len(paragraph) + 1
        return _page("超大页面", "开始").replace(b"</body>", paragraph * count + b"</body>")


def _redirect(location: str) -> Response:
    return Response(302, b"", None, headers=(("Location", location),))
