"""Log records are bounded excerpts without credentials or terminal control, whichever
logger wrote them; the command-line tools write through the same guard."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
from pathlib import Path

from pipelines.log_lines import (
    LOG_CONTEXT,
    MASK,
    GuardedFormatter,
    JsonLinesFormatter,
    LogGuard,
    bounded,
    mask_credentials,
    url_passwords,
)
from pipelines.params import LogLineParams

ROOT = Path(__file__).resolve().parents[3]
SMALL = LogLineParams(line_max_chars=80, record_max_lines=5)


def test_url_passwords_are_masked_wherever_they_are() -> None:
    text = ("db postgresql+psycopg2://crawler:s3cret@db.example.org/opinion, cache "
            "redis://:r3dis@127.0.0.1:6379/0, proxy http://user:pa@ss@proxy.example:3128/ ok")
    masked = mask_credentials(text)
    assert "s3cret" not in masked and "r3dis" not in masked and "pa@ss" not in masked
    assert f"crawler:{MASK}@db.example.org/opinion" in masked
    assert f"redis://:{MASK}@127.0.0.1:6379/0" in masked
    assert "http://host:8080/a@b" in mask_credentials("see http://host:8080/a@b")


def test_keyword_passwords_and_known_secrets_are_masked() -> None:
    secrets = url_passwords(["postgresql://u:p%40ss-word@h/d", "not a url", None,
                             "http://[::1/x"])
    assert set(secrets) == {"p%40ss-word", "p@ss-word"}
    masked = mask_credentials("dsn host=h password=hunter2 user=u; env PGPASSWORD p@ss-word",
                              secrets)
    assert "hunter2" not in masked and "p@ss-word" not in masked


def test_lines_and_records_are_cut_with_a_note_of_what_was_cut() -> None:
    text = "a" * 1000 + "\n" + "\n".join(f"line {n}" for n in range(100))
    out = bounded(text, SMALL).split("\n")
    assert len(out) == SMALL.record_max_lines
    assert all(len(line) <= SMALL.line_max_chars for line in out)
    assert out[0].endswith("[1000 characters]")
    assert out[-1].endswith("[96 more lines]")
    assert bounded("short\nlines", SMALL) == "short\nlines"


def test_control_characters_are_escaped() -> None:
    assert bounded("a\x1b[2Jb\rc\x00d\u2028e\tf", SMALL) == "a\\x1b[2Jb\\x0dc\\x00d\\u2028e\tf"


def test_a_secret_cut_by_the_excerpt_is_masked_all_the_same() -> None:
    secret = "S" * 30
    text = "x" * 70 + f"redis://:{secret}@h/0"
    out = LogGuard((secret,), SMALL)(text)
    assert "SSS" not in out and len(out) <= SMALL.line_max_chars


def test_a_huge_binary_record_becomes_an_excerpt() -> None:
    body = bytes(range(256)) * 80_000  # 20 MB
    out = LogGuard((), SMALL)(f"dropped {body!r}\n" + body.decode("latin-1"))
    assert len(out) <= SMALL.record_max_lines * (SMALL.line_max_chars + 1)


def test_the_formatter_guards_messages_and_tracebacks() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(GuardedFormatter(logging.Formatter("%(levelname)s %(message)s"),
                                          LogGuard(("topsecret",), SMALL)))
    logger = logging.getLogger("tests.log_lines")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        raise ValueError("topsecret " + "v" * 500)
    except ValueError:
        logger.exception("failed for postgresql://u:topsecret@h/d %s", "w" * 500)
    finally:
        logger.removeHandler(handler)
    written = stream.getvalue()
    assert written.startswith("ERROR failed for postgresql://u:***@h/d")
    assert "topsecret" not in written
    assert max(map(len, written.splitlines())) <= SMALL.line_max_chars


def test_the_command_line_tools_log_through_the_guard() -> None:
    """Any command run by the dispatcher: here one whose function is logging.warning, which
    logs its arguments (a long value and a URL with a password)."""
    code = ("import sys; from pipelines.subcommands import dispatch; "
            "sys.exit(dispatch('prog', {'say': ('logging', 'warning', '')}, sys.argv[1:]))")
    done = subprocess.run(
        [sys.executable, "-c", code, "say", "z" * 20_000, "redis://:envsecret@h/0"], cwd=ROOT,
        capture_output=True, text=True, timeout=60, check=False,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": "postgresql://u:envsecret@h/d"})
    assert done.returncode == 0, done.stderr
    assert "zzzz" in done.stderr and "envsecret" not in done.stderr
    assert max(map(len, done.stderr.splitlines())) <= LogLineParams().line_max_chars


def _json_line(guard: LogGuard, record: logging.LogRecord) -> dict[str, object]:
    line = JsonLinesFormatter(guard).format(record)
    assert "\n" not in line
    return json.loads(line)


def test_json_lines_carry_the_fields_guarded() -> None:
    guard = LogGuard(("s3cret",), SMALL)
    record = logging.LogRecord("crawler.x", logging.WARNING, __file__, 1,
                               "fetch failed %s: %s", ("http://u:s3cret@a.cn/p", "x" * 500),
                               None)
    LOG_CONTEXT.update(run=7, source="example-news")
    try:
        line = _json_line(guard, record)
    finally:
        LOG_CONTEXT.clear()
    assert line["level"] == "WARNING" and line["logger"] == "crawler.x"
    assert line["run"] == 7 and line["source"] == "example-news"
    assert str(line["time"]).endswith("Z")
    message = str(line["message"])
    assert "s3cret" not in message and MASK in message
    assert len(message) <= SMALL.line_max_chars and "characters]" in message


def test_json_lines_keep_a_record_s_own_run_and_its_traceback() -> None:
    try:
        raise ValueError("bad\npage")
    except ValueError:
        record = logging.LogRecord("crawler.y", logging.ERROR, __file__, 1, "broke", (),
                                   sys.exc_info())
    record.run = 12
    line = _json_line(LogGuard(), record)
    assert line["run"] == 12 and "source" not in line
    assert "ValueError: bad" in str(line["exception"])

