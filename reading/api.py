"""The HTTP API: a read-mostly view of the store for dashboards and scripts (FastAPI, its
OpenAPI document at /openapi.json).

Search, articles with their comments, a list page's records, stories, sources and runs,
watches and alerts. Every route but /health needs `Authorization: Bearer $API_TOKEN`;
results come in pages (`page`, `per_page` ≤ MAX_PER_PAGE). Stored HTML is passed through
the store's sanitiser (pipelines.safe_html, nh3) on the way out, whatever the store holds:
no scripts, event handlers or javascript: URLs reach a reader.

    API_TOKEN=… python -m crawler api [--host 127.0.0.1] [--port 8000]
"""


import argparse
import hmac
import os
import sys
from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi import Path as FastApiPath
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from models.crawl import CrawlRun, Source
from models.db import database_url, get_engine
from models.page import Article, ListRecord, Page
from models.schema import DatabaseNotReady, check_schema
from models.story import ArticleStory
from models.watch import Alert, Watch
from pipelines.safe_html import sanitise
from reading.delivery import target_for
from reading.query import QueryError
from reading.search import Filters, Hit, search
from reading.stories import members
from reading.watches import WatchError, WatchSpec, add_watch

MAX_PER_PAGE = 100


class Problem(BaseModel):
    """Why a request was refused, in words."""

    detail: str


_MISSING: dict[int | str, dict[str, Any]] = {404: {"model": Problem}}
_REFUSED: dict[int | str, dict[str, Any]] = {400: {"model": Problem}}


class SearchOut(BaseModel):
    hits: list[Hit]  # reading.search's own dataclass: one definition of a hit
    page: int
    more: bool


class CommentOut(BaseModel):
    position: int
    author: str | None
    published_at: datetime | None
    text: str


class ArticleOut(BaseModel):
    id: int
    url: str
    page_type: str | None
    title: str | None
    author: str | None
    outlet: str | None
    published_at: datetime | None
    language: str | None
    body_text: str
    body_html: str
    story_id: int | None
    comments: list[CommentOut]


class RecordOut(BaseModel):
    position: int
    title: str | None
    url: str | None
    date: datetime | None
    snippet: str | None


class StoryMemberOut(BaseModel):
    article_id: int
    url: str
    title: str | None
    outlet: str | None
    published_at: datetime | None


class SourceOut(BaseModel):
    id: int
    name: str
    start_urls: list[Any]
    enabled: bool
    interval_seconds: int | None
    cron: str | None


class RunOut(BaseModel):
    id: int
    spider: str
    source_id: int | None
    started_at: datetime
    finished_at: datetime | None
    status: str
    stats: dict[str, Any]


class WatchIn(BaseModel):
    name: str
    query: str
    sources: list[str] = []
    sites: list[str] = []
    page_types: list[str] = []
    kinds: list[Literal["article", "comment", "record"]] = []
    languages: list[str] = []
    targets: list[str] = []


class WatchOut(BaseModel):
    id: int
    name: str
    query: str
    filters: dict[str, Any]
    targets: int
    created_at: datetime


class AlertOut(BaseModel):
    id: int
    watch: str
    kind: str
    url: str
    title: str | None
    snippet: str
    site: str
    published_at: datetime
    created_at: datetime
    read: bool


Paging = tuple[int, int]
# A row id as the stores hold it (a 32-bit integer): anything else is refused up front.
RowId = Annotated[int, FastApiPath(ge=1, le=2**31 - 1)]


def paging(page: Annotated[int, Query(ge=1, le=10_000)] = 1,
           per_page: Annotated[int, Query(ge=1, le=MAX_PER_PAGE)] = 20) -> Paging:
    return page, per_page


def create_app(url: str | None = None, token: str | None = None) -> FastAPI:
    """The API over the database at `url`, guarded by `token` (required)."""
    if not token:
        raise ValueError("the API needs a token: set API_TOKEN")
    sessions = sessionmaker(get_engine(database_url(url)), expire_on_commit=False)
    app = FastAPI(title="opinion-crawler", version="1",
                  description="Search and read what the crawl stored; watches and alerts.")

    def session() -> Iterator[Session]:
        with sessions() as opened:
            yield opened

    def authorised(authorization: Annotated[str | None, Header()] = None) -> None:
        given = (authorization or "").removeprefix("Bearer ").strip()
        if not hmac.compare_digest(given.encode(), token.encode()):
            raise HTTPException(401, "a valid 'Authorization: Bearer <API_TOKEN>' is needed")

    Db = Annotated[Session, Depends(session)]
    Page_ = Annotated[Paging, Depends(paging)]
    guarded = [Depends(authorised)]
    app.router.responses = {400: {"model": Problem}, 401: {"model": Problem}}

    @app.middleware("http")
    async def refuse_nul(request: Request, call_next: Any) -> Any:
        """A NUL character can be stored by neither database: refused up front, wherever
        it is (path, query, JSON body), not as a server error deep in a query."""
        body = await request.body()
        if "%00" in str(request.url) or b"\\u0000" in body or b"\x00" in body:
            return JSONResponse({"detail": "NUL characters are not accepted"}, status_code=400)
        return await call_next(request)

    @app.get("/health")
    def health(db: Db) -> dict[str, str]:
        db.execute(select(1))
        return {"status": "ok"}

    @app.get("/search", dependencies=guarded, responses=_REFUSED)
    def search_route(db: Db, paged: Page_, q: Annotated[str, Query(min_length=1, max_length=500)],
                     since: datetime | None = None, until: datetime | None = None,
                     source: Annotated[list[str], Query()] = [],  # noqa: B006 (FastAPI's way)
                     site: Annotated[list[str], Query()] = [],  # noqa: B006
                     type: Annotated[list[str], Query()] = [],  # noqa: A002, B006
                     kind: Annotated[list[Literal["article", "comment", "record"]],
                                     Query()] = [],  # noqa: B006
                     language: Annotated[list[str], Query()] = [],  # noqa: B006
                     sort: Literal["time", "relevance"] = "time",
                     collapse: bool = False) -> SearchOut:
        page, per_page = paged
        filters = Filters(tuple(source), tuple(site), tuple(type), tuple(kind), tuple(language),
                          since, until)
        try:
            results = search(db, q, filters, order=sort, limit=per_page,
                             offset=(page - 1) * per_page, collapse=collapse)
        except QueryError as error:
            raise HTTPException(400, str(error)) from error
        return SearchOut(hits=results.hits, page=page,
                         more=results.more)

    @app.get("/articles/{article_id}", dependencies=guarded, responses=_MISSING)
    def article(db: Db, article_id: RowId) -> ArticleOut:
        found = db.get(Article, article_id)
        if found is None:
            raise HTTPException(404, "no such article")
        story = db.get(ArticleStory, article_id)
        return ArticleOut(
            id=found.id, url=found.page.url, page_type=found.page.page_type, title=found.title,
            author=found.author, outlet=found.source, published_at=found.published_at,
            language=found.language, body_text=found.body_text,
            body_html=sanitise(found.body_html), story_id=story.story_id if story else None,
            comments=[CommentOut(position=c.position, author=c.author,
                                 published_at=c.published_at, text=c.text)
                      for c in found.comments])

    @app.get("/pages/{page_id}/records", dependencies=guarded, responses=_MISSING)
    def records(db: Db, page_id: RowId, paged: Page_) -> list[RecordOut]:
        page, per_page = paged
        if db.get(Page, page_id) is None:
            raise HTTPException(404, "no such page")
        rows = db.scalars(select(ListRecord).where(ListRecord.page_id == page_id)
                          .order_by(ListRecord.position).offset((page - 1) * per_page)
                          .limit(per_page))
        return [RecordOut(position=r.position, title=r.title, url=r.url, date=r.date,
                          snippet=r.snippet) for r in rows]

    @app.get("/stories/{story_id}", dependencies=guarded, responses=_MISSING)
    def story(db: Db, story_id: RowId) -> list[StoryMemberOut]:
        copies = members(db, story_id)
        if not copies:
            raise HTTPException(404, "no such story")
        return [StoryMemberOut(article_id=m.article_id, url=m.url, title=m.title,
                               outlet=m.credits, published_at=m.published_at) for m in copies]

    @app.get("/sources", dependencies=guarded)
    def sources(db: Db, paged: Page_) -> list[SourceOut]:
        page, per_page = paged
        rows = db.scalars(select(Source).order_by(Source.name)
                          .offset((page - 1) * per_page).limit(per_page))
        return [SourceOut(id=s.id, name=s.name, start_urls=s.start_urls, enabled=s.enabled,
                          interval_seconds=s.interval_seconds, cron=s.cron) for s in rows]

    @app.get("/runs", dependencies=guarded)
    def runs(db: Db, paged: Page_) -> list[RunOut]:
        page, per_page = paged
        rows = db.scalars(select(CrawlRun).order_by(CrawlRun.id.desc())
                          .offset((page - 1) * per_page).limit(per_page))
        return [RunOut(id=r.id, spider=r.spider, source_id=r.source_id, started_at=r.started_at,
                       finished_at=r.finished_at, status=r.status, stats=r.stats) for r in rows]

    @app.get("/watches", dependencies=guarded)
    def watches(db: Db) -> list[WatchOut]:
        return [WatchOut(id=w.id, name=w.name, query=w.query, filters=w.filters,
                         targets=len(w.targets), created_at=w.created_at)
                for w in db.scalars(select(Watch).order_by(Watch.name))]

    @app.post("/watches", dependencies=guarded, status_code=201,
              responses={**_REFUSED, 409: {"model": Problem}})
    def create_watch(db: Db, given: WatchIn) -> WatchOut:
        spec = WatchSpec(given.name, given.query,
                         {key: list(getattr(given, key)) for key in
                          ("sources", "sites", "page_types", "kinds", "languages")},
                         [target_for(target) for target in given.targets])
        if db.scalar(select(Watch.id).where(Watch.name == given.name)) is not None:
            raise HTTPException(409, f"a watch named {given.name!r} exists")
        try:
            watch = add_watch(db, spec)
        except (WatchError, QueryError) as error:
            raise HTTPException(400, str(error)) from error
        db.commit()
        return WatchOut(id=watch.id, name=watch.name, query=watch.query, filters=watch.filters,
                        targets=len(watch.targets), created_at=watch.created_at)

    @app.delete("/watches/{name}", dependencies=guarded, status_code=204, responses=_MISSING)
    def delete_watch(db: Db, name: str) -> None:
        watch = db.scalar(select(Watch).where(Watch.name == name))
        if watch is None:
            raise HTTPException(404, "no such watch")
        db.delete(watch)
        db.commit()

    @app.get("/alerts", dependencies=guarded)
    def alerts(db: Db, paged: Page_, unread: bool = False,
               watch: str | None = None) -> list[AlertOut]:
        page, per_page = paged
        statement = (select(Alert, Watch.name).join(Watch)
                     .order_by(Alert.created_at.desc(), Alert.id.desc())
                     .offset((page - 1) * per_page).limit(per_page))
        if unread:
            statement = statement.where(Alert.read_at.is_(None))
        if watch:
            statement = statement.where(Watch.name == watch)
        return [AlertOut(id=a.id, watch=name, kind=a.kind, url=a.url, title=a.title,
                         snippet=sanitise(a.snippet), site=a.site,
                         published_at=a.published_at, created_at=a.created_at,
                         read=a.read_at is not None) for a, name in db.execute(statement)]

    @app.post("/alerts/{alert_id}/read", dependencies=guarded, status_code=204,
              responses=_MISSING)
    def read_alert(db: Db, alert_id: RowId) -> None:
        done = db.execute(update(Alert).where(Alert.id == alert_id)
                          .values(read_at=func.coalesce(Alert.read_at, func.now())))
        if not done.rowcount:
            raise HTTPException(404, "no such alert")
        db.commit()

    return app


def main(argv: list[str]) -> int:
    """Serve the API (127.0.0.1 unless told otherwise)."""
    import uvicorn

    parser = argparse.ArgumentParser(
        prog="python -m crawler api",
        description="Serve the HTTP API (OpenAPI at /openapi.json, docs at /docs). Every "
                    "route but /health needs 'Authorization: Bearer $API_TOKEN'.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    parser.add_argument("--database-url", default=None,
                        help="the database to serve (default: $DATABASE_URL, else the "
                             "embedded SQLite file)")
    args = parser.parse_args(argv)
    try:
        check_schema(args.database_url)
        app = create_app(args.database_url, os.environ.get("API_TOKEN"))
    except (DatabaseNotReady, ValueError) as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    return 0
