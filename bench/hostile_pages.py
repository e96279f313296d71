"""Time and memory of hostile pages through `python -m pipelines extract`, one process each.

    python -m bench.hostile_pages [--pages link_list big_table …] [--timeout 120] [--small]
                                  [--code CHECKOUT]

Each generated page (tests/hostile_pages.py, at the scale issue 24 measured, or the
suite's smaller one with --small) is written to a temporary file and extracted in its own
process with an article URL; prints its size, CPU seconds, peak RSS, page type and how much
came out (body characters, records), and the stage where it ran out of its time budget.
`--code` runs another checkout's pipeline (e.g. the main branch's, for the figures before).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from tempfile import TemporaryDirectory

from tests.hostile_pages import HOSTILE_PAGES, extract_in_subprocess


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.hostile_pages")
    parser.add_argument("--pages", nargs="+", choices=sorted(HOSTILE_PAGES),
                        default=list(HOSTILE_PAGES))
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="wall seconds before a run is killed")
    parser.add_argument("--small", action="store_true", help="the suite's smaller scales")
    parser.add_argument("--code", type=Path, help="the checkout whose pipeline runs")
    args = parser.parse_args()
    print("| page | MB | CPU s | peak RSS MB | page type | body chars | records | out of time in |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.pages:
        generate, full, small = HOSTILE_PAGES[name]
        page = generate(small if args.small else full)
        with TemporaryDirectory() as folder:
            run = extract_in_subprocess(page, Path(folder), args.timeout, code=args.code)
        out = run.output or {}
        state = "killed" if run.returncode and run.returncode < 0 else (
            f"exit {run.returncode}" if run.returncode else "")
        print(f"| {name} | {len(page) / 1e6:.1f} | {run.cpu_seconds:.2f} | "
              f"{run.peak_rss_mb:.0f} | {out.get('page_type', state)} | "
              f"{len(out.get('content_text') or '')} | {len(out.get('records') or [])} | "
              f"{out.get('out_of_time') or ''} |", flush=True)


if __name__ == "__main__":
    main()
