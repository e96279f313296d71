"""`python -m PACKAGE COMMAND …`: the dispatcher behind `python -m crawler` and
`python -m pipelines`.

Each command lives in its own module exposing `main(argv) -> int`, imported only when
called, so that one command's heavy imports never slow another (or `--help`).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Mapping

from pipelines.log_lines import JSON_LINES, LogGuard, guard_root_logging

# name → (module, function, one-line summary)
Commands = Mapping[str, tuple[str, str, str]]
USAGE_ERROR = 2
SOME_FAILED = 1  # the command went through its input, and some items of it failed


def listing(prog: str, commands: Commands) -> str:
    """The usage line and every command with its one-line summary."""
    width = max(map(len, commands)) + 2
    lines = [f"usage: {prog} COMMAND [options]   ({prog} COMMAND --help: its options)", "",
             "commands:"]
    lines += [f"  {name:{width}}{summary}" for name, (_, _, summary) in commands.items()]
    return "\n".join(lines)


def dispatch(prog: str, commands: Commands, argv: list[str]) -> int:
    """Run the command `argv` names with the rest of `argv`; -h/--help lists the commands
    (exit 0), a missing or unknown command is one line plus the list on stderr (exit 2).
    Whatever the command logs goes through the log guard (pipelines/log_lines.py), as
    JSON lines when the environment's LOG_FORMAT is `json`."""
    if argv and argv[0] in ("-h", "--help"):
        print(listing(prog, commands))
        return 0
    if not argv or argv[0] not in commands:
        problem = f"unknown command {argv[0]!r}" if argv else "no command given"
        print(f"{prog}: {problem}\n{listing(prog, commands)}", file=sys.stderr)
        return USAGE_ERROR
    guard_root_logging(LogGuard.from_environment(os.environ),
                       json_lines=os.environ.get("LOG_FORMAT") == JSON_LINES)
    module_name, function_name, _ = commands[argv[0]]
    function = getattr(importlib.import_module(module_name), function_name)
    return int(function(argv[1:]) or 0)
