"""A deterministic demo website (news portal, forum, blog) with ground truth, served locally.

Used by `make demo`, the end-to-end crawl tests and the benchmarks; standard library only.
"""

from crawler.demosite.catalog import SiteConfig
from crawler.demosite.faults import FAULTS
from crawler.demosite.server import DemoServer
from crawler.demosite.site import Page, Site

__all__ = ["FAULTS", "DemoServer", "Page", "Site", "SiteConfig"]
