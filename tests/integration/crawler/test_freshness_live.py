"""A scheduled source keeps up with the live demo site (bench/freshness.py, compressed):
the scheduler, a worker on a Redis of its own and PostgreSQL, with every interval divided
by the time scale. The long run, an hour with the default revisit policy, is
`python -m bench.freshness` (docs/BENCHMARKS.md, "Freshness"); these 12 simulated minutes
revisit every 5 (the source's REVISIT_MIN_INTERVAL), so that comments' windows close
within the run and are judged, not censored.

The 95 % goals are the bench's to measure: compressed 15 times, every second a neighbour test
takes from the crawl reads as 15 simulated seconds, and a loaded CI machine measured 93.8 %
of comments in time (3 of 48 missed) on code that meets the goal at length. This test checks
the mechanism: revisits follow the policy (without them no comment would be stored in
time), nothing is stored twice or astray, and unchanged pages cost a 304."""

from __future__ import annotations

from pathlib import Path

from bench.freshness import Policy, measure, render
from tests.demosite import SiteConfig
from tests.demosite.live import LiveConfig

# 12 simulated minutes in 48 s, the 5-minute schedule every 20 s: at 30× a neighbour test's
# load (the suite runs two at once on two cores) stretched the crawl's second or two a cycle
# past the comments' windows (91.5 % and 93.6 % of comments in time, twice in one day).
SCALE = 15.0
SMALL_SITE = SiteConfig(articles_per_section=3, threads_per_board=2, blog_posts=4)
BUSY = LiveConfig(scale=SCALE, duration=720, items_per_hour=150, comments_per_hour=600,
                  comment_edits_per_hour=20, comment_deletes_per_hour=20,
                  article_edits_per_hour=10, open_items=12)
# Share of new articles and comments stored within their goal that shows the schedule and the
# revisits at work on a loaded machine (the bench's goal is 95 %; lowest seen here 91.5 %).
MECHANISM_SHARE = 0.85


def test_a_scheduled_source_keeps_up_with_the_live_site(postgres_admin_url: str,
                                                        tmp_path: Path) -> None:
    policy = Policy(revisit_min=300.0)
    report = measure(SCALE, live=BUSY, policy=policy, admin_url=postgres_admin_url,
                     site=SMALL_SITE, tail=300, log_folder=tmp_path)
    shown = render(report, policy)
    assert report.changes["item"] >= 20 and report.changes["comment"] >= 80, shown
    assert report.changes.get("comment_edit") and report.changes.get("comment_delete"), shown
    assert report.articles.missed == 0, shown
    assert report.articles.share_within >= MECHANISM_SHARE, shown
    assert len(report.comments.delays) >= 30, shown
    assert report.comments.share_within >= MECHANISM_SHARE, shown
    assert report.duplicates.duplicated == 0 and report.duplicates.stray == 0, shown
    # revisits ask for a change: unchanged pages cost a 304, not their bytes
    assert report.bytes < report.naive_bytes / 2, shown
