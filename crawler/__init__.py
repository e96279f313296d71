"""Scrapy project: settings, spiders, middlewares, the demo site."""
