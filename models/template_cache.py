"""Learned site templates, shared by every worker through the database.

Once a target/sibling pair of a URL pattern has been compared, later pages of that
pattern reuse the template without another sibling fetch. Memory fronts the
database so each worker reads a pattern's row at most once. A database outage
only costs extra sibling fetches, never a page.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from models.page import SiteTemplate
from models.schema import reason
from pipelines import Template

logger = logging.getLogger(__name__)


class TemplateCache:
    """Templates keyed by (host, URL pattern): in memory, backed by `site_template` rows."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions
        self._memory: dict[tuple[str, str], Template | None] = {}

    def remembered(self, host: str, pattern: str) -> bool:
        """Whether `get` answers from memory (else it reads the database)."""
        return (host, pattern) in self._memory

    def get(self, host: str, pattern: str) -> Template | None:
        """The pattern's template; on a first read it waits for the database (a crawl calls
        it from a thread: a database that hangs must not stop the reactor)."""
        key = (host, pattern)
        if key not in self._memory:
            self._memory[key] = self._load(host, pattern)
        return self._memory[key]

    def forget(self, host: str, pattern: str) -> None:
        """The site changed its template: the next page of the pattern re-learns it."""
        self._memory[(host, pattern)] = None

    def remember(self, host: str, pattern: str, template: Template) -> None:
        """Later pages of this worker use the template at once."""
        self._memory[(host, pattern)] = template

    def save(self, host: str, pattern: str, template: Template) -> None:
        """Share the template with every worker through its row; waits for the database
        (a crawl calls it from a thread), and an outage leaves it in memory only."""
        row = {"host": host, "url_pattern": pattern, "template": template.to_json(),
               "learned_at": datetime.now(UTC), "pages_matched": 0}
        try:
            with self.sessions.begin() as session:
                insert = (postgresql.insert if session.bind.dialect.name == "postgresql"
                          else sqlite.insert)(SiteTemplate).values(row)
                session.execute(insert.on_conflict_do_update(
                    index_elements=[SiteTemplate.host, SiteTemplate.url_pattern],
                    set_={"template": insert.excluded.template,
                          "learned_at": insert.excluded.learned_at}))
        except SQLAlchemyError as error:
            logger.warning("template for %s %s kept in memory only: %s", host, pattern,
                           reason(error))

    def _load(self, host: str, pattern: str) -> Template | None:
        try:
            with self.sessions() as session:
                data = session.scalar(select(SiteTemplate.template).where(
                    SiteTemplate.host == host, SiteTemplate.url_pattern == pattern))
        except SQLAlchemyError as error:
            logger.warning("cannot read templates (%s); will learn from a sibling", reason(error))
            return None
        return Template.from_json(data) if data else None
