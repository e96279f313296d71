"""`python -m crawler status`: what the crawl is doing now.

`live` (a Scrapy extension) publishes each worker's running figures; `snapshot` reads them,
with the cluster's own bookkeeping (`crawler.cluster.progress`) and the `crawl_run` rows,
into one `Snapshot`; `render` turns a snapshot into text or JSON (pure functions); `command`
is the command line, `--watch` and `--json`.
"""
