"""Scrapy project: settings, spiders, middlewares."""
