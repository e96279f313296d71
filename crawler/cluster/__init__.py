"""Distributed crawling on scrapy-redis: Redis holds the shared frontier and seen-sets.

One concept per module, each a small extension of a scrapy-redis part:
`keys` (Redis key names), `dupefilter` (a seen-set per crawl run), `ledger`
(pending requests per run; a run ends when its count drains to zero),
`queue` (a priority queue whose pop atomically holds the request as in-flight),
`scheduler` (acknowledged requests: a killed worker's in-flight requests go back
to the queue), `politeness` (per-domain concurrency and delay across workers),
`runs` (start a run of a stored Source), `schedule` (the process that starts due
sources).
"""
