"""Every shell and SQL block of README.md runs, in order, as a user would run it.

The README's example names stand for this machine's services (`EXAMPLES`): its
`news.example.cn` is the demo site served by the test, its database the test's
PostgreSQL database or SQLite file, its Redis a database of the test's own. The walk
runs once per store; a block preceded by `<!-- store: NAME -->` runs on that store
only, and one marked `<!-- store: stack -->` against the containers of compose.yaml, by
tests/integration/deploy/test_stack.py. A README edit that breaks a block, or a block no walk
runs, fails here.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from models.db import PROJECT_ROOT as ROOT
from tests.crawling import stored
from tests.demosite import DemoServer
from tests.services import redis_database
from tests.unit.pipelines.test_cli import ARTICLE, LISTING

README = ROOT / "README.md"
STORES = ("postgresql", "sqlite")
STACK = "stack"  # the PostgreSQL of compose.yaml's stack: tests/integration/deploy/test_stack.py
# Lines of the first block the suite cannot run inside itself.
NOT_RUN = {"make test": "the command that runs this very suite"}
_FENCE = re.compile(r"(?:<!-- store: (\w+) -->\n)?^```(\w+)\n(.*?)^```$", re.M | re.S)


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, its text, the store it is limited to (if any)."""

    language: str
    text: str
    store: str | None
    line: int

    def runs_on(self, store: str) -> bool:
        return self.store in (None, store)


def readme_blocks() -> list[Block]:
    source = README.read_text(encoding="utf-8")
    return [Block(match.group(2), match.group(3), match.group(1),
                  source.count("\n", 0, match.start(2)) + 1)
            for match in _FENCE.finditer(source)]


def _walk_blocks() -> list[Block]:
    """Every block after the first (the two commands, run by their own test)."""
    return readme_blocks()[1:]


def _substitute(block_text: str, examples: dict[str, str]) -> str:
    """The README's example names replaced by this machine's (longest name first)."""
    for name in sorted(examples, key=len, reverse=True):
        block_text = re.sub(rf"(?<![\w/.]){re.escape(name)}", examples[name], block_text)
    return block_text


def _run_shell(script: str, env: dict[str, str],
               state: Path) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """Run a block with bash, stopping at the first failing command, and return the
    environment it leaves, for the next block (one terminal session, as a user's).
    Processes the block leaves in the background are sent SIGTERM when it ends; `state`
    is a scratch file for the environment."""
    process = subprocess.Popen(["bash", "-euo", "pipefail", "-c", f"{script}\nenv -0 > {state}"],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=600)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
    left = dict(entry.split("=", 1) for entry in state.read_text().split("\0") if "=" in entry) \
        if state.exists() else env
    state.unlink(missing_ok=True)
    return subprocess.CompletedProcess(script, process.returncode, stdout, stderr), left


def _run_sql(block: Block, database_url: str, examples: dict[str, str]) -> list[int]:
    """Each statement of a block on one store; returns the row count of each SELECT."""
    counts = []
    engine = create_engine(database_url)
    statements = [s for s in _substitute(block.text, examples).split(";\n") if s.strip()]
    with engine.begin() as connection:
        for statement in statements:
            result = connection.execute(text(statement.strip().rstrip(";")))
            if result.returns_rows:
                counts.append(len(result.all()))
    engine.dispose()
    return counts


@pytest.fixture
def user_files(tmp_path: Path) -> dict[str, str]:
    """The files the README's extraction examples name."""
    (tmp_path / "page.html").write_bytes(ARTICLE.encode("gbk"))
    (tmp_path / "other.html").write_bytes(ARTICLE.replace("召开会议", "发布通知").encode("gbk"))
    (tmp_path / "list.html").write_text(LISTING, encoding="utf-8")
    (tmp_path / "pages.jsonl").write_text(
        f'{{"id": 1, "path": "{tmp_path / "page.html"}"}}\n'
        f'{{"id": 2, "path": "{tmp_path / "list.html"}", "url": "https://a.cn/news/"}}\n',
        encoding="utf-8")
    return {name: str(tmp_path / name) for name in ("page.html", "other.html", "pages.jsonl")}


def _walk_env(journal: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "REDIS_URL")}
    return {**env, "JOURNAL_DIR": str(journal), "MAX_IDLE_TIME_BEFORE_CLOSE": "4",
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"}


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(store name, URL) for one walk: a migrated-by-the-README empty database."""
    if request.param == "postgresql":
        yield "postgresql", request.getfixturevalue("empty_pg_url")
    else:
        yield "sqlite", f"sqlite:///{tmp_path / 'readme.sqlite3'}"


def test_every_block_runs_on_some_store() -> None:
    blocks = readme_blocks()
    assert blocks and blocks[0].language == "sh"
    assert {block.language for block in blocks} == {"sh", "sql"}
    assert all(block.store in (None, *STORES, STACK) for block in blocks)


@pytest.fixture(scope="module")
def two_commands() -> list[subprocess.CompletedProcess[str]]:
    """The first block's commands, run once for the module: `make demo`; `make test` is this
    suite."""
    first = readme_blocks()[0]
    lines = [line.split("#")[0].strip() for line in first.text.splitlines()]
    assert [line for line in lines if line] == ["make demo", "make test"]
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    return [subprocess.run(line, shell=True, cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=600, check=False)
            for line in lines if line and line not in NOT_RUN]


def test_the_two_commands_block_runs(two_commands: list[subprocess.CompletedProcess[str]]) -> None:
    assert len(two_commands) == 1  # `make demo`
    for done in two_commands:
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
        assert "Traceback" not in done.stderr, done.stderr[-3000:]
        assert re.search(r"agrees with the site's ground truth on \d+/\d+", done.stdout)


def test_the_demo_uses_its_own_store_emptied_per_run(
        two_commands: list[subprocess.CompletedProcess[str]], pg_url: str,
        tmp_path: Path) -> None:
    """Neither an exported DATABASE_URL nor an earlier demo run (the module's `make demo`)
    mixes with a demo's pages. Here, as the demo's store is the project's var/demo.sqlite3,
    which the README's blocks use too (tests/conftest.py)."""
    assert two_commands[0].returncode == 0, two_commands[0].stderr[-3000:]
    env = {**os.environ, "DATABASE_URL": pg_url, "JOURNAL_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "tests.demosite.demo"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    crawled = int(re.search(r"^Crawled (\d+) pages", done.stdout, re.M).group(1))
    assert "var/demo.sqlite3" in done.stdout
    assert stored(pg_url) == {}
    assert len(stored(f"sqlite:///{ROOT / 'var' / 'demo.sqlite3'}")) == crawled


def test_the_readme_walk_runs_on_each_store(store: tuple[str, str], user_files: dict[str, str],
                                            tmp_path: Path) -> None:
    name, database_url = store
    with DemoServer() as server, redis_database(14) as readme_redis:
        examples = {"https://news.example.cn/": server.url + "/",
                    "https://bbs.example.cn/forum.php": server.url + "/forum/",
                    "news.example.cn": "127.0.0.1",
                    "postgresql+psycopg2://crawler@db.example.org/opinion": database_url,
                    "redis://redis.example.org:6379/0": readme_redis, **user_files}
        env = _walk_env(tmp_path / "journal")
        selected = []
        for block in _walk_blocks():
            if not block.runs_on(name):
                continue
            if block.language == "sql":
                selected += [(block.line, count)
                             for count in _run_sql(block, database_url, examples)]
                continue
            done, env = _run_shell(_substitute(block.text, examples), env,
                                   tmp_path / "shell.env")
            assert done.returncode == 0, (block.line, done.stderr[-3000:])
            assert "Traceback" not in done.stderr, (block.line, done.stderr[-3000:])
    assert selected and all(count > 0 for _, count in selected), selected
