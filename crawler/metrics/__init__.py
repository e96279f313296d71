"""Prometheus metrics of the crawl workers and the scheduler (prometheus-client).

`names` defines every metric (one place: the Grafana dashboard in deploy/grafana/ queries
these names, and a test checks it against a real crawl's /metrics); `cluster` reads the
shared queue from Redis when scraped; `serve` runs the /metrics endpoint; `worker` is the
crawl workers' Scrapy extension (on when METRICS_PORT is set). The scheduler serves its own
with `python -m crawler schedule --metrics-port`.
"""
