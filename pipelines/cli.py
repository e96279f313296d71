"""`python -m pipelines extract|batch`: the pipeline on files, for users and benchmarks.

The JSON field names are a stable interface: scripts and benchmarks read them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from pipelines.article.dates.zones import zone_named
from pipelines.deadline import Deadline
from pipelines.document import Document, NotHtmlError, load_document
from pipelines.params import PAGE_BOUNDS
from pipelines.process import PageResult, process_document
from pipelines.results import PAGE_TYPES, comment_json, record_json
from pipelines.subcommands import SOME_FAILED, USAGE_ERROR


def result_json(result: PageResult) -> dict[str, Any]:
    """The stable JSON shape of one processed page."""
    article, listing, decision = result.article, result.listing, result.decision
    return {
        "page_type": decision.page_type,
        "type_confidence": round(decision.confidence, 4),
        "type_decided_by": decision.decided_by,
        "title": article.title if article else None,
        "author": article.author if article else None,
        "source": article.source if article else None,
        "published_at": article.published_at.isoformat() if article and article.published_at
        else None,
        "published_raw": article.published_raw if article else None,
        "language": article.language if article else None,
        "content_text": article.content_text if article else "",
        "content_html": article.content_html if article else "",
        "comments": [comment_json(c) for c in article.comments] if article else [],
        "records": [record_json(r) for r in listing.records] if listing else [],
        "next_page": listing.next_page if listing else None,
        "out_of_time": result.out_of_time,
    }


def process_file(path: Path, url: str | None, sibling: Path | None,
                 forced_type: str | None, zone: ZoneInfo | None = None,
                 time_budget: float | None = PAGE_BOUNDS.time_budget_seconds) -> dict[str, Any]:
    """Process the page at `path` within `time_budget` CPU seconds (None: no limit);
    OSError or NotHtmlError name the file that failed."""
    deadline = Deadline.after(time_budget)
    doc = _load(path, url, zone)
    sibling_doc = _load(sibling, None, None) if sibling else None
    result = result_json(process_document(doc, sibling_doc, forced_type, deadline=deadline))
    return {**result, "capped": sorted(doc.capped)}


def _load(path: Path, url: str | None, zone: ZoneInfo | None) -> Document:
    try:
        return load_document(path.read_bytes(), url=url, zone=zone)
    except NotHtmlError as error:
        raise NotHtmlError(f"{path}: {error}") from None


def _input_error(command: str, error: OSError | NotHtmlError) -> int:
    """One line on stderr for a file that cannot be used (missing, a directory, unreadable,
    not HTML), and the usage-error exit status: a user's slip is no traceback."""
    problem = (f"cannot read {error.filename}: {error.strerror}" if isinstance(error, OSError)
               else str(error))
    print(f"python -m pipelines {command}: {problem}", file=sys.stderr)
    return USAGE_ERROR


def extract_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipelines extract")
    parser.add_argument("page", type=Path, help="HTML file (any encoding)")
    parser.add_argument("--url", help="the page's URL (resolves links, feeds URL rules)")
    parser.add_argument("--sibling", type=Path, help="a same-template page, to strip the template")
    parser.add_argument("--type", choices=PAGE_TYPES, help="force the route, skip classification")
    parser.add_argument("--timezone", type=_zone_argument,
                        help="the zone the site writes its times in (IANA name), where the "
                             "page's domain or language does not settle it")
    parser.add_argument("--time-budget", type=float, default=PAGE_BOUNDS.time_budget_seconds,
                        metavar="SECONDS",
                        help="CPU seconds the page may take; what is left when they run out "
                             "is skipped and out_of_time names the stage (0: no limit; "
                             "default %(default)s)")
    args = parser.parse_args(argv)
    try:
        result = process_file(args.page, args.url, args.sibling, args.type, args.timezone,
                              args.time_budget)
    except (OSError, NotHtmlError) as error:
        return _input_error("extract", error)
    print(json.dumps(result, ensure_ascii=False))
    return 0


def _zone_argument(name: str) -> ZoneInfo:
    try:
        return zone_named(name)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def _batch_line(line: bytes) -> dict[str, Any]:
    """One input line's output: the page's result, or `error` naming what failed (a line
    that is not UTF-8 or not a JSON object, a page that cannot be read or processed)."""
    output: dict[str, Any] = {"id": None}
    try:
        task = json.loads(line.decode("utf-8"))
        if not isinstance(task, dict):
            raise ValueError(f"a task is a JSON object, not {type(task).__name__}")
        output["id"] = task.get("id")
        sibling = task.get("sibling_path")
        zone = zone_named(task["timezone"]) if task.get("timezone") else None
        output.update(process_file(Path(task["path"]), task.get("url"),
                                   Path(sibling) if sibling else None, task.get("type"), zone))
        output["error"] = None
    except Exception as error:  # noqa: BLE001 - one bad page must not stop the batch
        output["error"] = f"{type(error).__name__}: {error}"
    return output


def _print_json(output: dict[str, Any]) -> None:
    """One output line, as UTF-8 text; JSON's ASCII escapes where a value holds what UTF-8
    cannot carry (a lone surrogate spelled as a JSON escape in a task's id)."""
    try:
        print(json.dumps(output, ensure_ascii=False), flush=True)
    except UnicodeEncodeError:
        print(json.dumps(output), flush=True)


def batch_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pipelines batch",
        epilog=f"Exit status {SOME_FAILED} when any line's output has an error.")
    parser.add_argument("input", type=Path,
                        help='JSONL: {"id", "path", "url"?, "sibling_path"?, "type"?, '
                             '"timezone"?} per line')
    args = parser.parse_args(argv)
    try:
        lines = args.input.open("rb")  # decoded line by line: one bad byte costs one line
    except OSError as error:
        return _input_error("batch", error)
    failed = False
    with lines:
        for line in lines:
            if line.strip():
                output = _batch_line(line)
                failed = failed or output["error"] is not None
                _print_json(output)
    return SOME_FAILED if failed else 0
