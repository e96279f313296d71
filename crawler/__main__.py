"""`python -m crawler COMMAND`: demo (crawl the local demo site), migrate (create/upgrade the
schema), schedule (push due sources to the shared Redis frontier)."""

from __future__ import annotations

import importlib
import sys

COMMANDS = {
    "demo": ("crawler.demo", "main", "serve the demo site, crawl it, print a summary"),
    "migrate": ("crawler.migrate", "main", "bring the database schema to the latest version"),
    "schedule": ("crawler.cluster.schedule", "main", "start runs of due sources (Redis mode)"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in COMMANDS:
        print("usage: python -m crawler {" + ",".join(COMMANDS) + "} …", file=sys.stderr)
        for name, (_, _, summary) in COMMANDS.items():
            print(f"  {name:10} {summary}", file=sys.stderr)
        return 2
    module_name, function_name, _ = COMMANDS[argv[0]]
    return int(getattr(importlib.import_module(module_name), function_name)(argv[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main())
