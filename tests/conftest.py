"""How the suite splits over pytest-xdist's workers (pyproject.toml: `-n 2 --dist loadfile`).

Each test module runs whole on one worker: its Redis database (tests/services.py
`redis_database`), its module fixtures and the files it names are its own. So tests that
share a fixed resource live in one module: the project's var/demo.sqlite3 and the README's
fixed ports and /tmp files belong to tests/integration/test_readme.py alone.
"""

from __future__ import annotations

import pytest

# The longest modules (minutes; `pytest --durations`, docs/BENCHMARKS.md "Test suite time")
# start first, so that none of them is left to run alone at the end; the rest follow in
# collection order, the many short unit modules last (`--no-loadscope-reorder`: xdist would
# otherwise start the modules with the most tests first).
LONGEST_FIRST = ("tests/integration/test_readme.py", "tests/integration/deploy/test_stack.py",
                 "tests/integration/crawler/test_redis_restart.py")


def _rank(item: pytest.Item) -> int:
    module = item.nodeid.split("::")[0]
    return LONGEST_FIRST.index(module) if module in LONGEST_FIRST else len(LONGEST_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: each module keeps its order
