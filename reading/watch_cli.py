"""`python -m crawler watch add|list|remove` and `python -m crawler alerts`."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime

from sqlalchemy import func, select, update

from models.health import HealthAlert
from models.watch import Alert, Delivery, Watch
from reading.delivery import deliver_due, target_for
from reading.options import add_database, sessions_for
from reading.query import QueryError
from reading.snippets import plain
from reading.stories import group_new
from reading.watches import WatchError, WatchSpec, add_watch, match_new


def watch_main(argv: list[str]) -> int:
    """Add, list or remove watches."""
    parser = argparse.ArgumentParser(
        prog="python -m crawler watch",
        description="Standing queries: what a crawl stores from now on that matches one "
                    "raises an alert (once per story), sent to the watch's targets.")
    actions = parser.add_subparsers(dest="action", required=True,
                                    help="add, list or remove")
    add = actions.add_parser("add", help="add a watch")
    add.add_argument("name")
    add.add_argument("query", help="a search query (see `python -m crawler search --help`)")
    add.add_argument("--source", action="append", default=[], dest="sources")
    add.add_argument("--site", action="append", default=[], dest="sites")
    add.add_argument("--type", action="append", default=[], dest="page_types")
    add.add_argument("--kind", action="append", default=[], dest="kinds",
                     choices=("article", "comment", "record"))
    add.add_argument("--language", action="append", default=[], dest="languages")
    add.add_argument("--webhook", action="append", default=[],
                     help="a webhook URL: generic JSON, or a DingTalk, WeCom, Feishu or Slack "
                          "robot's URL, or any apprise URL (repeatable)")
    add.add_argument("--email", action="append", default=[],
                     help="an address, sent through $ALERT_SMTP_URL (repeatable)")
    listing = actions.add_parser("list", help="list the watches")
    listing.add_argument("--json", action="store_true")
    remove = actions.add_parser("remove", help="remove a watch and its alerts")
    remove.add_argument("name")
    for sub in (add, listing, remove):
        add_database(sub)
    args = parser.parse_args(argv)
    sessions = sessions_for(parser.prog, args.database_url)
    if sessions is None:
        return 2
    with sessions.begin() as session:
        if args.action == "add":
            spec = WatchSpec(args.name, args.query,
                             {key: getattr(args, key) for key in
                              ("sources", "sites", "page_types", "kinds", "languages")},
                             [target_for(value) for value in args.webhook + args.email])
            try:
                add_watch(session, spec)
            except (WatchError, QueryError) as error:
                print(f"{parser.prog} add: {error}", file=sys.stderr)
                return 2
            print(f"watching {args.name!r}: {args.query}")
        elif args.action == "remove":
            watch = session.scalar(select(Watch).where(Watch.name == args.name))
            if watch is None:
                print(f"{parser.prog} remove: no watch named {args.name!r}", file=sys.stderr)
                return 2
            session.delete(watch)
            print(f"removed {args.name!r}")
        else:
            _list(session, args.json)
    return 0


def _list(session, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    counts = dict(session.execute(select(Alert.watch_id, func.count())
                                  .group_by(Alert.watch_id)).all())
    for watch in session.scalars(select(Watch).order_by(Watch.name)):
        record = {"name": watch.name, "query": watch.query, "filters": watch.filters,
                  "targets": len(watch.targets), "alerts": counts.get(watch.id, 0),
                  "created_at": watch.created_at.isoformat()}
        print(json.dumps(record, ensure_ascii=False) if as_json else
              f"{watch.name}\t{watch.query}\t{record['alerts']} alerts\t"
              f"{len(watch.targets)} targets\t{watch.filters or ''}")


def alerts_main(argv: list[str]) -> int:
    """List alerts, mark them read, or match and deliver now."""
    parser = argparse.ArgumentParser(
        prog="python -m crawler alerts",
        description="List the alerts watches raised (newest first); `deliver` matches what "
                    "was stored since and sends what is due now (crawls do this after each "
                    "stored batch).")
    parser.add_argument("action", nargs="?", choices=("list", "deliver"), default="list",
                        help="list the alerts (default), or match and deliver now")
    parser.add_argument("--unread", action="store_true", help="only alerts not read yet")
    parser.add_argument("--watch", help="only this watch's alerts")
    parser.add_argument("--limit", type=int, default=50, help="alerts shown (default 50)")
    parser.add_argument("--json", action="store_true", help="one JSON object per alert")
    parser.add_argument("--mark-read", action="store_true",
                        help="mark the listed alerts read")
    parser.add_argument("--health", action="store_true",
                        help="list the crawl-health alerts instead (open ones first)")
    add_database(parser)
    args = parser.parse_args(argv)
    sessions = sessions_for(parser.prog, args.database_url)
    if sessions is None:
        return 2
    with sessions.begin() as session:
        if args.health and args.action == "list":
            _health(session, args.limit, args.json)
            return 0
        if args.action == "deliver":
            group_new(session)
            raised = match_new(session)
            counts = deliver_due(session)
            print(f"{raised} new alerts; deliveries: {counts['sent']} sent, "
                  f"{counts['retried']} to retry, {counts['failed']} given up")
            return 0
        statement = (select(Alert, Watch.name).join(Watch)
                     .order_by(Alert.created_at.desc(), Alert.id.desc()).limit(args.limit))
        if args.unread:
            statement = statement.where(Alert.read_at.is_(None))
        if args.watch:
            statement = statement.where(Watch.name == args.watch)
        rows = session.execute(statement).all()
        failures = _failures(session, [alert.id for alert, _ in rows])
        for alert, name in rows:
            _show(alert, name, failures.get(alert.id), args.json)
        if args.mark_read and rows:
            session.execute(update(Alert).where(Alert.id.in_([a.id for a, _ in rows]))
                            .values(read_at=datetime.now(UTC)))
    return 0


def _health(session, limit: int, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    rows = session.scalars(select(HealthAlert).order_by(
        HealthAlert.cleared_at.is_(None).desc(), HealthAlert.raised_at.desc(),
        HealthAlert.id.desc()).limit(limit))
    for row in rows:
        if as_json:
            print(json.dumps({"id": row.id, "kind": row.kind, "key": row.key,
                              "origin": row.origin, "message": row.message,
                              "raised_at": row.raised_at.isoformat(),
                              "cleared_at": row.cleared_at and row.cleared_at.isoformat(),
                              "delivery": row.delivery}, ensure_ascii=False))
            continue
        state = "OPEN   " if row.cleared_at is None else f"cleared {row.cleared_at:%m-%d %H:%M}"
        print(f"{state}  {row.raised_at:%Y-%m-%d %H:%M:%S}  {row.kind}  {row.message}"
              + (f"\n    {row.delivery}" if row.delivery else ""))


def _failures(session, ids: list[int]) -> dict[int, str]:  # type: ignore[no-untyped-def]
    """alert id → how its deliveries stand, where one has not gone out."""
    found: dict[int, str] = {}
    for delivery in session.scalars(select(Delivery).where(
            Delivery.alert_id.in_(ids), Delivery.status != "sent")):
        found[delivery.alert_id] = (f"delivery {delivery.status} after {delivery.attempts} "
                                    f"attempts: {delivery.last_error or '-'}")
    return found


def _show(alert: Alert, watch: str, failure: str | None, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"id": alert.id, "watch": watch, "kind": alert.kind, "url": alert.url,
                          "title": alert.title, "snippet": alert.snippet, "site": alert.site,
                          "published_at": alert.published_at.isoformat(),
                          "created_at": alert.created_at.isoformat(),
                          "read": alert.read_at is not None, "delivery_problem": failure},
                         ensure_ascii=False))
        return
    mark = " " if alert.read_at else "*"
    print(f"{mark} {alert.id}  [{watch}]  {alert.created_at:%Y-%m-%d %H:%M}  {alert.kind}  "
          f"{alert.title or ''}\n    {alert.url}\n    {plain(alert.snippet)}"
          + (f"\n    ! {failure}" if failure else "") + "\n")
