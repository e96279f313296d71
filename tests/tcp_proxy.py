"""A loopback TCP forwarder the tests can cut, blackhole and restore: a database that goes
away with a reset, or behind a partition that drops packets without one."""

from __future__ import annotations

import contextlib
import socket
import threading


class TcpProxy:
    """Forwards <host>:<port> (host 127.0.0.1 unless told: another host's address serves
    network namespaces) to 127.0.0.1:<target_port>; `stop()` drops every connection and
    refuses new ones until `start()` listens again on the same port. `blackhole()` keeps every
    connection open but forwards nothing, either way, until `heal()` (a partition without a
    reset: what TCP would retransmit after it heals arrives then)."""

    def __init__(self, target_port: int, host: str = "127.0.0.1") -> None:
        self.target_port = target_port
        self.host = host
        probe = socket.socket()
        probe.bind((host, 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self._server: socket.socket | None = None
        self._connections: list[socket.socket] = []
        self._lock = threading.Lock()
        self._flowing = threading.Event()
        self._flowing.set()

    def start(self) -> TcpProxy:
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((self.host, self.port))
        server.listen(64)
        self._server = server
        threading.Thread(target=self._accept, args=(server,), daemon=True).start()
        return self

    def stop(self) -> None:
        with self._lock:
            if self._server is not None:
                # shutdown() wakes the thread blocked in accept(); close() alone does not on Linux.
                with contextlib.suppress(OSError):
                    self._server.shutdown(socket.SHUT_RDWR)
                self._server.close()
                self._server = None
            for connection in self._connections:
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
                connection.close()
            self._connections.clear()

    def blackhole(self) -> None:
        self._flowing.clear()

    def heal(self) -> None:
        self._flowing.set()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            with self._lock:
                self._connections += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self._flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
