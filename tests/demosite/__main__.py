"""Command line: `serve` the demo site (`--live`: the live site, its clock started at once,
its truth log written to `--truth-out` when stopped), or write its ground `truth` to a JSON
file."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from tests.demosite.live import LiveConfig
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
    serve.add_argument("--live", action="store_true",
                       help="publish articles and comments over time (tests/demosite/live.py)")
    serve.add_argument("--scale", type=float, default=LiveConfig.scale,
                       help="live: simulated seconds per wall second")
    serve.add_argument("--hours", type=float, default=LiveConfig.duration / 3600,
                       help="live: simulated hours of changes")
    serve.add_argument("--truth-out", type=Path,
                       help="live: write the truth log (what appeared when) here on exit")
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
    live = LiveConfig(scale=args.scale, duration=args.hours * 3600) if args.live else None
    server = DemoServer(args.seed, args.edition, host=args.host, port=args.port,
                        faults=args.faults, slow_seconds=args.slow_seconds, verbose=args.verbose,
                        live=live)
    print(f"demo site (seed {args.seed}, edition {args.edition}{', live' if live else ''}) "
          f"at {server.url}", file=sys.stderr, flush=True)
    if server.live is not None:
        server.live.start()
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    if server.live is not None and args.truth_out:
        server.live.site()  # the changes due by now, logged
        args.truth_out.write_text(json.dumps(server.live.truth, ensure_ascii=False, indent=1),
                                  encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
