"""Dump and compare every output of the article route on the evaluation pages.

A speed change to the route must leave its outputs as they were; F1 figures can hide a
changed page. Dump before, dump after, compare:

    .venv/bin/python -m bench.route_outputs dump before.jsonl
    .venv/bin/python -m bench.route_outputs compare before.jsonl after.jsonl

`dump` runs `extract_article` on every page of the three sets (loaded as bench.articles
loads them) with one fixed fetch time, so that relative dates ("3 hours ago") do not move
with the clock, and writes one JSON line per page with every field of the result.
`dump --route full` runs the whole page route instead (`process_document`: the page-type
decision, then the article or the list records and next page), on those sets, the
page-type set and every HTML page of the real sites: the check a move of code must pass.
`compare` prints how many pages differ and the first differences; exit code 1 if any.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

from bench.articles import SETS, SHARED, load_set
from pipelines.article import extract_article
from pipelines.cli import result_json
from pipelines.document import load_document
from pipelines.process import process_document

FETCHED_AT = datetime(2026, 1, 15, 12, 0, tzinfo=UTC)
SHOWN_DIFFERENCES = 10
SHOWN_CHARS = 200


def _outputs(sets: list[str]) -> Iterator[dict]:
    """Every output field of the route, page by page, datetimes as ISO strings."""
    for set_name in sets:
        for page_id, html, truth in load_set(set_name, None):
            doc = load_document(html, url=truth.get("url"), fetched_at=FETCHED_AT)
            article = asdict(extract_article(doc))
            yield {"page": f"{set_name}/{page_id}", **json.loads(json.dumps(article, default=str))}


def _pages_beyond_the_article_sets() -> Iterator[tuple[str, bytes, str | None]]:
    """(name, HTML, URL) of the page-type set's pages and of every real site's HTML page."""
    pagetype = SHARED / "data" / "pagetype"
    labels = json.loads((pagetype / "labels.json").read_text(encoding="utf-8"))
    for name in sorted(labels):
        yield f"pagetype/{name}", (pagetype / "html" / name).read_bytes(), labels[name].get("url")
    for site in sorted((SHARED / "data" / "realsites").glob("*/root")):
        for page in sorted(site.rglob("*.htm*")):
            path = page.relative_to(site).as_posix()
            yield (f"realsites/{site.parent.name}/{path}", page.read_bytes(),
                   f"http://127.0.0.1:8000/{path}")


def _full_outputs(sets: list[str]) -> Iterator[dict]:
    """The whole route's JSON (the `extract` command's fields) for every page."""
    pages = ((f"{name}/{page_id}", html, truth.get("url"))
             for name in sets for page_id, html, truth in load_set(name, None))
    for page, html, url in (*pages, *_pages_beyond_the_article_sets()):
        doc = load_document(html, url=url, fetched_at=FETCHED_AT)
        yield {"page": page, **result_json(process_document(doc))}


def dump(path: Path, sets: list[str], route: str = "article") -> int:
    rows = _full_outputs(sets) if route == "full" else _outputs(sets)
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    return 0


def _rows(path: Path) -> dict[str, dict]:
    """The dump's rows by page, without null fields: a field added to the route since the
    other dump was made (null on every page it does not concern) is no difference."""
    with path.open(encoding="utf-8") as lines:
        return {row["page"]: {key: value for key, value in row.items() if value is not None}
                for row in map(json.loads, lines)}


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


def compare(first: Path, second: Path) -> int:
    a, b = _rows(first), _rows(second)
    differing = [page for page in sorted(a.keys() | b.keys()) if a.get(page) != b.get(page)]
    print(f"{len(differing)} of {len(a.keys() | b.keys())} pages differ")
    for page in differing[:SHOWN_DIFFERENCES]:
        old, new = a.get(page, {}), b.get(page, {})
        for key in sorted(old.keys() | new.keys()):
            if old.get(key) != new.get(key):
                print(f"  {page} {key}:\n    - {_short(old.get(key))}"
                      f"\n    + {_short(new.get(key))}")
    return 1 if differing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump", help="write the route's outputs as JSON lines")
    dumping.add_argument("out", type=Path)
    dumping.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    dumping.add_argument("--route", choices=("article", "full"), default="article",
                         help="the article route alone, or the whole page route on every "
                              "shared page (page type, article or records)")
    comparing = commands.add_parser("compare", help="pages whose outputs differ")
    comparing.add_argument("first", type=Path)
    comparing.add_argument("second", type=Path)
    args = parser.parse_args(argv)
    if args.command == "dump":
        return dump(args.out, args.sets, args.route)
    return compare(args.first, args.second)


if __name__ == "__main__":
    sys.exit(main())
