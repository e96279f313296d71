"""Crawl-health alerts in the store, on PostgreSQL and SQLite: each condition raised once
however many schedulers report it, cleared when it ends and raised anew if it comes back;
a target that is down retried with the deliveries' back-off, then given up, and how
sending went kept on the row."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

from models.db import session_factory
from models.health import HealthAlert
from models.schema import alembic_config
from pipelines.health import EMPTY_RUNS, HealthEvent
from reading.delivery import DELIVERY_ATTEMPTS
from reading.health_alerts import SCHEDULER, HealthAlerts, targets_from
from tests.receivers import WebhookReceiver, webhook_receiver

QUIET = HealthEvent(EMPTY_RUNS, "quiet", "source quiet: its last 3 runs stored no new page")


@contextmanager
def health_database(admin_url: str) -> Iterator[str]:
    """A migrated PostgreSQL database of the health tests' own (health_*), dropped after."""
    name = f"health_{uuid.uuid4().hex[:10]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    try:
        command.upgrade(alembic_config(url), "head")
        yield url
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["postgresql", "sqlite"])
def health_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "postgresql":
        with health_database(request.getfixturevalue("postgres_admin_url")) as url:
            yield url
        return
    url = f"sqlite:///{tmp_path / 'health.sqlite3'}"
    command.upgrade(alembic_config(url), "head")
    yield url


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with webhook_receiver() as receiver:
        yield receiver


def _report(alerts: HealthAlerts, events: list[HealthEvent], now: datetime) -> None:
    with alerts.sessions.begin() as session:
        alerts.shared(session, events, now)
    alerts.send(now)


def test_schedulers_raise_a_condition_once_clear_it_and_raise_it_anew(
        health_store: str, receiver: WebhookReceiver) -> None:
    sessions = session_factory(health_store)
    targets = targets_from(f"{receiver.url}/a, ,{receiver.url}/b")
    one, other = (HealthAlerts(SCHEDULER, targets, sessions) for _ in range(2))
    now = datetime.now(UTC)
    for alerts in (one, other, one):  # two schedulers, the condition holding at each check
        _report(alerts, [QUIET], now)
    assert [(path, body["title"]) for path, body in receiver.posts] == [
        ("/a", "[crawl health] empty_runs: quiet"), ("/b", "[crawl health] empty_runs: quiet")]
    _report(other, [], now)  # it ended
    _report(one, [], now)
    _report(one, [QUIET], now)  # and came back
    titles = [body["title"] for _, body in receiver.posts[2:]]
    assert titles == ["[crawl health] cleared: empty_runs:quiet"] * 2 + \
        ["[crawl health] empty_runs: quiet"] * 2
    with sessions() as session:
        rows = session.scalars(select(HealthAlert).order_by(HealthAlert.id)).all()
    assert [(row.key, row.cleared_at is None) for row in rows] == [
        ("empty_runs:quiet", False), ("empty_runs:quiet", True)]
    assert rows[0].delivery.count("sent to json://127.0.0.1/") == 4  # raised, cleared × 2


def test_a_target_that_is_down_is_retried_with_backoff_then_given_up(
        health_store: str, receiver: WebhookReceiver) -> None:
    receiver.status = 500
    alerts = HealthAlerts(SCHEDULER, targets_from(receiver.url), session_factory(health_store))
    now = datetime.now(UTC)
    _report(alerts, [QUIET], now)
    assert len(receiver.posts) == 1 and len(alerts.outbox.waiting) == 1
    alerts.send(now + timedelta(seconds=10))  # not due yet
    assert len(receiver.posts) == 1
    for attempt in range(2, DELIVERY_ATTEMPTS + 1):
        alerts.send(now + timedelta(hours=2 * attempt))
    assert len(receiver.posts) == DELIVERY_ATTEMPTS and not alerts.outbox.waiting
    with alerts.sessions() as session:
        row = session.scalars(select(HealthAlert)).one()
    assert row.delivery.count("not sent to json://127.0.0.1/…") == DELIVERY_ATTEMPTS
    assert row.delivery.startswith("not sent to json://127.0.0.1/… (attempt 1, next at ")
    assert f"not sent to json://127.0.0.1/… after {DELIVERY_ATTEMPTS} attempts" in row.delivery


def test_a_target_apprise_does_not_know_is_left_out_with_a_log_line(
        caplog: pytest.LogCaptureFixture) -> None:
    assert targets_from("nonsense://x, http://127.0.0.1:9/hook") == ["json://127.0.0.1:9/hook"]
    assert "'nonsense://x' is not a delivery target" in caplog.text
