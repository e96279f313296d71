"""Our patches of Scrapy behaviour, one module each, written for Scrapy 2.19 (pinned in
pyproject.toml). Each docstring names the behaviour it works around;
tests/unit/crawler/test_patches.py checks that behaviour is still upstream, so a failing test
says a patch may go. Evidence:
docs/DECISIONS.md, "Patches of Scrapy".

`robots` (robots.txt for requests that waited for its fetch), `download` (per-domain
concurrency kept at the transfer), `meta_refresh` (no decoding for pages that cannot
refresh), `stats` (no per-access shim), `logformatter` (no per-page DEBUG records below
DEBUG), `gc_freeze` (start-up objects out of the collector's sight).
"""

PATCHED_SCRAPY = (2, 19)  # the Scrapy minor version these patches were written for
