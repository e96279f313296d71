"""Command line: `serve` the demo site, or write its ground `truth` to a JSON file."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from tests.demosite.server import DemoServer
from tests.demosite.site import Site


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tests.demosite", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the site until killed")
    serve.add_argument("--port", type=int, required=True)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--faults", action="store_true", help="enable /faults/ endpoints")
    serve.add_argument("--slow-seconds", type=float, default=5.0,
                       help="delay of /faults/slow.html")
    serve.add_argument("--verbose", action="store_true", help="log every request")
    truth = commands.add_parser("truth", help="write path -> truth record as JSON")
    truth.add_argument("--out", type=Path, required=True)
    for command in (serve, truth):
        command.add_argument("--seed", type=int, default=0)
        command.add_argument("--edition", type=int, default=0)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit status."""
    args = _parser().parse_args(argv)
    if args.command == "truth":
        truth = Site(seed=args.seed, edition=args.edition).ground_truth()
        args.out.write_text(json.dumps(truth, ensure_ascii=False, indent=1), encoding="utf-8")
        print(f"wrote {len(truth)} pages to {args.out}", file=sys.stderr)
        return 0
    server = DemoServer(args.seed, args.edition, host=args.host, port=args.port,
                        faults=args.faults, slow_seconds=args.slow_seconds, verbose=args.verbose)
    print(f"demo site (seed {args.seed}, edition {args.edition}) at {server.url}",
          file=sys.stderr, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
