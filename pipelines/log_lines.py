"""Log lines safe to write: bounded excerpts, no credentials, no terminal control.

A hostile server chooses much of what a crawl may log (URLs, headers, error messages, once
a whole binary body), and a process's environment holds the database's and Redis's URLs
with their passwords. Every record a handler writes goes through one guard, whatever
logger made it: passwords are masked (a URL's user information anywhere, and the known
secrets wherever they appear), control characters escaped, each line cut to an excerpt and
each record to a number of lines. The guard is a formatter around the handler's own, so
the format, colours and destination stay the handler's.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import unquote, urlsplit

from pipelines.params import LOG_LINES, LogLineParams

MASK = "***"
# The password of a URL's user information (scheme://user:password@host), up to the last
# '@' of the authority.
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s/?#@:]*:)[^\s/?#]*@")
# key=value passwords, as in libpq connection strings and driver messages.
_KEYWORD_PASSWORD = re.compile(r"(?i)\b((?:password|passwd|pwd)\s*=\s*)[^\s&;,]+")
# Control characters but tab and newline, and the characters some viewers take for a line
# break, written as escapes: no record rewrites a terminal or splits into forged lines.
_ESCAPES = {code: f"\\x{code:02x}" for code in (*range(0x09), *range(0x0b, 0x20), 0x7f,
                                               *range(0x80, 0xa0))}
_ESCAPES.update({0x2028: "\\u2028", 0x2029: "\\u2029"})


def url_passwords(values: Iterable[str | None]) -> tuple[str, ...]:
    """The passwords of the URLs among `values` (environment variables, settings), as
    written and percent-decoded: the secrets a log must never show."""
    found: set[str] = set()
    for value in values:
        if not value or "://" not in value:
            continue
        try:
            password = urlsplit(value.strip()).password
        except ValueError:  # a value no URL parser reads
            continue
        if password:
            found.update({password, unquote(password)})
    return tuple(sorted(found, key=len, reverse=True))  # the longest first: no half-masks


def mask_credentials(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with URL and key=value passwords, and every known secret, replaced by MASK."""
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, MASK)
    if "://" in text:
        text = _URL_PASSWORD.sub(rf"\g<1>{MASK}@", text)
    return _KEYWORD_PASSWORD.sub(rf"\g<1>{MASK}", text)


def bounded(text: str, params: LogLineParams = LOG_LINES, secrets: Iterable[str] = ()) -> str:
    """At most `record_max_lines` lines of at most `line_max_chars` characters each, masked
    (mask_credentials) and with control characters escaped; what is cut is counted in a note
    that ends the cut line or record.

    Only the head of each kept line is masked, so a huge record costs no more than a short
    one: twice the kept length plus the longest secret, enough that a secret or URL that
    begins in the excerpt is whole where it is masked."""
    secrets = tuple(secrets)
    lines = text.split("\n", params.record_max_lines)
    more = lines.pop().count("\n") + 1 if len(lines) > params.record_max_lines else 0
    head = 2 * params.line_max_chars + max(map(len, secrets), default=0)
    kept = [_line(mask_credentials(line[:head], secrets), len(line), params.line_max_chars)
            for line in lines]
    if more:
        note = f" … [{more} more lines]"
        kept[-1] = kept[-1][:max(params.line_max_chars - len(note), 0)] + note
    return "\n".join(kept)


def _line(line: str, length: int, max_chars: int) -> str:
    """One line (the head of one `length` characters long), escaped, cut to `max_chars` with
    a note of its length."""
    excerpt = line[:max_chars].translate(_ESCAPES)
    if length <= max_chars and len(line) <= max_chars and len(excerpt) <= max_chars:
        return excerpt
    note = f" … [{length} characters]"
    return excerpt[:max(max_chars - len(note), 0)] + note


@dataclass(frozen=True)
class LogGuard:
    """What every written record goes through: masking, then bounding."""

    secrets: tuple[str, ...] = ()
    params: LogLineParams = LOG_LINES

    @classmethod
    def from_environment(cls, environ: Mapping[str, str], urls: Iterable[str | None] = (),
                         params: LogLineParams = LOG_LINES) -> LogGuard:
        """A guard for the passwords of every URL in the environment and in `urls`."""
        return cls(url_passwords([*environ.values(), *urls]), params)

    def __call__(self, text: str) -> str:
        return bounded(text, self.params, self.secrets)


class GuardedFormatter(logging.Formatter):
    """Another formatter's output (message, traceback and all) through a LogGuard."""

    def __init__(self, inner: logging.Formatter, guard: LogGuard) -> None:
        super().__init__()
        self.inner = inner
        self.guard = guard

    def format(self, record: logging.LogRecord) -> str:
        return self.guard(self.inner.format(record))


# The value of LOG_FORMAT (setting or environment variable) that asks for JSON lines.
JSON_LINES = "json"
# Fields every JSON line of this process carries when known (a crawl's own run and source);
# a record's own `extra={"run": …, "source": …}` wins.
LOG_CONTEXT: dict[str, object] = {}
_CONTEXT_FIELDS = ("run", "source")


class JsonLinesFormatter(logging.Formatter):
    """One JSON object per record, on one line: time (UTC, ISO 8601), level, logger,
    message, and run and source when known (`LOG_CONTEXT`, or the record's own). The message
    and the traceback (field `exception`) go through the guard, as a text line would: masked,
    escaped, each line of them cut; the newlines between their lines are JSON's `\\n`."""

    def __init__(self, guard: LogGuard) -> None:
        super().__init__()
        self.guard = guard

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname, "logger": record.name,
            "message": self.guard(record.getMessage())}
        for field in _CONTEXT_FIELDS:
            value = getattr(record, field, LOG_CONTEXT.get(field))
            if value is not None:
                line[field] = value
        if record.exc_info:
            line["exception"] = self.guard(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


def guard_root_logging(guard: LogGuard, level: int | None = None,
                       fmt: str | None = None, json_lines: bool = False) -> None:
    """Make every handler of the root logger write through `guard`. Without a handler, one
    writing to stderr is added, with bare messages as Python's last-resort handler writes
    them; `level` sets the root's level, `fmt` the handlers' format, `json_lines` makes
    them write JSON lines instead (`JsonLinesFormatter`). Call it again after anything
    replaces the handlers (Scrapy does when a crawler starts)."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.StreamHandler())
    if level is not None:
        root.setLevel(level)
    for handler in root.handlers:
        inner = handler.formatter
        if json_lines or isinstance(inner, JsonLinesFormatter):
            handler.setFormatter(JsonLinesFormatter(guard))
            continue
        if isinstance(inner, GuardedFormatter):
            inner = inner.inner
        if fmt is not None or inner is None:
            inner = logging.Formatter(fmt)
        handler.setFormatter(GuardedFormatter(inner, guard))
