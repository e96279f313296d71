"""The /metrics endpoint: prometheus-client's HTTP server in a daemon thread."""

from __future__ import annotations

import logging
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, start_http_server

logger = logging.getLogger(__name__)


def serve(registry: CollectorRegistry, host: str, port: int, who: str) -> WSGIServer:
    """Serve `registry` on host:port (port 0: a free one); logs the URL it listens on."""
    server, _ = start_http_server(port, addr=host, registry=registry)
    logger.info("%s metrics on http://%s:%d/metrics", who, host, server.server_port)
    return server
