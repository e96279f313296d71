"""Crawl-health alerts: what the health rules (pipelines/health.py) report, raised once per
condition, stored in `health_alert`, logged, and sent to the HEALTH_ALERT_URLS targets.

Two evaluators use it. The scheduler evaluates run-level rules inside its check's
transaction (`HealthAlerts.shared`): the open rows are the conditions already reported, so
any number of schedulers raise each condition once (the partial unique index on open keys
decides a race). A worker evaluates its own services and journal (`HealthAlerts.own`): its
database may be the thing out of reach, so it keeps its conditions in memory, sends at
once, and writes the rows when the database takes them. Every change is a log line
(WARNING raised, INFO cleared): with no target set, the log is where alerts go. Sending is
the deliveries' (reading/delivery.py: apprise, back-off, given up after
DELIVERY_ATTEMPTS), and how it went is stored on the row (`delivery`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from models.health import HealthAlert
from models.schema import reason
from pipelines.health import HealthEvent, changes
from reading.delivery import Outbox, target_for, understood

logger = logging.getLogger(__name__)
SCHEDULER = "scheduler"  # the origin of the run-level conditions, whichever scheduler raised them
_TITLE = "[crawl health]"


def targets_from(value: str | Sequence[str] | None) -> list[str]:
    """Apprise URLs from HEALTH_ALERT_URLS (comma-separated, or a list): webhook URLs, chat
    robots' URLs, e-mail addresses, as `watch add` takes them; one apprise does not know is
    logged and left out."""
    values = value.split(",") if isinstance(value, str) else list(value or ())
    targets = []
    for raw in (value.strip() for value in values):
        if not raw:
            continue
        target = target_for(raw)
        if understood(target):
            targets.append(target)
        else:
            logger.error("HEALTH_ALERT_URLS: %r is not a delivery target apprise understands; "
                         "health alerts are not sent there", raw[:80])
    return targets


def raise_condition(session: Session, origin: str, event: HealthEvent, now: datetime) -> bool:
    """Store a condition as open; False when it already is (raised by another evaluator)."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    statement = dialect.insert(HealthAlert).values(
        key=event.key, kind=event.kind, origin=origin, message=event.message, raised_at=now
    ).on_conflict_do_nothing(index_elements=["key"],
                             index_where=HealthAlert.cleared_at.is_(None))
    return bool(session.execute(statement).rowcount)


def clear_conditions(session: Session, keys: Sequence[str], now: datetime) -> set[str]:
    """End the open conditions named; returns those this call ended (not another's)."""
    if not keys:
        return set()
    return set(session.scalars(update(HealthAlert).where(
        HealthAlert.key.in_(keys), HealthAlert.cleared_at.is_(None))
        .values(cleared_at=now).returning(HealthAlert.key)))


def note_delivery(session: Session, key: str, outcome: str) -> None:
    """Add how sending went to the condition's latest row."""
    row = session.scalars(select(HealthAlert).where(HealthAlert.key == key)
                          .order_by(HealthAlert.id.desc()).limit(1)).first()
    if row is not None:
        row.delivery = f"{row.delivery}; {outcome}" if row.delivery else outcome


def open_conditions(session: Session, origin: str) -> dict[str, str]:
    """key → message of the conditions of `origin` still open."""
    return dict(session.execute(select(HealthAlert.key, HealthAlert.message).where(
        HealthAlert.origin == origin, HealthAlert.cleared_at.is_(None))).all())


class HealthAlerts:
    """Raises, clears and sends the health conditions of one origin (see the module)."""

    def __init__(self, origin: str, targets: Sequence[str],
                 sessions: sessionmaker[Session]) -> None:
        self.origin = origin
        self.sessions = sessions
        self.outbox = Outbox(targets)
        self.open: dict[str, HealthEvent] = {}  # `own` conditions reported
        self.unsaved: list[Callable[[Session], None]] = []  # writes the database has not taken

    def shared(self, session: Session, events: Sequence[HealthEvent],
               now: datetime | None = None) -> None:
        """Report the conditions that hold, against the open rows, in the caller's
        transaction (the messages go out with `send`, after it commits)."""
        now = now or datetime.now(UTC)
        reported = open_conditions(session, self.origin)
        started, cleared = changes(reported, events)
        raised = [event for event in started if raise_condition(session, self.origin, event, now)]
        ended = clear_conditions(session, cleared, now)
        self._announce(raised, [(key, reported[key]) for key in cleared if key in ended], now)

    def own(self, events: Sequence[HealthEvent], now: datetime | None = None) -> None:
        """Report the conditions that hold, against those this process reported."""
        now = now or datetime.now(UTC)
        started, cleared = changes(self.open, events)
        gone = [(key, self.open.pop(key).message) for key in cleared]
        self.open.update((event.key, event) for event in started)
        for event in started:
            self.unsaved.append(lambda session, event=event: raise_condition(
                session, self.origin, event, now))
        if cleared:
            self.unsaved.append(lambda session: clear_conditions(session, cleared, now))
        self._announce(started, gone, now)

    def close(self) -> None:
        """This process stops: its open conditions end with it (stored, not announced)."""
        if self.open:
            keys, now = list(self.open), datetime.now(UTC)
            self.unsaved.append(lambda session: clear_conditions(session, keys, now))
            self.open = {}
        self.save()

    def send(self, now: datetime | None = None) -> None:
        """Send what is due, and store how it went with anything still unsaved."""
        for key, outcome in self.outbox.send_due(now):
            self.unsaved.append(lambda session, key=key, outcome=outcome: note_delivery(
                session, key, outcome))
        self.save()

    def save(self) -> bool:
        """Write what waits, in order, in one transaction; kept for the next try when the
        database does not take it."""
        if not self.unsaved:
            return True
        try:
            with self.sessions.begin() as session:
                for write in self.unsaved:
                    write(session)
        except SQLAlchemyError as error:
            logger.debug("health alerts not stored yet (%s)", reason(error))
            return False
        self.unsaved = []
        return True

    def _announce(self, raised: Sequence[HealthEvent], cleared: Sequence[tuple[str, str]],
                  now: datetime) -> None:
        for event in raised:
            logger.warning("crawl health: %s", event.message)
            self.outbox.add(event.key, f"{_TITLE} {event.kind}: {event.subject}", event.message,
                            now)
        for key, message in cleared:
            logger.info("crawl health: cleared: %s", message)
            self.outbox.add(key, f"{_TITLE} cleared: {key}", f"no longer so: {message}", now)
