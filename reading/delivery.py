"""Sending alerts through apprise, with retries and back-off recorded on each delivery row.

A target is an apprise URL: a webhook in the generic JSON format (`json://`, `jsons://`),
DingTalk, WeCom, Feishu or Slack (their `dingtalk://`, `wecombot://`, `feishu://`,
`slack://` forms, or the https webhook URLs those services hand out, which apprise reads
natively), or e-mail (`mailto://`). `target_for` turns what a user types (a URL, an
address) into one. Sending never raises: an unreachable target is a failed attempt,
retried after DELIVERY_BACKOFF_SECONDS doubling per attempt up to DELIVERY_BACKOFF_MAX,
given up after DELIVERY_ATTEMPTS; its last error stays on the row for `alerts` to show.
Messages that have no row to wait in (crawl-health alerts, raised where the database may be
out of reach) wait in an `Outbox` in memory, on the same schedule.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import quote, urlsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from models.watch import Alert, Delivery, Watch
from reading.snippets import plain

logger = logging.getLogger(__name__)

DELIVERY_ATTEMPTS = 8
DELIVERY_BACKOFF_SECONDS = 30.0
DELIVERY_BACKOFF_MAX = 3600.0
DELIVERY_BATCH = 100  # deliveries tried per pass
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
# The robot webhooks apprise has a plugin for but does not read in their https form.
_SERVICE_WEBHOOKS = (
    (re.compile(r"https://oapi\.dingtalk\.com/robot/send\?access_token=([A-Za-z0-9]+)"),
     "dingtalk://{}"),
    (re.compile(r"https://open\.(?:feishu\.cn|larksuite\.com)/open-apis/bot/v2/hook/"
                r"([A-Za-z0-9-]+)/?"), "feishu://{}"),
)


def target_for(value: str) -> str:
    """An apprise URL for what a user gave: an e-mail address becomes a mailto:// through
    the SMTP server of $ALERT_SMTP_URL (smtp://[user:password@]host[:port]; sender
    $ALERT_MAIL_FROM); an http(s) URL apprise does not know natively becomes a generic JSON
    webhook; anything else is taken as an apprise URL as it is."""
    value = value.strip()
    if _EMAIL.fullmatch(value):
        return _mailto(value)
    for pattern, form in _SERVICE_WEBHOOKS:
        if match := pattern.fullmatch(value):
            return form.format(match[1])
    if value.startswith(("http://", "https://")) and not understood(value):
        return ("jsons://" if value.startswith("https://") else "json://") + \
            value.split("://", 1)[1]
    return value


def understood(target: str) -> bool:
    """Whether apprise has a plugin for this URL (asked quietly: apprise logs an error for
    every URL it does not know, and most webhooks are such URLs). apprise is imported where
    it is used: its plugins cost a quarter of a second a crawl that sends nothing need not
    pay."""
    import apprise

    apprise_logger = logging.getLogger("apprise")
    was_disabled, apprise_logger.disabled = apprise_logger.disabled, True
    try:
        return apprise.Apprise.instantiate(target) is not None
    finally:
        apprise_logger.disabled = was_disabled


def _mailto(address: str) -> str:
    server = urlsplit(os.environ.get("ALERT_SMTP_URL", "smtp://localhost:25"))
    sender = os.environ.get("ALERT_MAIL_FROM", f"opinion-crawler@{server.hostname}")
    credentials = (f"{quote(server.username or '')}:{quote(server.password or '')}@"
                   if server.username else "")
    scheme = "mailtos" if server.scheme == "smtps" else "mailto"
    port = f":{server.port}" if server.port else ""
    return (f"{scheme}://{credentials}{server.hostname}{port}?smtp={server.hostname}"
            f"&from={quote(sender, safe='@')}&to={quote(address, safe='@')}")


def message(watch: Watch, alert: Alert) -> tuple[str, str]:
    """(title, body) of an alert, plain text."""
    text = plain(alert.snippet)
    title = f"[{watch.name}] {alert.title or alert.url}"
    body = (f"{text}\n\n{alert.url}\n{alert.site} · {alert.kind} · "
            f"{alert.published_at:%Y-%m-%d %H:%M} UTC")
    return title[:250], body


def send(target: str, title: str, body: str) -> str | None:
    """Send one message; None when sent, else the reason it was not."""
    import apprise

    notifier = apprise.Apprise()
    if not notifier.add(target):
        return f"not a delivery target apprise understands: {target!r}"
    with apprise.LogCapture(level=logging.WARNING) as captured:
        try:
            sent = notifier.notify(title=title, body=body)
        except Exception as error:  # a plugin's bug must not stop the others
            return f"{type(error).__name__}: {error}"
        if sent:
            return None
        lines = [line for line in captured.getvalue().splitlines() if line.strip()]
    return (lines[-1] if lines else "the target did not accept the message")[:500]


def backoff(attempts: int) -> timedelta:
    """How long a target that failed `attempts` times is left before the next attempt."""
    return timedelta(seconds=min(DELIVERY_BACKOFF_MAX,
                                 DELIVERY_BACKOFF_SECONDS * 2 ** (attempts - 1)))


def deliver_due(session: Session, now: datetime | None = None) -> dict[str, int]:
    """Try the pending deliveries whose time has come, in the caller's transaction;
    returns counts of sent, retried and failed (given up)."""
    now = now or datetime.now(UTC)
    rows = session.execute(
        select(Delivery, Alert, Watch).join(Alert, Alert.id == Delivery.alert_id)
        .join(Watch, Watch.id == Alert.watch_id)
        .where(Delivery.status == "pending", Delivery.next_attempt_at <= now)
        .order_by(Delivery.next_attempt_at).limit(DELIVERY_BATCH)
        .with_for_update(skip_locked=True, of=Delivery)).all()
    counts = {"sent": 0, "retried": 0, "failed": 0}
    for delivery, alert, watch in rows:
        problem = send(delivery.target, *message(watch, alert))
        delivery.attempts += 1
        if problem is None:
            delivery.status, delivery.sent_at, delivery.last_error = "sent", now, None
            counts["sent"] += 1
            continue
        delivery.last_error = problem
        if delivery.attempts >= DELIVERY_ATTEMPTS:
            delivery.status = "failed"
            counts["failed"] += 1
            logger.warning("alert %d to %s given up after %d attempts: %s", alert.id,
                           _shown(delivery.target), delivery.attempts, problem)
        else:
            delivery.next_attempt_at = now + backoff(delivery.attempts)
            counts["retried"] += 1
    return counts


def _shown(target: str) -> str:
    """A target as it may be logged: scheme and host, no path (webhook tokens live there)."""
    parts = urlsplit(target)
    return f"{parts.scheme}://{parts.hostname or ''}/…"


@dataclass
class _Message:
    key: str
    target: str
    title: str
    body: str
    due: datetime
    attempts: int = 0


class Outbox:
    """Messages to a fixed list of targets, kept in memory until each target took them or
    DELIVERY_ATTEMPTS failed (the same back-off as alert deliveries); `key` names what a
    message is about, for its sender to record how it went."""

    def __init__(self, targets: Sequence[str]) -> None:
        self.targets = list(targets)
        self.waiting: list[_Message] = []

    def add(self, key: str, title: str, body: str, now: datetime | None = None) -> None:
        now = now or datetime.now(UTC)
        self.waiting += [_Message(key, target, title[:250], body, now) for target in self.targets]

    def send_due(self, now: datetime | None = None) -> list[tuple[str, str]]:
        """Try the messages whose time has come; returns (key, how it went) for each one
        tried (a failed attempt to retry is logged once, at the first)."""
        now = now or datetime.now(UTC)
        done, kept = [], []  # how each try went; what waits for another
        for message in self.waiting:
            if message.due > now:
                kept.append(message)
                continue
            problem = send(message.target, message.title, message.body)
            message.attempts += 1
            where = _shown(message.target)
            if problem is None:
                done.append((message.key, f"sent to {where} at {now:%Y-%m-%d %H:%M:%S} UTC"))
            elif message.attempts >= DELIVERY_ATTEMPTS:
                logger.warning("%s to %s given up after %d attempts: %s", message.title, where,
                               message.attempts, problem)
                done.append((message.key, f"not sent to {where} after {message.attempts} "
                                          f"attempts: {problem}"))
            else:
                if message.attempts == 1:
                    logger.warning("%s not sent to %s (%s); retried with back-off",
                                   message.title, where, problem)
                message.due = now + backoff(message.attempts)
                kept.append(message)
                done.append((message.key, f"not sent to {where} (attempt {message.attempts}, "
                                          f"next at {message.due:%H:%M:%S} UTC): {problem}"))
        self.waiting = kept
        return done
