"""Watches on PostgreSQL and SQLite: one alert per story for what is stored after the watch
exists, delivered through apprise to a local webhook receiver and a local SMTP server,
retried with back-off when the target is down."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.header import decode_header, make_header

import pytest
from apprise.plugins.dingtalk import NotifyDingTalk
from apprise.plugins.feishu import NotifyFeishu
from apprise.plugins.slack import NotifySlack
from apprise.plugins.wecombot import NotifyWeComBot
from sqlalchemy import select
from sqlalchemy.orm import Session

from models.store import save_pages
from models.watch import Alert, Delivery
from reading.delivery import DELIVERY_ATTEMPTS, deliver_due, target_for
from reading.watches import WatchError, WatchSpec, add_watch, match_new
from tests.factories import article_page
from tests.receivers import WebhookReceiver, smtp_server, webhook_receiver


def _page(url: str, body: str, content_hash: str | None = None) -> dict:
    page = article_page(url, body=body, comments=("评论：疫情",))
    if content_hash:
        page["content_hash"] = content_hash
    return page


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with webhook_receiver() as receiver:
        yield receiver


def _store(session: Session, *pages: dict) -> None:
    save_pages(session, list(pages))
    session.commit()


def test_only_what_is_stored_after_the_watch_alerts_once_per_story(
        session: Session, receiver: WebhookReceiver) -> None:
    _store(session, _page("http://a.cn/old", "旧闻：疫情。"))
    add_watch(session, WatchSpec("疫情", "疫情", {"kinds": ["article"]},
                                 [target_for(receiver.url + "/hook")]))
    session.commit()
    assert match_new(session) == 0

    _store(session, _page("http://a.cn/1", "新冠疫情防控。"), _page("http://a.cn/2", "天气晴。"))
    assert match_new(session) == 1
    session.commit()
    assert deliver_due(session) == {"sent": 1, "retried": 0, "failed": 0}
    session.commit()
    [(path, payload)] = receiver.posts
    assert path == "/hook" and "疫情" in payload["message"]
    assert "http://a.cn/1" in payload["message"]
    assert payload["title"].startswith("[疫情]")

    # a revisit (unchanged), a replay of the same batch, and an edit: no second alert
    _store(session, _page("http://a.cn/1", "新冠疫情防控。"))
    _store(session, _page("http://a.cn/1", "新冠疫情防控，更新。", content_hash="edited"))
    assert match_new(session) == 0
    session.commit()
    assert deliver_due(session)["sent"] == 0
    assert len(receiver.posts) == 1
    [alert] = session.scalars(select(Alert)).all()
    assert alert.read_at is None and "<mark>疫情</mark>" in alert.snippet


def test_comments_and_filters(session: Session) -> None:
    add_watch(session, WatchSpec("all", "疫情"))
    add_watch(session, WatchSpec("list pages only", "疫情", {"page_types": ["list"]}))
    session.commit()
    _store(session, _page("http://a.cn/1", "新冠疫情防控。"))
    assert match_new(session) == 2  # the article and its comment, for the first watch
    session.commit()
    kinds = sorted(alert.kind for alert in session.scalars(select(Alert)))
    assert kinds == ["article", "comment"]


def test_a_target_that_is_down_is_retried_with_backoff_then_given_up(
        session: Session, receiver: WebhookReceiver) -> None:
    receiver.status = 500
    add_watch(session, WatchSpec("w", "疫情", {"kinds": ["article"]},
                                 [target_for(receiver.url + "/down")]))
    session.commit()
    _store(session, _page("http://a.cn/1", "疫情。"))
    match_new(session)
    session.commit()
    now = datetime.now(UTC)
    assert deliver_due(session, now) == {"sent": 0, "retried": 1, "failed": 0}
    session.commit()
    delivery = session.scalars(select(Delivery)).one()
    assert delivery.attempts == 1 and delivery.last_error
    assert delivery.next_attempt_at > now + timedelta(seconds=20)
    assert deliver_due(session, now)["retried"] == 0  # not due yet
    tries = [deliver_due(session, now + timedelta(hours=2 * attempt))
             for attempt in range(1, DELIVERY_ATTEMPTS)]
    session.commit()
    assert tries[-1] == {"sent": 0, "retried": 0, "failed": 1}
    assert [t["retried"] for t in tries[:-1]] == [1] * (DELIVERY_ATTEMPTS - 2)
    assert session.scalars(select(Delivery)).one().status == "failed"


def test_e_mail_through_smtp(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    with smtp_server() as (port, messages):
        monkeypatch.setenv("ALERT_SMTP_URL", f"smtp://127.0.0.1:{port}")
        monkeypatch.setenv("ALERT_MAIL_FROM", "alerts@example.org")
        add_watch(session, WatchSpec("mail", "疫情", {"kinds": ["article"]},
                                     [target_for("analyst@example.org")]))
        session.commit()
        _store(session, _page("http://a.cn/1", "新冠疫情防控。"))
        match_new(session)
        session.commit()
        assert deliver_due(session)["sent"] == 1
    [mail] = messages
    subject = str(make_header(decode_header(mail["Subject"])))
    assert mail["To"] == "analyst@example.org" and subject == "[mail] 标题"


@pytest.mark.parametrize(("plugin", "attribute", "user_url", "expected"), [
    (NotifyDingTalk, "notify_url", "https://oapi.dingtalk.com/robot/send?access_token=abc123",
     lambda p: p["msgtype"] in ("text", "markdown")),
    (NotifyWeComBot, "notify_url", "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k1",
     lambda p: p["msgtype"] == "text" and "疫情" in p["text"]["content"]),
    (NotifyFeishu, "notify_url", "https://open.feishu.cn/open-apis/bot/v2/hook/tok-1",
     lambda p: "疫情" in str(p)),
    (NotifySlack, "webhook_url",
     "https://hooks.slack.com/services/T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ",
     lambda p: "疫情" in str(p)),
])
def test_chat_robot_formats(session: Session, receiver: WebhookReceiver,
                            monkeypatch: pytest.MonkeyPatch, plugin: type, attribute: str,
                            user_url: str, expected: object) -> None:
    """The service's payload as apprise builds it, sent to the local receiver in place of
    the service's host (the only thing changed)."""
    original = getattr(plugin, attribute)
    local = original.replace("https://", "http://").split("/", 3)
    monkeypatch.setattr(plugin, attribute, f"{receiver.url}/{local[3]}")
    if plugin is NotifySlack:
        receiver.reply = b"ok"  # Slack's webhooks answer a bare "ok"
    add_watch(session, WatchSpec("robot", "疫情", {"kinds": ["article"]}, [target_for(user_url)]))
    session.commit()
    _store(session, _page("http://a.cn/1", "新冠疫情防控。"))
    match_new(session)
    session.commit()
    assert deliver_due(session)["sent"] == 1
    [(_, payload)] = receiver.posts
    assert expected(payload), payload  # type: ignore[operator]


@pytest.mark.parametrize(("spec", "why"), [
    (WatchSpec("w", "NOT x"), "only exclude"),
    (WatchSpec("w", "x", {"colour": ["red"]}), "unknown filters"),
    (WatchSpec("w", "x", {}, ["nonsense://"]), "apprise"),
])
def test_a_bad_watch_is_refused(session: Session, spec: WatchSpec, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        add_watch(session, spec)
    assert issubclass(WatchError, ValueError)
