"""`python -m pipelines COMMAND …`: the stable command-line interface.

Benchmarks and users script against these command names; keep them stable.
Each command lives in its own module exposing `main(argv) -> int`, imported
only when called so that one command's heavy imports never slow another.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "extract": ("pipelines.cli", "extract_main", "process one page, print one JSON object"),
    "batch": ("pipelines.cli", "batch_main", "process a JSONL list of pages, one JSON line each"),
    "train-pagetype": ("pipelines.pagetype.train", "main", "train the page-type model"),
    "train-labeller": ("pipelines.labelling.train", "main", "train the S0 node labeller"),
    "replay-spill": ("pipelines.persist", "replay_main", "write spilled items to the database"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in COMMANDS:
        print("usage: python -m pipelines {" + ",".join(COMMANDS) + "} …", file=sys.stderr)
        for name, (_, _, summary) in COMMANDS.items():
            print(f"  {name:16} {summary}", file=sys.stderr)
        return 2
    module_name, function_name, _ = COMMANDS[argv[0]]
    function = getattr(importlib.import_module(module_name), function_name)
    return int(function(argv[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
