"""Bad bytes on real pages: mutate the evaluation pages and count what fails the route.

Each page of the shared article and page-type sets (read from ../shared/data, never
copied) is mutated once per kind, seeded by its name, and goes through `load_document`
and `process_document` as a crawled page does (the page type decided by the classifier):

    .venv/bin/python -m bench.mutations [--pages N] [--seed S]

Kinds: `charset` (the page in GB18030, its <meta charset> and Content-Type naming a codec
that is no character set), `control` (a character XML forbids, raw or as a reference,
beside a <script> or <style>), `json_ld` (JSON-LD nested a thousand deep), `link` (a link
no URL parser reads), `bytes` (a few random bytes inserted), `truncate` (the page cut
short). Prints, per kind, the pages tried, the exceptions by type (NotHtmlError, the
binary-body refusal, apart) and the slowest page's seconds. Run it on two checkouts to compare them.
"""

from __future__ import annotations

import argparse
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator

from bench.articles import SHARED_SETS, load_set
from pipelines.document import NotHtmlError, load_document
from pipelines.process import process_document

BAD_CODECS = ("hex", "base64", "bz2", "zip", "uu", "quopri", "rot13", "idna", "punycode",
              "undefined")
FORBIDDEN = ("\x01", "\x08", "\x0b", "\x0c", "\x1f", "&#1;", "&#x1f;", "\ufffe")
BAD_LINKS = ("http://[::1/x", "http://hostname[:port%5D/x")
JSON_LD_DEPTH = 1_000
MAX_INSERTED_BYTES = 8


def _at_tag(page: bytes, rng: random.Random, tag: bytes) -> int:
    """A random position where `tag` opens in the page, else a random position."""
    spots = [found.start() for found in re.finditer(re.escape(tag), page, re.I)]
    return rng.choice(spots) if spots else rng.randrange(len(page) + 1)


def _charset(page: bytes, rng: random.Random) -> tuple[bytes, str]:
    """Re-encoded in GB18030 (valid UTF-8 is read as UTF-8 whatever a page declares)."""
    codec = rng.choice(BAD_CODECS)
    text = page.decode("utf-8", errors="replace")
    return (f'<meta charset="{codec}">{text}'.encode("gb18030"),
            f"text/html; charset={codec}")


def _control(page: bytes, rng: random.Random) -> tuple[bytes, str | None]:
    at = _at_tag(page, rng, rng.choice([b"<script", b"<style", b"</script>"]))
    return page[:at] + rng.choice(FORBIDDEN).encode() + page[at:], None


def _json_ld(page: bytes, rng: random.Random) -> tuple[bytes, str | None]:
    nested = "[" * JSON_LD_DEPTH + "1" + "]" * JSON_LD_DEPTH
    script = f'<script type="application/ld+json">{{"@type": "NewsArticle", "x": {nested}}}'
    at = _at_tag(page, rng, b"</head")
    return page[:at] + script.encode() + b"</script>" + page[at:], None


def _link(page: bytes, rng: random.Random) -> tuple[bytes, str | None]:
    at = _at_tag(page, rng, b"<a ")
    return page[:at] + f'<a href="{rng.choice(BAD_LINKS)}">x</a>'.encode() + page[at:], None


def _bytes(page: bytes, rng: random.Random) -> tuple[bytes, str | None]:
    for _ in range(rng.randint(1, MAX_INSERTED_BYTES)):
        at = rng.randrange(len(page) + 1)
        page = page[:at] + rng.randbytes(1) + page[at:]
    return page, None


def _truncate(page: bytes, rng: random.Random) -> tuple[bytes, str | None]:
    return page[:rng.randrange(len(page) + 1)], None


MUTATIONS: dict[str, Callable[[bytes, random.Random], tuple[bytes, str | None]]] = {
    "charset": _charset, "control": _control, "json_ld": _json_ld, "link": _link,
    "bytes": _bytes, "truncate": _truncate}


def _pages(limit: int) -> Iterator[tuple[str, bytes, str | None]]:
    """(name, HTML, URL) of up to `limit` pages, the sets taken in turn."""
    sets = [[(f"{name}/{page_id}", html, truth.get("url"))
             for page_id, html, truth in load_set(name, None)] for name in SHARED_SETS]
    taken = 0
    for row in zip(*sets, strict=False):
        for page in row:
            if taken == limit:
                return
            taken += 1
            yield page


def run(limit: int, seed: int) -> dict[str, dict]:
    """Per mutation kind: pages tried, exceptions by type, the slowest page and its
    seconds (wall clock)."""
    report = {kind: {"pages": 0, "errors": Counter(), "slowest": 0.0, "slowest_page": ""}
              for kind in MUTATIONS}
    for name, html, url in _pages(limit):
        for kind, mutate in MUTATIONS.items():
            body, content_type = mutate(html, random.Random(f"{seed}:{kind}:{name}"))
            entry = report[kind]
            entry["pages"] += 1
            started = time.perf_counter()
            try:
                process_document(load_document(body, url=url, content_type=content_type))
            except NotHtmlError:
                entry["errors"]["NotHtmlError (refused as binary)"] += 1
            except Exception as error:  # noqa: BLE001 - counting them is the point
                entry["errors"][type(error).__name__] += 1
            seconds = time.perf_counter() - started
            if seconds > entry["slowest"]:
                entry["slowest"], entry["slowest_page"] = seconds, name
    return report


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mutations", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=400, help="real pages to mutate")
    parser.add_argument("--seed", type=int, default=24)
    args = parser.parse_args()
    report = run(args.pages, args.seed)
    print("| mutation | pages | pages failed | exceptions | slowest page (s) |")
    print("|---|---|---|---|---|")
    for kind, entry in report.items():
        errors = entry["errors"]
        failed = sum(n for error, n in errors.items() if not error.startswith("NotHtml"))
        shown = ", ".join(f"{error} {n}" for error, n in errors.most_common()) or "–"
        print(f"| {kind} | {entry['pages']} | {failed} | {shown} | {entry['slowest']:.2f} "
              f"({entry['slowest_page']}) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
