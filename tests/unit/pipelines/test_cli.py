"""`python -m pipelines extract|batch`: the stable interface benchmarks and users script
against; and both command lines' help and errors (one line, no traceback)."""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from models.db import PROJECT_ROOT as ROOT

FIELDS = {"page_type", "type_confidence", "title", "author", "published_at", "content_text",
          "content_html", "comments", "records"}

ARTICLE = """<html><head><title>市政府召开会议 - 江城新闻网</title></head><body>
<div class="nav"><a href="/">首页</a> <a href="/news/">新闻</a></div>
<h1>市政府召开会议</h1>
<div class="info">发布时间：2024年5月1日 10:00　来源：江城日报　作者：李明</div>
<div class="content"><p>五月一日，市政府召开常务会议，研究部署近期重点工作。</p>
<p>会议强调，要切实做好民生保障，确保各项政策落到实处，让群众得到实惠。</p>
<p>会议还听取了有关部门的工作汇报，并对下一阶段的任务作出安排。</p></div>
<div class="footer">版权所有 江城新闻网</div></body></html>"""

LISTING = "<html><body><ul>" + "".join(
    f'<li><a href="/news/2024/05/{i:02d}/{1000 + i}.html">第{i}条新闻的标题文字</a>'
    f"<span>2024-05-{i:02d}</span></li>" for i in range(1, 16)) + \
    '</ul><a href="/news/list_2.html">下一页</a></body></html>'


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return _run_module("pipelines", *args)


def _run_module(package: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", package, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def test_extract_prints_one_json_object_with_the_stable_fields(tmp_path: Path) -> None:
    page = tmp_path / "a.html"
    page.write_bytes(ARTICLE.encode("gbk"))  # no charset anywhere: detected
    done = _run("extract", str(page), "--url", "https://news.example.cn/2024/05/01/1.html",
                "--type", "news")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result) >= FIELDS
    assert result["page_type"] == "news" and result["type_decided_by"] == "forced"
    assert "民生保障" in result["content_text"] and "版权所有" not in result["content_text"]
    assert result["published_at"].startswith("2024-05-01T10:00")


def test_extract_returns_records_and_next_page_for_a_list(tmp_path: Path) -> None:
    page = tmp_path / "l.html"
    page.write_text(LISTING, encoding="utf-8")
    done = _run("extract", str(page), "--url", "https://news.example.cn/news/", "--type", "list")
    result = json.loads(done.stdout)
    assert len(result["records"]) == 15
    assert result["records"][0]["url"] == "https://news.example.cn/news/2024/05/01/1001.html"
    assert result["next_page"] == "https://news.example.cn/news/list_2.html"


def test_batch_answers_every_line_in_order_and_reports_bad_pages(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "bin.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    lines = [{"id": "ok", "path": str(tmp_path / "a.html"), "type": "news"},
             {"id": "missing", "path": str(tmp_path / "nope.html")},
             {"id": "binary", "path": str(tmp_path / "bin.html")},
             {"id": "sibling", "path": str(tmp_path / "a.html"),
              "sibling_path": str(tmp_path / "a.html"), "url": "https://x.cn/1.html"}]
    batch = tmp_path / "in.jsonl"
    batch.write_text("\n".join(json.dumps(line) for line in lines) + "\nnot json\n")
    done = _run("batch", str(batch))
    assert done.returncode == 1, done.stderr  # some lines failed
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["id"] for o in out] == ["ok", "missing", "binary", "sibling", None]
    assert out[0]["error"] is None and set(out[0]) >= FIELDS
    assert "FileNotFoundError" in out[1]["error"] and "NotHtmlError" in out[2]["error"]
    assert out[3]["error"] is None and out[4]["error"].startswith("JSONDecodeError")


def test_a_line_that_is_not_utf8_or_not_a_task_costs_that_line_only(tmp_path: Path) -> None:
    """One non-UTF-8 byte in the input killed the whole batch with no output at all."""
    (tmp_path / "a.html").write_text(ARTICLE, encoding="utf-8")
    good = json.dumps({"id": "ok", "path": str(tmp_path / "a.html"), "type": "news"}).encode()
    batch = tmp_path / "in.jsonl"
    batch.write_bytes(b"\n".join([good, b'{"id": "bad\xff", "path": "x"}', b'{"id": 3, "pa',
                                  b"[1, 2]", b'{"id": "\\ud800", "path": "nope"}', good]))
    done = _run("batch", str(batch))
    assert done.returncode == 1 and done.stderr == ""
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["id"] for o in out] == ["ok", None, None, None, "\ud800", "ok"]
    assert [o["error"].split(":")[0] for o in out[1:5]] == [
        "UnicodeDecodeError", "JSONDecodeError", "ValueError", "FileNotFoundError"]
    assert out[5]["error"] is None and "民生保障" in out[5]["content_text"]


def test_a_batch_whose_lines_all_succeed_exits_0(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text(ARTICLE, encoding="utf-8")
    batch = tmp_path / "in.jsonl"
    batch.write_text(json.dumps({"id": 1, "path": str(tmp_path / "a.html")}) + "\n\n")
    done = _run("batch", str(batch))
    assert done.returncode == 0 and json.loads(done.stdout)["error"] is None


def test_a_sites_time_zone_is_given_by_name_and_a_wrong_name_is_refused(tmp_path: Path) -> None:
    """Chinese pages are read on Beijing's clock; --timezone pins the zone where the page's
    domain or language does not settle it (or settles it wrongly)."""
    page = tmp_path / "a.html"
    page.write_text(ARTICLE, encoding="utf-8")
    plain = json.loads(_run("extract", str(page), "--type", "news").stdout)
    assert plain["published_at"] == "2024-05-01T10:00:00+08:00"
    pinned = _run("extract", str(page), "--type", "news", "--timezone", "Europe/Berlin")
    assert json.loads(pinned.stdout)["published_at"] == "2024-05-01T10:00:00+02:00"
    wrong = _run("extract", str(page), "--timezone", "Mars/Olympus_Mons")
    assert wrong.returncode == 2 and "unknown time zone 'Mars/Olympus_Mons'" in wrong.stderr


@pytest.mark.parametrize("make_path", [lambda tmp: tmp / "nope.html", lambda tmp: tmp],
                         ids=["missing", "directory"])
def test_a_page_that_cannot_be_read_is_one_line_and_exit_2(
        tmp_path: Path, make_path: Callable[[Path], Path]) -> None:
    path = make_path(tmp_path)
    done = _run("extract", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"python -m pipelines extract: cannot read {path}: "
        f"{'No such file or directory' if path != tmp_path else 'Is a directory'}"]


@pytest.mark.parametrize("package", ["crawler", "pipelines"])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_lists_every_command_with_a_summary(package: str, flag: str) -> None:
    done = _run_module(package, flag)
    assert done.returncode == 0, done.stderr
    commands = importlib.import_module(f"{package}.__main__").COMMANDS
    for name, (_, _, summary) in commands.items():
        assert re.search(rf"^  {re.escape(name)} +{re.escape(summary)}$", done.stdout, re.M)


@pytest.mark.parametrize("package", ["crawler", "pipelines"])
def test_an_unknown_command_is_named_with_the_list_and_exit_2(package: str) -> None:
    done = _run_module(package, "crawl")
    assert done.returncode == 2
    first, *rest = done.stderr.splitlines()
    assert first == f"python -m {package}: unknown command 'crawl'"
    assert all(name in "\n".join(rest) for name in
               importlib.import_module(f"{package}.__main__").COMMANDS)


class _Parsed(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.parser = parser


def _parser_of(module: str, function: str, monkeypatch: pytest.MonkeyPatch
               ) -> argparse.ArgumentParser:
    """The argument parser a command builds, caught when it parses (nothing runs)."""
    def caught(parser: argparse.ArgumentParser, *_: object, **__: object) -> None:
        raise _Parsed(parser)
    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", caught)
    with pytest.raises(_Parsed) as parsed:
        getattr(importlib.import_module(module), function)([])
    return parsed.value.parser


@pytest.mark.parametrize("package", ["crawler", "pipelines"])
def test_every_option_of_every_command_has_a_help_text(package: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    bare = []
    for name, (module, function, _) in importlib.import_module(
            f"{package}.__main__").COMMANDS.items():
        parser = _parser_of(module, function, monkeypatch)
        bare += [f"{name} {action.option_strings or action.dest}"
                 for action in parser._actions if not action.help]
    assert bare == []
