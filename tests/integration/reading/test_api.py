"""The HTTP API over real HTTP (uvicorn on 127.0.0.1), on PostgreSQL and SQLite: the token,
paging, sanitised HTML, watches and alerts; and Schemathesis against its OpenAPI document."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance
from sqlalchemy import select
from sqlalchemy.orm import Session

from models.page import Article
from models.store import save_pages
from reading.api import create_app
from reading.watches import match_new
from tests.factories import article_page

TOKEN = "test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
HOSTILE = ('<p>正文<script>alert(1)</script><img src=x onerror="alert(2)">'
           '<a href="  javascript:alert(3)">链接</a><a href="https://ok.example/">好</a></p>')


@dataclass
class Server:
    url: str


@pytest.fixture
def api(store_url: str) -> Iterator[Server]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(store_url, TOKEN), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield Server(f"http://127.0.0.1:{port}")
    server.should_exit = True
    thread.join(10)


def _store(session: Session) -> int:
    page = article_page("http://news.example.cn/a1", body="疫情防控取得新进展。")
    page["article"]["content_html"] = page["article"]["body_html"] = HOSTILE
    save_pages(session, [page])
    session.commit()
    return session.scalar(select(Article.id))


def test_health_is_open_everything_else_needs_the_token(api: Server) -> None:
    assert httpx.get(api.url + "/health").json() == {"status": "ok"}
    assert httpx.get(api.url + "/search", params={"q": "x"}).status_code == 401
    assert httpx.get(api.url + "/search", params={"q": "x"},
                     headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert httpx.get(api.url + "/search", params={"q": "x"}, headers=AUTH).status_code == 200


def test_search_article_and_sanitised_html(api: Server, session: Session) -> None:
    article_id = _store(session)
    found = httpx.get(api.url + "/search", params={"q": "疫情", "kind": "article"},
                      headers=AUTH).json()
    assert [hit["id"] for hit in found["hits"]] == [article_id] and not found["more"]
    assert "<mark>疫情</mark>" in found["hits"][0]["snippet"]
    shown = httpx.get(f"{api.url}/articles/{article_id}", headers=AUTH).json()
    assert [c["text"] for c in shown["comments"]] == ["好文章！", "同意楼上。"]
    html = shown["body_html"]
    assert "script" not in html and "onerror" not in html and "javascript" not in html
    assert 'href="https://ok.example/"' in html
    assert httpx.get(f"{api.url}/articles/999999", headers=AUTH).status_code == 404
    bad = httpx.get(api.url + "/search", params={"q": "NOT x"}, headers=AUTH)
    assert bad.status_code == 400 and "only exclude" in bad.json()["detail"]
    assert httpx.get(api.url + "/search", params={"q": "x", "per_page": 1000},
                     headers=AUTH).status_code == 422


def test_watches_and_alerts(api: Server, session: Session) -> None:
    created = httpx.post(api.url + "/watches", headers=AUTH,
                         json={"name": "epidemic", "query": "疫情", "kinds": ["article"]})
    assert created.status_code == 201, created.text
    assert httpx.post(api.url + "/watches", headers=AUTH,
                      json={"name": "epidemic", "query": "疫情"}).status_code == 409
    _store(session)
    match_new(session)
    session.commit()
    [alert] = httpx.get(api.url + "/alerts", params={"unread": True}, headers=AUTH).json()
    assert alert["watch"] == "epidemic" and not alert["read"]
    assert httpx.post(f"{api.url}/alerts/{alert['id']}/read", headers=AUTH).status_code == 204
    assert httpx.get(api.url + "/alerts", params={"unread": True}, headers=AUTH).json() == []
    assert httpx.delete(api.url + "/watches/epidemic", headers=AUTH).status_code == 204
    assert httpx.get(api.url + "/watches", headers=AUTH).json() == []


def test_the_api_keeps_to_its_openapi_document(api: Server, session: Session) -> None:
    """Schemathesis generates requests for every operation of the served OpenAPI document
    and checks each answer: no server error, documented status codes, content types and
    response schemas. (Its pytest plugin does not load under this pytest; the same checks
    run through its Python API.) A query the search language cannot read is refused with a
    documented 400 and its reason, which no JSON schema can say beforehand, so the check
    that every schema-valid request succeeds is left out."""
    _store(session)
    schema = schemathesis.openapi.from_url(api.url + "/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck),
                  database=None)
        def conforms(case: schemathesis.Case) -> None:
            case.call_and_validate(headers=AUTH, excluded_checks=[positive_data_acceptance])

        conforms()
