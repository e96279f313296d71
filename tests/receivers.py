"""Local stand-ins for alert targets: an HTTP webhook receiver and an SMTP server
(aiosmtpd), each on 127.0.0.1, recording what they receive. The webhook also runs alone
(`python -m tests.receivers`) for trying watches out on the demo site."""

from __future__ import annotations

import argparse
import json
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller


class WebhookReceiver:
    """Records each POST (path, parsed JSON body); answers `status` (settable)."""

    def __init__(self, port: int = 0) -> None:
        self.posts: list[tuple[str, Any]] = []
        self.arrived: list[datetime] = []  # when each post came, in order
        self.status = 200
        self.reply = b'{"errcode": 0, "code": 0, "ok": true}'  # what chat robots answer
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                try:
                    payload: Any = json.loads(body)
                except ValueError:
                    payload = body.decode("utf-8", "replace")
                receiver.arrived.append(datetime.now(UTC))
                receiver.posts.append((self.path, payload))
                self.send_response(receiver.status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(receiver.reply)

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class _Mailbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:  # noqa: N802
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


@contextmanager
def webhook_receiver() -> Iterator[WebhookReceiver]:
    receiver = WebhookReceiver()
    try:
        yield receiver
    finally:
        receiver.close()


@contextmanager
def smtp_server() -> Iterator[tuple[int, list[Message]]]:
    """(port, received messages) of an SMTP server on 127.0.0.1."""
    mailbox = _Mailbox()
    with socket.socket() as probe:  # aiosmtpd checks its port by connecting: no port 0
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, mailbox.messages
    finally:
        controller.stop()


def wait_for(condition: Any, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())



def main(argv: list[str] | None = None) -> int:
    """`python -m tests.receivers [--port N]`: a local webhook for trying alerts out; prints
    each JSON body it receives, one per line, until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m tests.receivers")
    parser.add_argument("--port", type=int, default=8765)
    receiver = WebhookReceiver(parser.parse_args(argv).port)
    print(f"listening on {receiver.url}/", file=sys.stderr, flush=True)
    shown = 0
    try:
        while True:
            time.sleep(0.2)
            for _, payload in receiver.posts[shown:]:
                print(json.dumps(payload, ensure_ascii=False), flush=True)
            shown = len(receiver.posts)
    except KeyboardInterrupt:
        receiver.close()
        return 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    sys.exit(main())
