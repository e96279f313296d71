"""`python -m crawler COMMAND`: migrate (create/upgrade the schema), schedule (push due sources
to the shared Redis frontier), status (what the crawl is doing now), replay-spill (write
journalled items a crawl could not store), search, reindex (the search index), export, watch,
alerts, api, and sources (import/export).
The demo crawl is `make demo` (`tests/demosite/demo.py`)."""

from __future__ import annotations

import sys

from pipelines import dispatch

COMMANDS = {
    "migrate": ("crawler.migrate", "main", "bring the database schema to the latest version"),
    "schedule": ("crawler.cluster.schedule", "main", "start runs of due sources (Redis mode)"),
    "status": ("crawler.status.command", "main", "runs in flight, the shared queue, workers"),
    "replay-spill": ("crawler.replay", "main", "write spilled items to the database"),
    "search": ("reading.cli", "search_main", "search stored articles, comments and records"),
    "reindex": ("reading.cli", "reindex_main", "rebuild the search index of stored pages"),
    "export": ("reading.export", "export_main", "stream stored results as JSON lines or CSV"),
    "watch": ("reading.watch_cli", "watch_main", "add, list or remove watches (standing queries)"),
    "alerts": ("reading.watch_cli", "alerts_main",
               "list alerts (--health: crawl-health alerts); deliver what is due"),
    "api": ("reading.api", "main", "serve the HTTP API (search, articles, watches, alerts)"),
    "sources": ("crawler.source_file", "main", "import or export sources as YAML or JSON"),
}


def main(argv: list[str] | None = None) -> int:
    """Run one command; `--help` lists them all."""
    return dispatch("python -m crawler", COMMANDS, sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
