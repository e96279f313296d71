"""Export at scale: `python -m crawler export` over bench.filled's stores, as a user runs it
(its own process, every row, to a file), with its peak memory and rate.

The export's promise is constant memory however many rows the store holds: the same
command on a small store and on a store of 1,000,000 articles should peak at about the
same resident size, and its rate should not fall with the store (each chunk's scan starts
where the last one ended). The stores are bench.filled's templates (filled first if need
be: over an hour at a million), read in place: an export only reads.

    python -m bench.export [--stores 2000 1000000] [--formats jsonl csv]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.filled import ADMIN_URL, ensure_template, url_of
from bench.trap import peak_rss_mb

MEMORY_POLL_SECONDS = 0.05  # VmHWM only rises: a poll this often misses no lasting peak


@dataclass(frozen=True)
class Exported:
    """One export's figures: rows written, wall and CPU seconds, peak resident memory,
    bytes written."""

    rows: int
    seconds: float
    cpu_seconds: float
    peak_mb: float
    bytes: int


def export(database_url: str, form: str) -> Exported:
    """Run the export command into a temporary file; its peak memory polled from /proc."""
    with tempfile.TemporaryDirectory() as directory:
        output, log = Path(directory) / f"export.{form}", Path(directory) / "stderr"
        started = time.perf_counter()
        peak, before = 0.0, resource.getrusage(resource.RUSAGE_CHILDREN)
        with log.open("w") as stderr:
            process = subprocess.Popen(
                [sys.executable, "-m", "crawler", "export", "--format", form, "--output",
                 str(output), "--database-url", database_url], stderr=stderr)
            while process.poll() is None:  # its own peak: rusage would count the fork's
                peak = max(peak, peak_rss_mb(process.pid))
                time.sleep(MEMORY_POLL_SECONDS)
        seconds = time.perf_counter() - started
        if process.returncode != 0:
            raise RuntimeError(f"export failed ({process.returncode}): "
                               f"{log.read_text()[-2000:]}")
        with output.open("rb") as written:
            rows = sum(1 for _ in written) - (1 if form == "csv" else 0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return Exported(rows, seconds, cpu, peak, output.stat().st_size)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.export")
    parser.add_argument("--stores", type=int, nargs="+", default=[2000, 1_000_000],
                        help="articles in each bench.filled store exported")
    parser.add_argument("--formats", nargs="+", choices=("jsonl", "csv"),
                        default=["jsonl", "csv"])
    parser.add_argument("--admin-url", default=ADMIN_URL)
    args = parser.parse_args(argv)
    urls = {count: url_of(args.admin_url, ensure_template(count, args.admin_url))
            for count in args.stores}
    print("| store | format | rows | s | rows/s | CPU µs a row | peak RSS MB | MB written |")
    print("|---|---|---|---|---|---|---|---|")
    for count, url in urls.items():
        for form in args.formats:
            done = export(url, form)
            print(f"| {count:,} | {form} | {done.rows:,} | {done.seconds:.1f} | "
                  f"{done.rows / done.seconds:,.0f} | "
                  f"{done.cpu_seconds / max(done.rows, 1) * 1e6:.0f} | {done.peak_mb:.1f} | "
                  f"{done.bytes / 1e6:,.0f} |", flush=True)
    print(f"(load average {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
