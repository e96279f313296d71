"""A source's scope: scheme, host and port, the same rule for links and redirects."""

from __future__ import annotations

import pytest

from crawler.scope import Scope, is_private_address, origin

STARTS = ("http://News.Example.cn/", "http://127.0.0.1:8000/blog/")


@pytest.mark.parametrize("url", [
    "http://news.example.cn/a/1.html", "HTTP://NEWS.EXAMPLE.CN:80/a", "https://news.example.cn/a",
    "https://news.example.cn:443/a", "http://127.0.0.1:8000/other/",
])
def test_the_start_urls_origins_and_their_https_are_in_scope(url: str) -> None:
    assert Scope.of(STARTS).allows(url)


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8001/", "http://localhost:8000/", "http://127.0.0.2:8000/",
    "https://127.0.0.1:8000/",  # not the default port: no upgrade assumed
    "http://img.news.example.cn/", "http://example.cn/", "http://news.example.cn:8080/",
    "http://127.0.0.2:8000\\@127.0.0.1:8000/", "http://user@news.example.cn/",
    "file://news.example.cn/etc/passwd", "ftp://news.example.cn/", "javascript:alert(1)",
    "//news.example.cn/a", "http://[::1/x", "http://news.example.cn:99999/",
])
def test_other_origins_schemes_and_ambiguous_authorities_are_not(url: str) -> None:
    assert not Scope.of(STARTS).allows(url)


def test_allowed_domains_admit_their_subdomains_on_default_and_named_ports() -> None:
    scope = Scope.of(["http://www.example.cn:8080/"], ["Example.CN", "other.cn:81"])
    assert scope.allows("https://img.example.cn/x") and scope.allows("http://example.cn/")
    assert scope.allows("http://www.example.cn:8080/y")  # the start URL's port on its host
    assert scope.allows("http://other.cn:81/") and not scope.allows("http://other.cn:82/")
    assert not scope.allows("http://example.cn:8081/") and not scope.allows("http://badexample.cn/")


def test_international_hosts_compare_in_their_ascii_form() -> None:
    scope = Scope.of(["http://例子.测试/"])
    assert scope.allows("http://xn--fsqu00a.xn--0zwm56d/news/1.html")
    assert scope.allows("http://例子.测试/news/2.html")
    assert origin("http://例子.测试:80/") == ("http", "xn--fsqu00a.xn--0zwm56d", 80)


@pytest.mark.parametrize(("address", "private"), [
    ("127.0.0.1", True), ("10.1.2.3", True), ("192.168.0.9", True), ("172.16.5.4", True),
    ("169.254.169.254", True), ("::1", True), ("fe80::1%eth0", True), ("::ffff:10.0.0.1", True),
    ("0.0.0.0", True), ("100.64.0.1", True), ("224.0.0.1", True), ("8.8.8.8", False),
    ("2001:4860:4860::8888", False), ("news.example.cn", False),
])
def test_private_addresses(address: str, private: bool) -> None:
    assert is_private_address(address) is private
