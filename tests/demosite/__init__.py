"""A deterministic demo website (news portal, forum, blog) with ground truth, served locally.

Used by `make demo`, the end-to-end crawl tests and the benchmarks; standard library only.
"""

from tests.demosite.catalog import SiteConfig
from tests.demosite.faults import FAULTS
from tests.demosite.server import DemoServer
from tests.demosite.site import Page, Site

__all__ = ["FAULTS", "DemoServer", "Page", "Site", "SiteConfig"]
