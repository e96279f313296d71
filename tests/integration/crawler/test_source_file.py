"""Sources kept in a YAML or JSON file: imported (all or nothing, every problem named),
exported, and imported again unchanged; on PostgreSQL and SQLite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml
from sqlalchemy import select
from sqlalchemy.orm import Session

from models.crawl import Source
from tests.crawling import ROOT

GOOD = """
sources:
  - name: example-news
    start_urls: [https://news.example.cn/]
    max_depth: 4
    cron: "*/30 * * * *"
    page_type_rules: [{pattern: "/list/", type: list}]
    settings: {timezone: Asia/Shanghai}
  - name: example-forum
    start_urls: [https://bbs.example.cn/forum.php]
    interval_seconds: 3600
    enabled: false
"""
BAD = """
- name: one
  start_urls: [ftp://x.example/]
  max_pages: -3
  cron: "every day"
- name: one
  start_urls: []
  colour: red
- name: two
  start_urls: [https://a.example/]
  page_type_rules: [{pattern: "(", type: list}]
"""


def _sources(store_url: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "crawler", "sources", *argv,
                           "--database-url", store_url], cwd=ROOT, text=True,
                          capture_output=True, env=dict(os.environ), check=False, timeout=60)


def test_import_export_round_trip(store_url: str, session: Session, tmp_path: Path) -> None:
    (tmp_path / "sources.yaml").write_text(GOOD, encoding="utf-8")
    done = _sources(store_url, "import", str(tmp_path / "sources.yaml"))
    assert done.returncode == 0, done.stderr
    assert "2 created, 0 updated, 0 unchanged" in done.stdout
    names = session.scalars(select(Source.name).order_by(Source.name)).all()
    assert names == ["example-forum", "example-news"]
    exported = _sources(store_url, "export", str(tmp_path / "out.json"))
    assert exported.returncode == 0, exported.stderr
    data = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert data[1]["cron"] == "*/30 * * * *" and data[0]["enabled"] is False
    again = _sources(store_url, "import", str(tmp_path / "out.json"))
    assert "0 created, 0 updated, 2 unchanged" in again.stdout
    edited = yaml.safe_load(GOOD)
    edited["sources"][0]["max_depth"] = 2
    (tmp_path / "edited.yaml").write_text(yaml.safe_dump(edited), encoding="utf-8")
    assert "0 created, 1 updated, 1 unchanged" in _sources(
        store_url, "import", str(tmp_path / "edited.yaml")).stdout


def test_a_bad_file_is_refused_whole_with_every_problem(store_url: str, session: Session,
                                                        tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(BAD, encoding="utf-8")
    done = _sources(store_url, "import", str(tmp_path / "bad.yaml"))
    assert done.returncode == 2
    for problem in ("'ftp://x.example/' is not an http(s) URL", "'max_pages' must be",
                    "'cron' 'every day'", "unknown field 'colour'",
                    "'start_urls' must be a non-empty list", "the name 'one' is used twice",
                    "source 3 ('two')"):
        assert problem in done.stderr, (problem, done.stderr)
    assert session.scalars(select(Source)).all() == []
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    broken = _sources(store_url, "import", str(tmp_path / "broken.json"))
    assert broken.returncode == 2 and "not valid JSON" in broken.stderr
