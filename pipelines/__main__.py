"""`python -m pipelines COMMAND …`: the stable command-line interface.

Benchmarks and users script against these command names; keep them stable.
Each command lives in its own module exposing `main(argv) -> int`, imported
only when called so that one command's heavy imports never slow another.
"""

from __future__ import annotations

import sys

from pipelines.subcommands import dispatch

COMMANDS = {
    "extract": ("pipelines.cli", "extract_main", "process one page, print one JSON object"),
    "batch": ("pipelines.cli", "batch_main", "process a JSONL list of pages, one JSON line each"),
    "train-pagetype": ("pipelines.training", "train_pagetype", "train the page-type model"),
    "train-labeller": ("pipelines.training", "train_labeller", "train the node labeller"),
}


def main(argv: list[str] | None = None) -> int:
    """Run one command; `--help` lists them all."""
    return dispatch("python -m pipelines", COMMANDS, sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
