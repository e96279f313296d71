"""The whole stack of compose.yaml, for real, as the README runs it (`make stack-test`).

Runs, in order, the README's blocks marked `<!-- store: stack -->` (test_readme.py leaves them
to this test), with Compose v2 (`docker compose`, Debian trixie's package, installed by the
README's `make compose-v2` into var/compose-v2): `make stack` (Docker installed and started
when missing, the images built from Debian's packages with cached layers, the stack up with
two workers and the API); a source of the demo site added, which the scheduler starts and both
workers crawl into the stack's PostgreSQL, checked against the site's ground truth; the metrics
profile's Prometheus scraping both workers and the scheduler, and every query of the Grafana
dashboard on it; scaling to four workers; an upgrade (images, the migrate job while the
workers run, the services brought up); a backup restored into a second database;
`docker compose down`. Then the same file with Debian bookworm's `docker-compose` 1.29: both
read it into the same services, and 1.29 brings the stack up (a worker, the scheduler, the API
on the migrated database). Everything a test started goes, also when it fails: the
containers, their network and volumes (the images stay, as build cache).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool

from models import CrawlRun, Page
from models.db import PROJECT_ROOT as ROOT
from tests.demosite import DemoServer
from tests.demosite.catalog import SiteConfig
from tests.integration.test_readme import STACK, Block, _run_shell, _substitute, readme_blocks

# Its own containers, network and volumes (STACK_TEST_PROJECT: checkouts sharing a machine);
# the run with docker-compose 1.29 has a project of its own.
PROJECT = os.environ.get("STACK_TEST_PROJECT", "opinioncrawlerstacktest")
PROJECT_V1 = f"{PROJECT}v1"
COMPOSE_V2, COMPOSE_V1 = ["docker", "compose"], ["docker-compose"]
TOKEN, PASSWORD = "stack-test-token", "stack-test-password"  # over any .env of the checkout
CRAWL_TIMEOUT = 300  # seconds for the demo crawl through the stack (under a loaded machine)
# A smaller demo site than `make demo`'s (about 500 pages): every kind of page, a crawl of
# seconds, enough requests for both workers.
SITE = SiteConfig(articles_per_section=12, threads_per_board=10, blog_posts=15)
TYPED_OTHERWISE = 0.05  # pages whose type may differ from the truth (`make demo` lists them)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _env(project: str = PROJECT) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "REDIS_URL", "DOCKER_CONFIG")}
    return {**env, "COMPOSE_PROJECT_NAME": project, "API_TOKEN": TOKEN,
            "POSTGRES_PASSWORD": PASSWORD, "API_PORT": str(_free_port()), "SCHEDULE_EVERY": "1",
            "COMPOSE_PROFILES": "metrics", "PROMETHEUS_PORT": str(_free_port()),
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"}


def _compose(env: dict[str, str], *args: str, compose: list[str] = COMPOSE_V2) -> str:
    done = subprocess.run([*compose, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, (args, done.stderr[-3000:])
    return done.stdout


def _containers(env: dict[str, str], service: str) -> list[str]:
    """The service's containers, running or not, by the labels v1 and v2 both set (a query of
    the daemon: docker-compose 1.29 takes a second or two to start, and the test polls)."""
    return subprocess.run(
        ["docker", "ps", "-a", "-q", "--filter",
         f"label=com.docker.compose.project={env['COMPOSE_PROJECT_NAME']}",
         "--filter", f"label=com.docker.compose.service={service}"],
        capture_output=True, text=True, timeout=60, check=True).stdout.split()


def _remove_project(project: str) -> None:
    """Every container, volume and network of a Compose project, by the label that v1 and v2
    both set, without stopping anything gracefully (its data goes anyway)."""
    if shutil.which("docker") is None or subprocess.run(
            ["docker", "info"], capture_output=True, timeout=60, check=False).returncode:
        return  # no Docker yet: nothing to remove
    label = f"label=com.docker.compose.project={project}"
    for kind, remove in (("container", ["rm", "-f", "-v"]), ("volume", ["rm", "-f"]),
                         ("network", ["rm"])):
        listing = ["docker", kind, "ls", "-q", "--filter", label] + (
            ["-a"] if kind == "container" else [])
        found = subprocess.run(listing, capture_output=True, text=True, timeout=60,
                               check=True).stdout.split()
        if found:
            subprocess.run(["docker", kind, *remove, *found], capture_output=True, timeout=300,
                           check=True)


def _address(container: str, field: str = "IPAddress") -> str:
    return subprocess.run(["docker", "inspect", "-f",
                           f"{{{{range .NetworkSettings.Networks}}}}{{{{.{field}}}}}{{{{end}}}}",
                           container], capture_output=True, text=True, check=True,
                          timeout=60).stdout.strip()


def _state(container: str, field: str) -> str:
    return subprocess.run(["docker", "inspect", "-f", f"{{{{.State.{field}}}}}", container],
                          capture_output=True, text=True, check=True, timeout=60).stdout.strip()


@pytest.fixture
def stack() -> Iterator[dict[str, str]]:
    """The environment the README's stack blocks run in; the stack is removed afterwards."""
    _remove_project(PROJECT)
    try:
        yield _env()
    finally:
        _remove_project(PROJECT)


@pytest.fixture
def stack_v1() -> Iterator[dict[str, str]]:
    """The environment of the docker-compose 1.29 run, its project removed afterwards."""
    _remove_project(PROJECT_V1)
    try:
        yield {**_env(PROJECT_V1), "COMPOSE_PROFILES": ""}
    finally:
        _remove_project(PROJECT_V1)


class _Steps:
    """The stack blocks of the README, run one at a time in one shell session's environment."""

    def __init__(self, env: dict[str, str], examples: dict[str, str], scratch: Path) -> None:
        self.blocks: list[Block] = [block for block in readme_blocks() if block.store == STACK]
        self.env, self.examples, self.scratch = env, examples, scratch

    def run(self, expected_start: str) -> subprocess.CompletedProcess[str]:
        block = self.blocks.pop(0)
        assert block.text.startswith(expected_start), (block.line, block.text)
        done, self.env = _run_shell(_substitute(block.text, self.examples), self.env,
                                    self.scratch / "shell.env")
        assert done.returncode == 0, (block.line, done.stdout[-2000:], done.stderr[-3000:])
        return done


def _session(database_url: str) -> Session:
    """A session on the stack's database that keeps no connection open after it (the
    project's cached engines would, and PostgreSQL's shutdown waits for its clients)."""
    return Session(create_engine(database_url, poolclass=NullPool), expire_on_commit=False)


def _wait_for_run(database_url: str) -> CrawlRun:
    deadline = time.monotonic() + CRAWL_TIMEOUT
    while time.monotonic() < deadline:
        with _session(database_url) as session:
            run = session.scalars(select(CrawlRun)).first()
            if run is not None and run.finished_at is not None:
                return run
        time.sleep(1)
    raise AssertionError(f"the demo crawl did not finish within {CRAWL_TIMEOUT}s")


def _stored_types(database_url: str) -> dict[str, str]:
    with _session(database_url) as session:
        return dict(session.execute(select(Page.url, Page.page_type)).all())


def _wait_for_workers(env: dict[str, str], count: int) -> None:
    """Until `count` workers have opened their spider: a worker that starts after the crawl
    ended would prove nothing about sharing it."""
    deadline = time.monotonic() + 120
    while True:
        workers = _containers(env, "worker")
        logs = [subprocess.run(["docker", "logs", worker], capture_output=True, text=True,
                               timeout=60, check=False) for worker in workers]
        opened = [log for log in logs if "Spider opened" in log.stdout + log.stderr]
        if len(opened) >= count:
            return
        assert time.monotonic() < deadline, f"{len(opened)} of {count} workers started"
        time.sleep(1)


def _check_api(env: dict[str, str]) -> None:
    request = urllib.request.Request(f"http://127.0.0.1:{env['API_PORT']}/sources",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                assert answer.status == 200
                return
        except OSError:
            assert time.monotonic() < deadline, "the API never answered"
            time.sleep(1)


def _stored_by_metrics(env: dict[str, str]) -> float:
    """New pages committed, summed over the workers' Prometheus metrics (compose: port 9410)."""
    total = 0.0
    for worker in _containers(env, "worker"):
        url = f"http://{_address(worker)}:9410/metrics"
        with urllib.request.urlopen(url, timeout=10) as answer:
            for family in text_string_to_metric_families(answer.read().decode()):
                total += sum(sample.value for sample in family.samples
                             if sample.name == "crawler_pages_stored_total"
                             and sample.labels["outcome"] == "new")
    return total


def _prometheus(env: dict[str, str], path: str, **query: str) -> Any:
    """The answer of the metrics profile's Prometheus HTTP API to one GET."""
    url = f"http://127.0.0.1:{env['PROMETHEUS_PORT']}/api/v1/{path}?{urlencode(query)}"
    with urllib.request.urlopen(url, timeout=10) as answer:
        body = json.load(answer)
    assert body["status"] == "success", body
    return body["data"]


def _check_prometheus(env: dict[str, str], stored: int) -> None:
    """Prometheus found both workers and the scheduler by DNS and scrapes them, the workers'
    new pages sum to the pages stored, and every query of the Grafana dashboard runs on it."""
    deadline, up, new, started = time.monotonic() + 60, Counter[str](), None, None
    while True:
        try:
            up = Counter(target["labels"]["job"] for target
                         in _prometheus(env, "targets", state="active")["activeTargets"]
                         if target["health"] == "up")
            new = _prometheus(env, "query", query='sum(crawler_pages_stored_total{job="worker",'
                                                  'outcome="new"})')["result"]
            # the scheduler's first scrape may come before it started the run
            started = _prometheus(env, "query", query="crawler_runs_started_total")["result"]
        except OSError:
            pass
        if (up == {"worker": 2, "scheduler": 1} and new and started
                and float(new[0]["value"][1]) == stored):
            break
        assert time.monotonic() < deadline, (up, new, started, stored)
        time.sleep(1)
    # Every series the dashboard reads is scraped, but the errors' (the demo crawl has none)
    # and a run's pending requests (only while a run is in flight: the demo run may end
    # before Prometheus's first scrape of the scheduler).
    names = {*_prometheus(env, "label/__name__/values"), "crawler_errors_total",
             "crawler_run_pending_requests"}
    dashboard = json.loads((ROOT / "deploy/grafana/opinion-crawler.json").read_text())
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            query = target["expr"].replace("$source", ".*")
            _prometheus(env, "query", query=query)  # valid PromQL
            assert set(re.findall(r"crawler_[a-z_]+", query)) <= names, (panel["title"], query)


def test_the_stack_crawls_the_demo_site_and_is_operated_as_the_readme_says(
        stack: dict[str, str], tmp_path: Path) -> None:
    sources, dump = tmp_path / "sources.yaml", tmp_path / "opinion.dump"
    steps = _Steps(stack, {"sources.yaml": str(sources), "opinion.dump": str(dump)}, tmp_path)
    assert len(steps.blocks) == 6, [block.line for block in steps.blocks]
    steps.run("make compose-v2")
    assert Path(steps.env["DOCKER_CONFIG"]) == ROOT / "var" / "compose-v2"
    assert re.search(r"version v?2\.", _compose(steps.env, "version")), "not Compose v2"
    stack = steps.env
    assert len(_containers(stack, "worker")) == 2
    _wait_for_workers(stack, 2)
    postgres = _containers(stack, "postgres")[0]
    database_url = f"postgresql+psycopg2://crawler:{PASSWORD}@{_address(postgres)}/opinion"
    gateway = _address(postgres, "Gateway")  # this machine, as the containers reach it

    with DemoServer(host=gateway, config=SITE) as server:
        clients: Counter[str] = Counter()  # requests per worker container
        handler = server.httpd.RequestHandlerClass

        class CountingHandler(handler):  # type: ignore[misc,valid-type]
            def do_GET(self) -> None:
                clients[self.client_address[0]] += 1
                super().do_GET()

        server.httpd.RequestHandlerClass = CountingHandler
        sources.write_text(json.dumps({"sources": [{
            "name": "demo", "start_urls": [server.url + "/"], "interval_seconds": 86400,
            "settings": {"ALLOW_PRIVATE_ADDRESSES": True}}]}), encoding="utf-8")
        steps.run("docker compose run --rm -T migrate python -m crawler sources import")
        run = _wait_for_run(database_url)
        truth = server.site.ground_truth()

    assert run.status == "finished", (run.status, run.stats)
    stored = {url.removeprefix(server.url): page_type
              for url, page_type in _stored_types(database_url).items()}
    fetchable = {path: record["type"] for path, record in truth.items()
                 if not record["meta"].get("robots_disallowed")}
    assert set(stored) == set(fetchable), set(stored) ^ set(fetchable)
    typed_otherwise = {path: (stored[path], page_type) for path, page_type in fetchable.items()
                       if stored[path] != page_type}
    assert len(typed_otherwise) <= TYPED_OTHERWISE * len(fetchable), typed_otherwise
    assert len(clients) == 2 and min(clients.values()) > 0.2 * sum(clients.values()), clients
    assert _stored_by_metrics(stack) == len(stored)
    _check_api(stack)
    _check_prometheus(stack, len(stored))

    steps.run("docker compose up -d --scale worker=4")
    workers = _containers(stack, "worker")
    assert len(workers) == 4 and {_state(worker, "Status") for worker in workers} == {"running"}
    upgrade = steps.run("make images")  # images, the migrate job, the services brought up
    assert "schema is at head on" in upgrade.stdout + upgrade.stderr
    assert len(_containers(stack, "worker")) == 4
    _check_api(stack)
    steps.run("docker compose exec -T postgres pg_dump")
    assert dump.stat().st_size > 0
    restored = database_url.replace("/opinion", "/restore_check")
    with _session(restored) as session:
        assert session.scalar(select(func.count()).select_from(Page)) == len(stored)
    steps.run("docker compose down")
    assert not _compose(stack, "ps", "-a", "-q").split()


def _seconds(duration: str | None) -> float | None:
    """A Compose duration ("60s", v2's "1m0s", "1h2m3.5s") in seconds."""
    if duration is None:
        return None
    units = {"h": 3600, "m": 60, "s": 1, "ms": 0.001, "us": 1e-6}
    parts = re.findall(r"([\d.]+)(h|ms|us|m|s)", duration)
    assert "".join(number + unit for number, unit in parts) == duration, duration
    return sum(float(number) * units[unit] for number, unit in parts)


def _services(env: dict[str, str], compose: list[str]) -> dict[str, dict[str, Any]]:
    """compose.yaml's services as a Compose implementation reads them (`config`), in one form
    for v1 and v2: what each runs, with which settings, after what, publishing and mounting
    what."""
    def ports(entries: list[Any]) -> list[str]:
        return sorted(entry if isinstance(entry, str) else
                      f"{entry['host_ip']}:{entry['published']}:{entry['target']}/"
                      f"{entry['protocol']}" for entry in entries)

    def volumes(entries: list[Any]) -> list[str]:
        return sorted(":".join(entry.split(":")[:2]) if isinstance(entry, str) else
                      f"{entry['source']}:{entry['target']}" for entry in entries)

    def healthcheck(check: dict[str, Any] | None) -> dict[str, Any]:
        return {key: value if key == "test" else _seconds(value)
                for key, value in (check or {}).items()}

    read = yaml.safe_load(_compose(env, "config", compose=compose))
    return {name: {"image": service["image"], "command": service.get("command"),
                   "environment": service.get("environment"),
                   "depends_on": {other: condition["condition"] for other, condition
                                  in service.get("depends_on", {}).items()},
                   "build": {key: service["build"].get(key, default) for key, default
                             in (("context", None), ("dockerfile", "Dockerfile"), ("args", {}))},
                   "restart": service.get("restart"), "profiles": service.get("profiles", []),
                   "ports": ports(service.get("ports", [])),
                   "volumes": volumes(service.get("volumes", [])),
                   "healthcheck": healthcheck(service.get("healthcheck")),
                   "stop_grace_period": _seconds(service.get("stop_grace_period"))}
            for name, service in read["services"].items()}


def test_compose_v1_and_v2_read_the_file_alike() -> None:
    """Every service, the metrics profile's too, as the same settings (the walk above
    installed v2 in var/compose-v2)."""
    env = _env(PROJECT_V1)
    v1 = _services(env, COMPOSE_V1)
    v2 = _services({**env, "DOCKER_CONFIG": str(ROOT / "var" / "compose-v2")}, COMPOSE_V2)
    assert set(v1) == {"postgres", "redis", "migrate", "scheduler", "worker", "api",
                       "prometheus"}
    assert v1 == v2


def test_debian_bookworm_s_docker_compose_1_29_runs_the_stack(stack_v1: dict[str, str]) -> None:
    """The README's stack with docker-compose 1.29: up (one worker), the scheduler and the API
    on the database the migrate job brought to head, down."""
    assert shutil.which("docker-compose"), "no docker-compose: `make images` installs Debian's"
    assert re.search(r"version 1\.29\.", _compose(stack_v1, "version", compose=COMPOSE_V1))
    _compose(stack_v1, "up", "-d", compose=COMPOSE_V1)
    _check_api(stack_v1)
    _wait_for_workers(stack_v1, 1)
    migrate = _containers(stack_v1, "migrate")
    assert len(migrate) == 1 and _state(migrate[0], "ExitCode") == "0"
    for service in ("postgres", "redis", "scheduler", "api", "worker"):
        assert [_state(container, "Status") for container
                in _containers(stack_v1, service)] == ["running"], service
    _compose(stack_v1, "down", compose=COMPOSE_V1)
    assert not _compose(stack_v1, "ps", "-a", "-q", compose=COMPOSE_V1).split()
