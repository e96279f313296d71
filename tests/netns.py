"""Separate hosts on one machine, for the distributed tests: each host a network namespace
linked by a veth pair to a bridge in the root namespace, as machines on one LAN. The machine
running the tests is the LAN's `gateway` address; services it offers there (PostgreSQL and
Redis, which listen on 127.0.0.1 only, through `tests.tcp_proxy`; the demo site) are what
the hosts reach over the network, as separate machines would.

Names carry this process' id, so parallel runs do not clash; everything is removed on exit,
and what a killed run left (its process gone) by the next run. Needs root and iproute2.
"""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from tests.tcp_proxy import TcpProxy

PREFIX = "oc"  # every name: oc<pid>br, oc<pid>h<n> (namespace), oc<pid>v<n> (cable)
_OURS = re.compile(rf"^{PREFIX}(\d+)(?:br|h\d+|v\d+)$")


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


def available() -> str | None:
    """Why network namespaces cannot be made here, or None when they can."""
    if shutil.which("ip") is None:
        return "iproute2's `ip` is not installed"
    if os.geteuid() != 0:
        return "network namespaces need root"
    probe = f"{PREFIX}probe{os.getpid()}"
    made = _ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"`ip netns add` failed: {made.stderr.strip()}"
    _ip("netns", "del", probe, check=False)
    return None


@dataclass(frozen=True)
class Host:
    """One host: its namespace, its address on the LAN, and its end of the cable."""

    namespace: str
    address: str
    cable: str  # the root-side veth: down, the host is cut off from everything

    def command(self, argv: Sequence[str]) -> list[str]:
        """`argv` run on this host (the same process, in the host's namespace)."""
        return ["ip", "netns", "exec", self.namespace, *argv]

    def cut_off(self) -> None:
        """Unplug the host: its packets go nowhere, open connections hang without a reset."""
        _ip("link", "set", self.cable, "down")


class Lan:
    """`hosts` namespaces on a bridge whose address, `gateway`, is the root namespace's.
    The LAN is a /24 of 10.0.0.0/8 no interface of the machine uses yet."""

    def __init__(self, hosts: int) -> None:
        tag = f"{PREFIX}{os.getpid()}"
        self.bridge = f"{tag}br"
        network = _free_network(os.getpid())
        addresses = [str(address) for address in network.hosts()]
        self.gateway = addresses[0]
        self.prefix = network.prefixlen
        self.hosts = [Host(f"{tag}h{n}", addresses[10 + n], f"{tag}v{n}") for n in range(hosts)]

    def __enter__(self) -> Lan:
        _remove_abandoned()
        try:
            self._build()
        except BaseException:
            self.remove()
            raise
        return self

    def __exit__(self, *_: object) -> None:
        self.remove()

    def _build(self) -> None:
        _ip("link", "add", self.bridge, "type", "bridge")
        _ip("addr", "add", f"{self.gateway}/{self.prefix}", "dev", self.bridge)
        _ip("link", "set", self.bridge, "up")
        for host in self.hosts:
            inside = host.cable + "x"
            _ip("netns", "add", host.namespace)
            _ip("link", "add", host.cable, "type", "veth", "peer", "name", inside)
            _ip("link", "set", inside, "netns", host.namespace)
            _ip("link", "set", host.cable, "master", self.bridge)
            _ip("link", "set", host.cable, "up")
            _ip("-n", host.namespace, "addr", "add", f"{host.address}/{self.prefix}",
                "dev", inside)
            _ip("-n", host.namespace, "link", "set", inside, "up")
            _ip("-n", host.namespace, "link", "set", "lo", "up")

    def remove(self) -> None:
        """Delete the namespaces (their veth ends, and so the pairs, go with them) and the
        bridge; what does not exist is skipped."""
        for host in self.hosts:
            _ip("netns", "del", host.namespace, check=False)
            _ip("link", "del", host.cable, check=False)
        _ip("link", "del", self.bridge, check=False)


def _remove_abandoned() -> None:
    """Delete the namespaces and links of runs whose process is gone (killed before their
    clean-up ran)."""
    namespaces = [line.split()[0] for line in _ip("netns", "list").stdout.splitlines()]
    links = [line.split(": ")[1].split("@")[0]
             for line in _ip("-o", "link", "show").stdout.splitlines()]
    for name in namespaces + links:
        match = _OURS.match(name)
        if match and not os.path.exists(f"/proc/{match.group(1)}"):
            _ip("netns" if name in namespaces else "link", "del", name, check=False)


def _free_network(seed: int) -> ipaddress.IPv4Network:
    """A 10.x.y.0/24 that no address or route of the machine is in, starting from one
    `seed` picks."""
    used = [ipaddress.ip_interface(word).network
            for line in _ip("-4", "-o", "addr", "show").stdout.splitlines()
            for word in line.split()[3:4]]
    used += [ipaddress.ip_network(line.split()[0], strict=False)
             for line in _ip("-4", "route", "show").stdout.splitlines()
             if line.split()[0][0].isdigit()]
    for step in range(256 * 200):
        number = (seed + step) % (256 * 200)
        candidate = ipaddress.ip_network(f"10.{50 + number // 256}.{number % 256}.0/24")
        if not any(candidate.overlaps(network) for network in used):
            return candidate
    raise RuntimeError("no free 10.x.y.0/24 for the test LAN")


@contextmanager
def forwarded(url: str, address: str) -> Iterator[str]:
    """`url`, a service on 127.0.0.1 (PostgreSQL, Redis), as the hosts reach it: through a
    TcpProxy listening on `address`; yields the URL with that address and port."""
    parts = urlsplit(url)
    proxy = TcpProxy(parts.port or 0, host=address).start()
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{address}:{proxy.port}"
    try:
        yield urlunsplit(parts._replace(netloc=f"{credentials}@{netloc}" if credentials
                                        else netloc))
    finally:
        proxy.stop()
