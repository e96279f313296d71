"""bench.store: the grouping's share of the pass is timed apart, in the worker and in the
database backend, so search's cost and the stories' cost are each charged to their goal."""

from __future__ import annotations

from bench.crawl import _drop_database, _fresh_database
from bench.store import demo_records, timed_writes
from models.db import session_factory


def test_the_grouping_is_timed_apart_from_the_rest_of_the_write(postgres_admin_url: str
                                                                 ) -> None:
    records = demo_records(60)
    assert sum(1 for record in records if record.get("article")) >= 20
    timings = {}
    for search in (True, False):
        url = _fresh_database(postgres_admin_url)
        try:
            timings[search] = timed_writes(url, records, 20, search)
        finally:
            session_factory(url).kw["bind"].dispose()
            _drop_database(postgres_admin_url, url)
    with_search, without = timings[True], timings[False]
    assert 0 < with_search.grouping < with_search.cpu
    assert 0 <= with_search.database_grouping <= with_search.database
    assert without.grouping == without.database_grouping == 0
