"""bench.mutations puts each kind of fault into a page, where it says it does."""

from __future__ import annotations

import random

from bench.mutations import (
    BAD_CODECS,
    BAD_LINKS,
    FORBIDDEN,
    JSON_LD_DEPTH,
    MAX_INSERTED_BYTES,
    MUTATIONS,
)

PAGE = ("<html><head><title>标题</title></head><body><p>正文</p><script>var a;</script>"
        '<a href="/x">x</a></body></html>').encode()


def test_each_mutation_puts_its_fault_into_the_page() -> None:
    mutated = {kind: mutate(PAGE, random.Random(1)) for kind, mutate in MUTATIONS.items()}
    body, content_type = mutated["charset"]
    codec = content_type.rpartition("=")[2]
    assert codec in BAD_CODECS and body.startswith(f'<meta charset="{codec}">'.encode())
    assert "标题".encode("gb18030") in body
    body, _ = mutated["control"]
    assert any(body.count(c.encode()) > PAGE.count(c.encode()) for c in FORBIDDEN)
    assert b"[" * JSON_LD_DEPTH in mutated["json_ld"][0]
    assert any(link.encode() in mutated["link"][0] for link in BAD_LINKS)
    assert 0 < len(mutated["bytes"][0]) - len(PAGE) <= MAX_INSERTED_BYTES
    assert PAGE.startswith(mutated["truncate"][0])
