"""Crawl settings: every default in crawler/settings.py, none repeated by a component."""

from __future__ import annotations

import re

from crawler import settings
from models.db import PROJECT_ROOT as ROOT

# A settings read whose fallback is a literal, e.g. settings.getint("X", 4).
_LITERAL_FALLBACK = re.compile(r"""\.get\w*\(\s*"[A-Z_]+"\s*,\s*[-\d"'(\[{]""")


def test_components_fall_back_on_the_settings_module_only() -> None:
    offenders = [f"{path.relative_to(ROOT)}: {match.group(0)}"
                 for path in sorted((ROOT / "crawler").rglob("*.py"))
                 if path.name != "settings.py"  # where the defaults (and os.environ) are read
                 for match in _LITERAL_FALLBACK.finditer(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_crawl_runs_with_the_settings_module_values() -> None:
    assert (settings.CLUSTER_POP_BATCH, settings.CLUSTER_POP_LOOKAHEAD,
            settings.CLUSTER_IDLE_POLL_SECONDS, settings.GC_YOUNG_THRESHOLD
            ) == (4, 64, 0.25, 10_000)
