"""Generated hostile pages: huge or pathological HTML that must still be read in bounded
time and memory (issue 24, "Bounded work"). Each generator takes a scale so that the tests
can build a smaller page than the benchmark (`bench.hostile_pages`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_HEAD = b"<html><head><meta charset='utf-8'><title>Hostile page</title></head><body>"
_TAIL = b"</body></html>"


def _page(inner: bytes) -> bytes:
    return _HEAD + inner + _TAIL


def link_list(size: int) -> bytes:
    """A plain list of links, `size` bytes of them."""
    row = b"<a href='/news/%07d.html'>Headline number %07d of the list</a><br>\n"
    count = size // (len(row) - 2)
    return _page(b"".join(row % (i, i) for i in range(count)))


def nested_links(size: int) -> bytes:
    """Links, `size` bytes of them, each inside a few nested divs of one long list."""
    row = (b"<div class='item'><div class='box'><div class='t'><a href='/a/%07d.html'>"
           b"Story %07d in nested boxes</a></div><span>2026-01-02</span></div></div>\n")
    count = size // (len(row) - 4)
    return _page(b"<div class='list'>" + b"".join(row % (i, i) for i in range(count))
                 + b"</div>")


def many_attributes(count: int) -> bytes:
    """One element with `count` distinct attributes."""
    attributes = b" ".join(b"data-a%d='v%d'" % (i, i) for i in range(count))
    return _page(b"<div " + attributes + b"><p>Text of the page.</p></div>")


def big_table(rows: int) -> bytes:
    """A table of `rows` rows of four cells, one a link."""
    row = (b"<tr><td>%d</td><td><a href='/r/%d.html'>Row title %d</a></td><td>2026-01-02</td>"
           b"<td>Some cell text</td></tr>\n")
    return _page(b"<table>" + b"".join(row % (i, i, i) for i in range(rows)) + b"</table>")


def sibling_paragraphs(count: int) -> bytes:
    """`count` sibling paragraphs of prose."""
    row = b"<p>Paragraph %d of a very long article, with a few words of prose in it.</p>\n"
    return _page(b"".join(row % i for i in range(count)))


def deep_nesting(levels: int) -> bytes:
    """Text inside `levels` nested divs."""
    return _page(b"<div>" * levels + b"<p>Deep text.</p>" + b"</div>" * levels)


def one_text_node(size: int) -> bytes:
    """One paragraph holding a single text node of `size` bytes."""
    words = b"lorem ipsum dolor sit amet "
    return _page(b"<p>" + words * (size // len(words)) + b"</p>")


def tiny_elements(count: int) -> bytes:
    """`count` empty inline elements side by side."""
    return _page(b"<div>" + b"<b></b>" * count + b"</div>")


# name → (generator, the scale the issue measured, a smaller scale for the suite)
HOSTILE_PAGES: dict[str, tuple[Callable[[int], bytes], int, int]] = {
    "link_list": (link_list, 30_000_000, 5_000_000),
    "nested_links": (nested_links, 30_000_000, 5_000_000),
    "many_attributes": (many_attributes, 100_000, 100_000),
    "big_table": (big_table, 50_000, 50_000),
    "sibling_paragraphs": (sibling_paragraphs, 200_000, 200_000),
    "deep_nesting": (deep_nesting, 10_000, 10_000),
    "one_text_node": (one_text_node, 30_000_000, 30_000_000),
    "tiny_elements": (tiny_elements, 1_000_000, 1_000_000),
}


ARTICLE_URL = "https://news.example.cn/2026/01/02/a.html"


@dataclass
class Extraction:
    """One `python -m pipelines extract` run in its own process: its CPU seconds (user and
    system), peak resident memory, wall seconds, exit status and JSON output (None when it
    failed or was killed at the timeout)."""

    cpu_seconds: float
    peak_rss_mb: float
    wall_seconds: float
    returncode: int | None
    output: dict | None
    stderr: str


# A small launcher between the test and the extraction: a child forked from a big process
# (pytest after a suite's worth of tests) carries that process's resident size into its
# maximum, so the extraction is started by this small process and measured by it.
_LAUNCHER = """import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:])
_, status, usage = os.wait4(child.pid, 0)
sys.stderr.write(f"\\n{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}\\n")
sys.exit(os.waitstatus_to_exitcode(status))
"""


def extract_in_subprocess(page: bytes, folder: Path, timeout: float, url: str = ARTICLE_URL,
                          code: Path | None = None) -> Extraction:
    """Run the page through `python -m pipelines extract` in a child process (in `code`, a
    checkout, else the current directory), started and measured by a small launcher (its
    own rusage, not the sum of every child so far, nor the size of the process that forked
    it); the whole group killed after `timeout` wall seconds."""
    path = folder / "page.html"
    path.write_bytes(page)
    started = time.monotonic()
    with open(folder / "out.json", "wb") as out, open(folder / "err.txt", "wb") as err:
        child = subprocess.Popen([sys.executable, "-c", _LAUNCHER, sys.executable, "-m",
                                  "pipelines", "extract", str(path), "--url", url],
                                 stdout=out, stderr=err, cwd=code or Path.cwd(),
                                 start_new_session=True)
        killer = threading.Timer(timeout, os.killpg, (child.pid, signal.SIGKILL))
        killer.start()
        try:
            child.wait()
        finally:
            killer.cancel()
    wall = time.monotonic() - started
    text = (folder / "out.json").read_text(encoding="utf-8")
    output = json.loads(text) if child.returncode == 0 and text.strip() else None
    errors = (folder / "err.txt").read_text(encoding="utf-8", errors="replace")
    measured = errors.rstrip().rsplit("\n", 1)[-1].split()
    cpu, maxrss = (float(measured[0]), float(measured[1])) if len(measured) == 2 else (wall, 0.0)
    return Extraction(cpu, maxrss / 1024, wall, child.returncode, output,
                      errors.rstrip().rsplit("\n", 1)[0] if len(measured) == 2 else errors)
