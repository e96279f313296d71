"""Spiders decide what to fetch; item pipelines decide what a page is and what it says."""
