"""Scrapy settings for the crawler, and every default of the crawl's own settings: the one
place they are set (as scrapy-redis's `defaults.py`). Components read them with these
values as their only fallback (`from crawler import settings as defaults`), and `-s NAME=VALUE`
overrides any. Environment variables override a few: DATABASE_URL (store), REDIS_URL
(distributed mode via scrapy-redis), JOURNAL_DIR, LOG_LEVEL, MAX_IDLE_TIME_BEFORE_CLOSE."""

from __future__ import annotations

import os

from pipelines import LOG_LINES

BOT_NAME = "opinion-crawler"
SPIDER_MODULES = ["crawler.spiders"]
NEWSPIDER_MODULE = "crawler.spiders"
# `scrapy crawl` checks the spider's arguments and the database's schema before it starts.
COMMANDS_MODULE = "crawler.commands"

USER_AGENT = "opinion-crawler/0.1 (public-opinion monitoring; +https://github.com/opinion-crawler)"
ROBOTSTXT_OBEY = True
# Every request, redirects included, within its source's scope before anything else
# (crawler/scope.py); then under its Source's settings (so robots.txt is read for its agent).
# Scrapy's robots.txt middleware, fixed: requests waiting for robots.txt all get its rules.
# Meta refresh as Scrapy's, but pages whose head never says "refresh" are not decoded for it.
# Cookies: the middleware is always installed; COOKIES_ENABLED is the sources' default.
DOWNLOADER_MIDDLEWARES = {"crawler.scope.ScopeMiddleware": 10,
                          "crawler.source_policy.SourcePolicyMiddleware": 50,
                          "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
                          "crawler.patches.robots.RobotsTxtMiddleware": 100,
                          "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware": None,
                          "crawler.patches.meta_refresh.MetaRefreshMiddleware": 580,
                          "scrapy.downloadermiddlewares.cookies.CookiesMiddleware": None,
                          "crawler.source_policy.CookiesMiddleware": 700}
# Per-domain concurrency kept at the transfer itself (crawler/patches/download.py), plus the
# cluster's global per-domain leases when REDIS_URL is set.
# Only http and https are ever fetched: Scrapy's file, data, FTP and S3 handlers are off.
DOWNLOAD_HANDLERS = {"http": "crawler.patches.download.PoliteDownloadHandler",
                     "https": "crawler.patches.download.PoliteDownloadHandler",
                     "file": None, "data": None, "ftp": None, "s3": None}

# Politeness: AutoThrottle adapts the delay to each server's latency, within these bounds.
CONCURRENT_REQUESTS = 32
CONCURRENT_REQUESTS_PER_DOMAIN = 8
DOWNLOAD_DELAY = 0
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 0.25
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 4.0
# Outputs of one response processed at once: its requests are scheduled in order, before
# its item; Scrapy starts this many worker tasks per response (see docs/DECISIONS.md,
# "One output at a time"). Responses are still processed concurrently.
CONCURRENT_ITEMS = 1

# Faults: bounded waits, bounded retries, bounded redirects, bounded bodies.
DOWNLOAD_TIMEOUT = 20
RETRY_ENABLED = True
RETRY_TIMES = 2
REDIRECT_MAX_TIMES = 10
DOWNLOAD_MAXSIZE = 32 * 1024 * 1024
# Longer URLs are neither queued (Scrapy's UrlLengthMiddleware) nor fetched when a redirect
# leads to one (crawler/scope.py): no store indexes them, no log line carries them whole.
URLLENGTH_LIMIT = 2083
DOWNLOAD_WARNSIZE = 8 * 1024 * 1024
# CPU seconds one page may take from decoding to the end of its extraction (crawler/pages.py);
# past them the page is stored with what was done (pages/out_of_time, one WARNING line).
# 0: no limit. Evidence: docs/RELIABILITY.md, "Bounded pages".
PAGE_TIME_BUDGET_SECONDS = 3.0

# URL identity (crawler/urls.py): one page, one row, whichever spelling was linked. A query
# parameter named here (a trailing '*' matches by prefix) is dropped from every URL, and a
# path ending in one of these index names stands for its directory (`/a/index.html` is `/a/`).
# Both compare case-insensitively; override with -s NAME=a,b,c.
URL_TRACKING_PARAMETERS = ["utm_*", "spm", "from", "fbclid", "gclid", "dclid", "gbraid",
                           "wbraid", "yclid", "msclkid", "mc_cid", "mc_eid", "_hsenc", "_hsmi",
                           "igshid", "mkt_tok", "scm", "wt.mc_id"]
URL_DIRECTORY_INDEXES = ("index.html", "index.htm", "index.shtml", "index.xhtml", "index.php",
                         "index.asp", "index.aspx", "index.jsp", "default.htm", "default.html",
                         "default.asp", "default.aspx")

# Loopback and private addresses (checked after DNS resolution) are refused unless allowed
# here, per source (its ALLOW_PRIVATE_ADDRESSES setting) or by the environment variable
# CRAWL_ALLOW_PRIVATE_ADDRESSES=1: the demo and the tests crawl 127.0.0.1. A host's answer is
# remembered for ADDRESS_CHECK_CACHE_SECONDS.
ALLOW_PRIVATE_ADDRESSES = os.environ.get("CRAWL_ALLOW_PRIVATE_ADDRESSES") == "1"
ADDRESS_CHECK_CACHE_SECONDS = 300.0

COOKIES_ENABLED = False
# No console into a running crawler: Scrapy's telnet console and its remote-control HTTP
# server (which runs Python code sent to it, token-guarded, on every crawl by default in
# Scrapy 2.19) stay off on unattended workers.
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO")
# LOG_FORMAT=json (this setting or the environment variable): every line a JSON object (time,
# level, logger, message, run and source when known; pipelines/log_lines.py), guarded as
# text lines are. Any other value is a Python log format, Scrapy's by default.
LOG_FORMAT = os.environ.get("LOG_FORMAT") or "%(asctime)s [%(name)s] %(levelname)s: %(message)s"
# No per-page "Crawled"/"Scraped" DEBUG records unless DEBUG is logged.
LOG_FORMATTER = "crawler.patches.logformatter.PageLogFormatter"
# Scrapy's stats collector minus its per-access deprecation shim (crawler/patches/stats.py).
STATS_CLASS = "crawler.patches.stats.StatsCollector"
# Start-up objects out of the garbage collector's sight once the crawl runs, and young
# collections every GC_YOUNG_THRESHOLD allocations (Python's default: 700); see
# crawler/patches/gc_freeze.py. Before any other extension, every log handler is guarded
# (crawler/log_guard.py): passwords masked, a record at most LOG_RECORD_MAX_LINES lines of
# at most LOG_LINE_MAX_CHARS characters (the defaults shared with the command-line tools).
# Live progress for `python -m crawler status` (crawler/status/live.py) and, when
# METRICS_PORT is set, Prometheus metrics (crawler/metrics/worker.py).
EXTENSIONS = {"crawler.log_guard.GuardLogLines": -1000,
              "crawler.patches.gc_freeze.FreezeStartupObjects": 0,
              "crawler.run_record.RunRecord": 0,
              "crawler.watching.WatchAlerts": 0,
              "crawler.status.live.LiveProgress": 0,
              "crawler.metrics.worker.WorkerMetrics": 0,
              "crawler.health_watch.HealthWatch": 0}
LOG_LINE_MAX_CHARS = LOG_LINES.line_max_chars
LOG_RECORD_MAX_LINES = LOG_LINES.record_max_lines
# Match watches and send due alerts after every stored batch (crawler/watching.py).
WATCHES_ENABLED = True
# Write each changed page's search rows in its batch's transaction (models/search/index.py).
# False: a bulk first crawl stores pages only, without search rows, stories or watches (the
# watches' extension stands down: they match the search rows); `python -m crawler reindex`
# builds them afterwards.
SEARCH_INDEX_ENABLED = True
GC_YOUNG_THRESHOLD = 10_000

# The spider's follow-up requests, per source: depth and pagination chain, scope, URL
# traps, known pages, page limit
# (crawler/frontier.py); in a cluster a page's requests reach Redis in one batch. Scrapy's
# URL-length middleware stays out: the crawl never refused a long URL.
SPIDER_MIDDLEWARES = {"scrapy.spidermiddlewares.depth.DepthMiddleware": None,
                      "crawler.frontier.SourceDepthMiddleware": 900,
                      "crawler.frontier.SourceScopeMiddleware": 860,
                      "crawler.frontier.UrlTrapMiddleware": 850,
                      "crawler.frontier.KnownPagesMiddleware": 840,
                      "crawler.frontier.PageLimitMiddleware": 820,
                      "crawler.frontier.EnqueueInBatchesMiddleware": 10,
                      "crawler.discovery.SettleDiscoveryMiddleware": 5}

# Bounded work: every crawl ends by itself, whatever a site links to (crawler/bounds.py;
# figures in docs/RELIABILITY.md, "Bounded crawls"). 0 turns a limit off. A source's
# `settings` override the first three, its `max_pages` the last.
# Pages of one list followed one after another (its next page, that page's next, …); a
# list record or link keeps the count of the page it was found on.
PAGINATION_CHAIN_LIMIT = 100
# Requests queued per domain (the worker's scheduler, or the cluster's shared queue); beyond
# it a domain's new requests are dropped (`bounds/domain_queue`), one log line per domain.
DOMAIN_QUEUE_LIMIT = 10_000
# A URL in which one path segment, or one query key=value pair, occurs more than this many
# times (`/a/b/a/b/a/b/a/b/`) is a trap, not queued (`bounds/url_trap`).
URL_REPEAT_LIMIT = 3
# Pages requested per source and run when neither `-a max_pages` nor the source's
# `max_pages` says (`bounds/max_pages`).
MAX_PAGES_PER_RUN = 20_000

# Item pipelines persist; the spider's callback has extracted the page (crawler/pages.py).
ITEM_PIPELINES = {"crawler.persistence.PersistStage": 900}

# Revisits of stored articles (crawler/revisits.py, models/revisit.py): each run of a source
# also fetches its articles that are due (at most REVISIT_MAX_PER_RUN, most overdue first).
# After a visit the next is REVISIT_MIN_INTERVAL seconds later if the page changed, else
# REVISIT_BACKOFF times the last interval (up to REVISIT_MAX_INTERVAL); none is planned
# later than REVISIT_MAX_AGE seconds after the page was first seen. A source's settings may
# override each (docs in README, "Revisits").
REVISIT_MIN_INTERVAL = 900
REVISIT_MAX_INTERVAL = 86_400
REVISIT_BACKOFF = 2.0
REVISIT_MAX_AGE = 7 * 86_400
REVISIT_MAX_PER_RUN = 500

DATABASE_URL = os.environ.get("DATABASE_URL")  # None → embedded SQLite under var/
PERSIST_BATCH_SIZE = 50
PERSIST_FLUSH_SECONDS = 2.0
PERSIST_RETRY_SECONDS = 5.0
JOURNAL_DIR = os.environ.get("JOURNAL_DIR")  # None → var/journal
# A database behind a partition that drops packets (no reset) is noticed in seconds, not
# after the kernel's retransmissions (many minutes): libpq gives up connecting after
# DATABASE_CONNECT_TIMEOUT_SECONDS, probes an idle connection after KEEPALIVE_IDLE, every
# KEEPALIVE_INTERVAL, KEEPALIVE_COUNT times, and drops one whose sent data stays unacknowledged
# for TCP_USER_TIMEOUT; the server cancels a write statement after STATEMENT_TIMEOUT (lock
# waits included), and ends the session of a worker silent inside a transaction (cut off or
# frozen mid-write) after IDLE_IN_TRANSACTION, freeing its row locks well before a waiting
# writer's statement timeout. A write under way for DATABASE_STALL_SECONDS, or failing, is
# reported as "database unreachable for N s, M pages waiting in the journal", at most once every
# DATABASE_HEALTH_LOG_SECONDS. See docs/RELIABILITY.md, "Service faults".
DATABASE_CONNECT_TIMEOUT_SECONDS = 3
DATABASE_KEEPALIVE_IDLE_SECONDS = 5
DATABASE_KEEPALIVE_INTERVAL_SECONDS = 2
DATABASE_KEEPALIVE_COUNT = 3
DATABASE_TCP_USER_TIMEOUT_SECONDS = 15
DATABASE_STATEMENT_TIMEOUT_SECONDS = 120
DATABASE_IDLE_IN_TRANSACTION_SECONDS = 30
DATABASE_STALL_SECONDS = 5.0
DATABASE_HEALTH_LOG_SECONDS = 30.0

# Distributed mode: Redis holds the shared frontier and seen-set (scrapy-redis).
# Requests, their meta and the seen-sets then survive any worker; a run's seen-set is its own.
REDIS_URL = os.environ.get("REDIS_URL")
if REDIS_URL:
    SCHEDULER = "crawler.cluster.scheduler.AckScheduler"
    SCHEDULER_DUPEFILTER_CLASS = "crawler.cluster.dupefilter.RunDupeFilter"
    DUPEFILTER_CLASS = SCHEDULER_DUPEFILTER_CLASS
    SCHEDULER_DUPEFILTER_KEY = "%(spider)s"
    SCHEDULER_PERSIST = True
    SCHEDULER_QUEUE_CLASS = "crawler.cluster.queue.AckPriorityQueue"
    SCHEDULER_IDLE_BEFORE_CLOSE = 0
else:  # Scrapy's scheduler, with DOMAIN_QUEUE_LIMIT
    SCHEDULER = "crawler.bounded_scheduler.DomainBoundedScheduler"
# Seconds a worker waits for work before it exits (0: wait for ever, until a signal).
MAX_IDLE_TIME_BEFORE_CLOSE = int(os.environ.get("MAX_IDLE_TIME_BEFORE_CLOSE", "0"))
CLUSTER_HEARTBEAT_SECONDS = 5.0
# A Redis restart is ridden out (crawler/cluster/connection.py): a failed command is sent
# again up to REDIS_RETRY_ATTEMPTS times, backing off from BASE to CAP seconds (about 15 s in
# all, longer than a restart with AOF takes); an idle connection is checked after
# REDIS_HEALTH_CHECK_SECONDS. A worker recovers a silent peer's requests only once Redis has
# been up for CLUSTER_RECOVERY_GRACE_HEARTBEATS heartbeats (peers re-assert theirs first).
REDIS_RETRY_ATTEMPTS = 20
REDIS_BACKOFF_BASE_SECONDS = 0.05
REDIS_BACKOFF_CAP_SECONDS = 1.0
REDIS_HEALTH_CHECK_SECONDS = 5.0
REDIS_SOCKET_TIMEOUT_SECONDS = 10.0
CLUSTER_RECOVERY_GRACE_HEARTBEATS = 4
# Requests a worker takes from the shared queue per round trip (held as in-flight at once).
CLUSTER_POP_BATCH = 4
# How many of the shared queue's highest-priority requests a pop chooses among: those of the
# domains the worker has the fewest requests in flight for first (crawler/cluster/queue.py).
CLUSTER_POP_LOOKAHEAD = 64
# How often a worker with nothing to do looks at the shared queue (Scrapy's own: 5 s).
CLUSTER_IDLE_POLL_SECONDS = 0.25
# Politeness across all workers (distributed mode): per-domain in-flight cap and spacing.
GLOBAL_DOMAIN_CONCURRENCY = 8
GLOBAL_DOMAIN_DELAY = 0.0
# Every STATUS_PUBLISH_SECONDS a worker publishes its running figures (0: never): in a
# cluster a hash per worker in Redis (expiring after three intervals: a stopped worker's
# vanish), alone its run's statistics on its `crawl_run` row. `status` shows a run that is
# unfinished in the database but was not updated for STATUS_STALE_SECONDS as stale.
STATUS_PUBLISH_SECONDS = 5.0
STATUS_STALE_SECONDS = 60.0
# Prometheus metrics on http://METRICS_HOST:METRICS_PORT/metrics (unset: none; 0: a free
# port, logged). 127.0.0.1 by default: set METRICS_HOST=0.0.0.0 for a Prometheus elsewhere.
METRICS_PORT = os.environ.get("METRICS_PORT")
METRICS_HOST = os.environ.get("METRICS_HOST", "127.0.0.1")
# Seconds between the long-running scheduler's checks for due sources (`--every` overrides).
SCHEDULE_CHECK_SECONDS = 30.0
# How long the scheduler waits for Redis before it calls it unreachable (and retries).
SCHEDULE_REDIS_TIMEOUT_SECONDS = 10.0

# Crawl-health alerts (pipelines/health.py, reading/health_alerts.py; README, "Crawl-health
# alerts"; why these defaults: docs/RELIABILITY.md, "Crawl-health alerts"). Each is read from
# the environment first, so compose files and systemd units set them for the scheduler and
# the workers alike. HEALTH_ALERT_URLS: comma-separated targets (webhook URLs, chat robots'
# URLs, e-mail addresses, apprise URLs); empty: the alerts are log lines only.
HEALTH_ALERT_URLS = os.environ.get("HEALTH_ALERT_URLS", "")
# The scheduler, at each check: a source whose last HEALTH_EMPTY_RUNS finished runs stored no
# new page; a source whose latest run failed on more than HEALTH_ERROR_RATE of the pages it
# fetched, once it fetched HEALTH_ERROR_MIN_PAGES; a worker without a heartbeat for
# HEALTH_WORKER_SILENT_SECONDS (forgotten, its condition cleared, once a worker started since
# stands in for it, or after HEALTH_WORKER_FORGET_SECONDS).
HEALTH_EMPTY_RUNS = int(os.environ.get("HEALTH_EMPTY_RUNS", "3"))
HEALTH_ERROR_RATE = float(os.environ.get("HEALTH_ERROR_RATE", "0.2"))
HEALTH_ERROR_MIN_PAGES = int(os.environ.get("HEALTH_ERROR_MIN_PAGES", "20"))
HEALTH_WORKER_SILENT_SECONDS = float(os.environ.get("HEALTH_WORKER_SILENT_SECONDS", "60"))
HEALTH_WORKER_FORGET_SECONDS = float(os.environ.get("HEALTH_WORKER_FORGET_SECONDS", "86400"))
# Each worker, every HEALTH_CHECK_SECONDS: its database or Redis unreachable for
# HEALTH_UNREACHABLE_SECONDS; its journal backlog grown by HEALTH_JOURNAL_GROWTH_PAGES or more
# over HEALTH_JOURNAL_GROWTH_SECONDS without going down.
HEALTH_CHECK_SECONDS = float(os.environ.get("HEALTH_CHECK_SECONDS", "5"))
HEALTH_UNREACHABLE_SECONDS = float(os.environ.get("HEALTH_UNREACHABLE_SECONDS", "120"))
HEALTH_JOURNAL_GROWTH_SECONDS = float(os.environ.get("HEALTH_JOURNAL_GROWTH_SECONDS", "300"))
HEALTH_JOURNAL_GROWTH_PAGES = int(os.environ.get("HEALTH_JOURNAL_GROWTH_PAGES", "500"))

# Discovery (crawler/discovery.py): on every run, each start URL's origin is asked for its
# feeds (the start page's <link rel="alternate">, else these paths, each probed once) and
# its sitemaps (robots.txt's Sitemap: lines, else /sitemap.xml).
DISCOVERY_FEED_PATHS = ["/feed", "/rss", "/atom.xml", "/feed.xml", "/rss.xml", "/index.xml",
                        "/feeds/posts/default"]
DISCOVERY_SITEMAP_DEPTH = 2  # levels of sitemap indexes followed below the first sitemap
DISCOVERY_SITEMAP_FILES = 50  # sitemaps read per origin and run, indexes included
DISCOVERY_MAX_SIZE = 50 * 1024 * 1024  # bytes a gzip'd sitemap may unpack to (the protocol's cap)
DISCOVERY_MAX_ENTRIES = 1000  # newest entries taken from one feed or sitemap
