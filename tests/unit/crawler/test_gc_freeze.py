"""The worker freezes its start-up objects once the engine runs (garbage excluded) and
collects young objects less often."""

from __future__ import annotations

import gc
import weakref

from scrapy.utils.test import get_crawler

from crawler import settings
from crawler.patches.gc_freeze import FreezeStartupObjects


class _Node:
    """A weak-referenceable object that can sit in a reference cycle."""

    def __init__(self) -> None:
        self.me = self


def _cycle() -> weakref.ref:
    """A reference cycle nobody holds: only the cyclic collector can free it."""
    return weakref.ref(_Node())


def test_the_project_settings_enable_the_extension() -> None:
    crawler = get_crawler(settings_dict={"EXTENSIONS": settings.EXTENSIONS})
    crawler._apply_settings()
    assert any(isinstance(e, FreezeStartupObjects) for e in crawler.extensions.middlewares)


def test_engine_start_collects_garbage_then_freezes_the_rest() -> None:
    extension = FreezeStartupObjects.from_crawler(get_crawler(settings_dict={
        "GC_YOUNG_THRESHOLD": 5000}))
    thresholds = gc.get_threshold()
    kept = _Node()  # alive at start-up: frozen, not freed
    before = _cycle()
    gc.unfreeze()
    try:
        extension.engine_started()
        assert before() is None  # start-up garbage was collected, not frozen for ever
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (5000, *thresholds[1:])
        assert kept.me is kept
        after = _cycle()  # what the crawl allocates is still collected
        gc.collect()
        assert after() is None
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
