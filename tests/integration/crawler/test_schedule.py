"""`python -m crawler schedule`: cron on the source's clock, one run per due source however
many schedulers run, and a line that says what it did or why it cannot (real services)."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from alembic import command
from redis import Redis
from sqlalchemy import create_engine, func, select, text
from sqlalchemy.engine import make_url

from crawler.cluster import keys, schedule
from models import CrawlRun, Source
from models.db import session_factory
from models.schema import alembic_config
from tests.crawling import ROOT
from tests.services import redis_database
from tests.tcp_proxy import TcpProxy

NEW_YORK = ZoneInfo("America/New_York")


@pytest.fixture
def schedule_redis() -> Iterator[str]:
    with redis_database(11) as url:
        yield url


def _source(name: str = "news", *, cron: str | None = None, interval: int | None = None,
            last: datetime | None = None, settings: dict | None = None) -> Source:
    return Source(name=name, start_urls=[f"https://{name}.example.cn/", f"https://{name}.example.cn/b/"],
                  allowed_domains=[], page_type_rules=[], settings=settings or {},
                  interval_seconds=interval, cron=cron, last_scheduled_at=last, enabled=True)


def _store(url: str, *sources: Source) -> None:
    with session_factory(url).begin() as session:
        session.add_all(sources)


def _runs_per_source(url: str) -> dict[str, list[int]]:
    with session_factory(url)() as session:
        rows = session.execute(select(Source.name, CrawlRun.id).join(
            CrawlRun, CrawlRun.source_id == Source.id).order_by(CrawlRun.id)).all()
    runs: dict[str, list[int]] = {}
    for name, run_id in rows:
        runs.setdefault(name, []).append(run_id)
    return runs


def _pushed(redis: str) -> list[dict]:
    return [json.loads(entry) for entry in Redis.from_url(redis).lrange(
        keys.start_urls(schedule.SPIDER), 0, -1)]


def _run_count(url: str) -> int:
    with session_factory(url)() as session:
        return session.scalar(select(func.count()).select_from(CrawlRun))


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "crawler", "schedule", *args]


def _env(**values: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items()
           if name not in ("REDIS_URL", "DATABASE_URL")}
    return {**env, **values}


def _schedule(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_command(*args), cwd=ROOT, env=_env(**env), capture_output=True,
                          text=True, timeout=120, check=False)


@contextmanager
def _source_table_held(url: str) -> Iterator[Callable[[int], None]]:
    """Hold the source table so that schedulers block reading it; yields a wait for N of
    them to be blocked. Leaving releases them all at once: they read the same due sources."""
    engine = create_engine(url)
    holder = engine.connect()
    transaction = holder.begin()
    holder.execute(text("LOCK TABLE source IN ACCESS EXCLUSIVE MODE"))

    def blocked(count: int) -> None:
        deadline = time.monotonic() + 60
        while True:
            with engine.connect() as probe:  # a snapshot of pg_stat_activity per transaction
                waiting = probe.scalar(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event_type = 'Lock'"))
            if waiting >= count:
                return
            assert time.monotonic() < deadline, "the schedulers never read the sources"
            time.sleep(0.05)

    try:
        yield blocked
    finally:
        transaction.rollback()
        holder.close()
        engine.dispose()


def _wait_for(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.1)


# Cron on the source's clock


def test_a_cron_is_read_on_the_clock_of_the_sources_time_zone() -> None:
    source = _source(cron="0 8 * * *", settings={"timezone": "Asia/Shanghai"},
                     last=datetime(2024, 5, 1, 0, 30, tzinfo=UTC))  # 08:30 in Beijing
    assert not schedule.is_due(source, datetime(2024, 5, 1, 8, 0, tzinfo=UTC))  # 16:00 there
    assert not schedule.is_due(source, datetime(2024, 5, 1, 23, 59, 59, tzinfo=UTC))
    assert schedule.is_due(source, datetime(2024, 5, 2, 0, 0, tzinfo=UTC))  # 08:00 there


def test_a_cron_without_a_zone_is_read_on_the_machines_clock_across_dst(
        caplog: pytest.LogCaptureFixture) -> None:
    """08:00 in New York is 13:00 UTC in winter and 12:00 UTC in summer: the day the clocks
    change, the cron follows them."""
    spring = _source(cron="0 8 * * *", last=datetime(2024, 3, 9, 13, 0, tzinfo=UTC))
    assert not schedule.is_due(spring, datetime(2024, 3, 10, 11, 59, tzinfo=UTC), NEW_YORK)
    assert schedule.is_due(spring, datetime(2024, 3, 10, 12, 0, tzinfo=UTC), NEW_YORK)
    autumn = _source(cron="0 8 * * *", last=datetime(2024, 11, 2, 12, 0))  # naive, as SQLite
    assert not schedule.is_due(autumn, datetime(2024, 11, 3, 12, 59, tzinfo=UTC), NEW_YORK)
    assert schedule.is_due(autumn, datetime(2024, 11, 3, 13, 0, tzinfo=UTC), NEW_YORK)
    typo = _source("typo", cron="0 8 * * *", settings={"timezone": "America/NewYork"},
                   last=datetime(2024, 3, 9, 13, 0, tzinfo=UTC))
    with caplog.at_level(logging.ERROR):
        assert schedule.is_due(typo, datetime(2024, 3, 10, 12, 0, tzinfo=UTC), NEW_YORK)
    assert "source typo: unknown time zone 'America/NewYork'" in caplog.text


def test_the_machines_zone_is_the_one_its_tz_says(pg_url: str, schedule_redis: str) -> None:
    """The same cron, due by Kolkata's clock an hour ago, is not due on UTC's."""
    now = datetime.now(UTC)
    fired = (now - timedelta(hours=1)).astimezone(ZoneInfo("Asia/Kolkata"))
    cron = f"{fired.minute} {fired.hour} * * *"
    last = now - timedelta(hours=2)
    _store(pg_url, _source("machine-clock", cron=cron, last=last),
           _source("utc-clock", cron=cron, last=last, settings={"timezone": "UTC"}))
    done = _schedule("--once", DATABASE_URL=pg_url, REDIS_URL=schedule_redis, TZ="Asia/Kolkata")
    assert (done.returncode, done.stdout) == (0, "started 1 run: machine-clock (run 1)\n"), \
        done.stderr


# One run per due source, however many schedulers


def test_two_racing_schedule_calls_start_each_due_source_once(pg_url: str,
                                                               schedule_redis: str) -> None:
    names = [f"site{number}" for number in range(6)]
    _store(pg_url, *(_source(name, interval=60) for name in names))
    redis = Redis.from_url(schedule_redis)
    sessions = session_factory(pg_url)
    with _source_table_held(pg_url) as blocked:
        racers = [threading.Thread(target=schedule.schedule_due, args=(sessions, redis))
                  for _ in range(2)]
        for racer in racers:
            racer.start()
        blocked(2)
    for racer in racers:
        racer.join(60)
    assert {name: len(runs) for name, runs in _runs_per_source(pg_url).items()} == dict.fromkeys(
        names, 1)
    assert len(_pushed(schedule_redis)) == 2 * len(names)


@pytest.mark.parametrize("store", ["postgresql", "sqlite"])
def test_a_source_two_schedulers_read_as_due_is_started_by_the_first_claim_only(
        store: str, request: pytest.FixtureRequest, tmp_path: Path,
        schedule_redis: str) -> None:
    if store == "postgresql":
        url = request.getfixturevalue("pg_url")
    else:
        url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
        command.upgrade(alembic_config(url), "head")
    now = datetime.now(UTC)
    _store(url, _source("never", interval=60),
           _source("long-ago", interval=60, last=now - timedelta(hours=2)),
           _source("cron", cron="*/5 * * * *", last=now - timedelta(hours=2)))
    sessions, redis = session_factory(url), Redis.from_url(schedule_redis)
    first = schedule.due_sources(sessions, now)
    second = schedule.due_sources(sessions, now)
    assert [source.name for source in first] == [source.name for source in second] == [
        "never", "long-ago", "cron"]
    assert None not in [schedule.start_if_unclaimed(sessions, redis, source, now)
                        for source in first]
    assert [schedule.start_if_unclaimed(sessions, redis, source, now) for source in second] == [
        None, None, None]
    assert schedule.schedule_due(sessions, redis, now) == []
    assert _runs_per_source(url) == {"never": [1], "long-ago": [2], "cron": [3]}


def test_two_scheduler_processes_start_each_due_source_once(pg_url: str,
                                                            schedule_redis: str) -> None:
    names = [f"site{number}" for number in range(8)]
    _store(pg_url, *(_source(name, interval=600) for name in names))
    env = _env(DATABASE_URL=pg_url, REDIS_URL=schedule_redis)
    with _source_table_held(pg_url) as blocked:
        schedulers = [subprocess.Popen(_command("--once"), cwd=ROOT, env=env, text=True,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                      for _ in range(2)]
        blocked(2)
    outputs = [scheduler.communicate(timeout=120) for scheduler in schedulers]
    assert [scheduler.returncode for scheduler in schedulers] == [0, 0], outputs
    runs = _runs_per_source(pg_url)
    assert {name: len(ids) for name, ids in runs.items()} == dict.fromkeys(names, 1)
    pushed = Counter((entry["url"], entry["meta"]["run_id"]) for entry in _pushed(schedule_redis))
    assert pushed == Counter({(url, runs[name][0]): 1 for name in names
                              for url in _source(name).start_urls})
    said = " ".join(out for out, _ in outputs)  # between them, each source started once
    assert sorted(name for name in names if f"{name} (run" in said) == names
    assert said.count(" (run ") == len(names)


# What it did, or why it cannot


def test_once_says_what_it_started_or_that_nothing_is_due(pg_url: str,
                                                          schedule_redis: str) -> None:
    _store(pg_url, _source("news", interval=600), _source("forum", interval=600),
           _source("later", interval=600, last=datetime.now(UTC)))
    done = _schedule("--once", "--redis-url", schedule_redis, DATABASE_URL=pg_url)
    assert (done.returncode, done.stdout) == (0, "started 2 runs: news (run 1), forum (run 2)\n")
    assert len(_pushed(schedule_redis)) == 4
    again = _schedule("--once", "--redis-url", schedule_redis, DATABASE_URL=pg_url)
    assert (again.returncode, again.stdout, again.stderr) == (0, "nothing due\n", "")


def test_a_malformed_source_is_named_and_not_started(pg_url: str, schedule_redis: str) -> None:
    """Bad rules or settings would fail every page on the workers: refused when due."""
    _store(pg_url, _source("news", interval=600), _source("badrule", interval=600),
           _source("badsetting", interval=600))
    with session_factory(pg_url).begin() as session:  # as a user's SQL would write them
        session.execute(text("UPDATE source SET page_type_rules = '[{\"pattern\": \"(\"}]' "
                             "WHERE name = 'badrule'"))
        session.execute(text("UPDATE source SET settings = '{\"DOWNLOAD_DELAI\": 1}' "
                             "WHERE name = 'badsetting'"))
    done = _schedule("--once", "--redis-url", schedule_redis, DATABASE_URL=pg_url)
    assert (done.returncode, done.stdout) == (0, "started 1 run: news (run 1)\n"), done.stderr
    assert "source badrule is not started: source 'badrule': page_type_rules[0]" in done.stderr
    assert "source badsetting is not started" in done.stderr
    assert "Traceback" not in done.stderr
    assert set(_runs_per_source(pg_url)) == {"news"}


def test_without_a_redis_url_it_says_to_set_one(pg_url: str) -> None:
    _store(pg_url, _source("news", interval=600))
    done = _schedule("--once", DATABASE_URL=pg_url)
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert "shared Redis frontier" in line and "REDIS_URL" in line and "--redis-url" in line
    assert _run_count(pg_url) == 0
    helps = schedule.parser()._actions  # every option explains itself
    assert all(action.help for action in helps)


@pytest.mark.parametrize("down", ["Redis", "database"])
def test_once_with_a_service_down_is_one_line_and_fails(down: str, pg_url: str,
                                                        schedule_redis: str) -> None:
    _store(pg_url, _source("news", interval=600))
    closed = TcpProxy(0).port  # a free port nothing listens on
    env = {"DATABASE_URL": pg_url, "REDIS_URL": schedule_redis}
    if down == "Redis":
        env["REDIS_URL"] = f"redis://127.0.0.1:{closed}/11"
    else:
        env["DATABASE_URL"] = make_url(pg_url).set(port=closed).render_as_string(False)
    done = _schedule("--once", **env)
    assert done.returncode == 1 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith(f"schedule: cannot reach {'the ' * (down == 'database')}{down}")
    assert f":{closed}" in line
    assert _run_count(pg_url) == 0 and _pushed(schedule_redis) == []


@pytest.mark.parametrize(("down", "port"), [("Redis", 6379), ("database", 5432)])
def test_running_on_a_service_down_warns_and_retries_until_it_is_back(
        down: str, port: int, pg_url: str, schedule_redis: str, tmp_path: Path) -> None:
    _store(pg_url, _source("news", interval=600))
    proxy = TcpProxy(port)  # not started yet: the service is down
    env = {"DATABASE_URL": pg_url, "REDIS_URL": schedule_redis}
    if down == "Redis":
        env["REDIS_URL"] = f"redis://127.0.0.1:{proxy.port}/11"
    else:
        env["DATABASE_URL"] = make_url(pg_url).set(port=proxy.port).render_as_string(False)
    log = tmp_path / "schedule.log"
    with log.open("w") as handle:
        scheduler = subprocess.Popen(_command("--every", "0.3"), cwd=ROOT, env=_env(**env),
                                     stdout=handle, stderr=subprocess.STDOUT)
    try:
        _wait_for(lambda: log.read_text().count("cannot reach") >= 2 or
                  scheduler.poll() is not None)
        assert scheduler.poll() is None, log.read_text()
        proxy.start()
        _wait_for(lambda: "started 1 run: news (run 1)" in log.read_text())
        scheduler.send_signal(signal.SIGTERM)
        assert scheduler.wait(timeout=30) == 0
    finally:
        if scheduler.poll() is None:
            scheduler.kill()
        proxy.stop()
    output = log.read_text()
    assert "Traceback" not in output
    assert f"WARNING cannot reach {'the ' * (down == 'database')}{down}" in output
    assert "retrying in 0.3 s" in output


def test_a_database_never_migrated_says_to_migrate(empty_pg_url: str,
                                                   schedule_redis: str) -> None:
    env = {"DATABASE_URL": empty_pg_url, "REDIS_URL": schedule_redis}
    once = _schedule("--once", **env)
    assert once.returncode == 1 and once.stdout == ""
    [line] = once.stderr.splitlines()
    assert line == (f"schedule: the database {empty_pg_url} has no schema: "
                    "run `python -m crawler migrate`")
    running = _schedule("--every", "0.3", **env)  # no retry mends that: it stops
    assert running.returncode == 1 and "Traceback" not in running.stderr
    assert running.stderr.splitlines()[-1].endswith(line.removeprefix("schedule: "))


def test_a_database_behind_the_code_says_to_migrate(empty_pg_url: str,
                                                    schedule_redis: str) -> None:
    command.upgrade(alembic_config(empty_pg_url), "0001")
    once = _schedule("--once", DATABASE_URL=empty_pg_url, REDIS_URL=schedule_redis)
    assert once.returncode == 1 and once.stdout == ""
    [line] = once.stderr.splitlines()
    assert "at schema revision 0001, behind" in line and "python -m crawler migrate" in line
