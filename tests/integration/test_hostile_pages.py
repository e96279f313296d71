"""Issue 24, bounded work: each hostile page through `python -m pipelines extract` in its own
process, within the goal of 5 s and 500 MB (docs/RELIABILITY.md, "Bounded pages").

What is checked exactly does not depend on the machine's speed: the caps each page hits and
what still comes out of it. The time bound is CPU time (not wall time, which a loaded
machine stretches) and loose: before the caps, these pages took 18 s to 411 s or 0.6 to
1.8 GB, so each assertion failed then."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile_pages import HOSTILE_PAGES, extract_in_subprocess

CPU_SECONDS = 5.0
PEAK_RSS_MB = 500
WALL_TIMEOUT = 120.0  # a run killed at this is a failure too

# page → (the caps it must hit, what must still come out)
EXPECTED = {
    "link_list": ({"elements"}, "records"),
    "nested_links": ({"elements"}, "records"),
    "many_attributes": ({"attributes"}, "content_text"),
    "big_table": ({"elements"}, "content_text"),
    "sibling_paragraphs": ({"elements", "markup"}, "content_text"),
    "deep_nesting": (set(), None),
    "one_text_node": ({"text", "markup"}, "content_text"),
    "tiny_elements": ({"elements"}, None),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_PAGES))
def test_a_hostile_page_is_read_in_bounded_time_and_memory(name: str, tmp_path: Path) -> None:
    generate, _, scale = HOSTILE_PAGES[name]
    run = extract_in_subprocess(generate(scale), tmp_path, WALL_TIMEOUT)
    assert run.returncode == 0, run.stderr[-2000:]
    caps, output = EXPECTED[name]
    assert set(run.output["capped"]) >= caps
    if output:
        assert run.output[output], f"nothing in {output}"
    assert run.cpu_seconds < CPU_SECONDS, run
    assert run.peak_rss_mb < PEAK_RSS_MB, run
