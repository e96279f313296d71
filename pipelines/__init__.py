"""Extraction pipeline: pure algorithms over lxml trees plus thin Scrapy item pipelines.

Algorithm modules never import Scrapy, so they can be tested, benchmarked and
reused alone; only `pipelines.scrapy_items` touches Scrapy.
"""
