"""The extraction package stands alone: it imports and runs without the crawl and storage
layers, the network, or the training libraries (each check in a fresh interpreter whose
import system refuses the blocked packages)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # the project
# The crawl, storage and network packages the extraction package must never import.
LAYER_BLOCKED = ("scrapy", "twisted", "sqlalchemy", "redis", "psycopg2", "http.client",
                 "urllib.request")
TRAINING_BLOCKED = ("sklearn", "pycrfsuite")
# Not part of the extraction package: training may import scikit-learn and crfsuite.
NOT_EXTRACTION = ("pipelines.training",)

PAGE = """<html><head><title>我市新建充电桩一万余个_新闻中心</title></head><body>
<div class="nav"><a href="/">首页</a><a href="/news/">新闻</a></div>
<h1>我市新建充电桩一万余个</h1><div class="info">2023-05-01 10:00 来源：本报</div>
<div class="content"><p>记者从有关部门获悉，今年以来全市新建充电桩一万余个，覆盖主要城区。</p>
<p>相关负责人表示，下一步将继续完善配套设施，方便市民绿色出行。</p></div></body></html>"""

# Installed first thing in the child: a finder that refuses every blocked name and its
# submodules, recording which were asked for.
BLOCKER = """
import importlib.abc, sys
BLOCKED = {blocked!r}
ASKED = []
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in BLOCKED):
            ASKED.append(name)
            raise ImportError(f"blocked: {{name}}")
        return None
loaded = sorted(b for b in BLOCKED if b in sys.modules)
assert not loaded, f"already imported at start-up: {{loaded}}"
sys.meta_path.insert(0, Blocker())
"""

RUN_PAGE = """
from pipelines import classify_page, load_document, process_document
doc = load_document({page!r}.encode("utf-8"), url="https://news.example.cn/a/1.html")
result = process_document(doc)
assert result.decision.decided_by != "forced", result.decision
assert result.decision.page_type == classify_page(doc).page_type
"""


def _child(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=False)


def test_inference_runs_without_the_training_libraries() -> None:
    """Page-type classification and the whole page route need neither scikit-learn nor
    crfsuite: the shipped models run from JSON."""
    code = (BLOCKER.format(blocked=TRAINING_BLOCKED) + RUN_PAGE.format(page=PAGE)
            + "print(result.decision.page_type, result.decision.decided_by)\n")
    done = _child(code)
    assert done.returncode == 0, done.stderr[-3000:]
    page_type, decided_by = done.stdout.split()
    assert page_type in ("news", "blog", "forum", "list", "other")
    assert decided_by == "classifier"


def test_the_extraction_package_imports_and_runs_without_crawl_storage_or_network() -> None:
    """Every extraction module imports, and a page goes through the route, with Scrapy,
    Twisted, SQLAlchemy, Redis, psycopg2 and the HTTP clients blocked; any module that
    asks for one of them fails here."""
    code = BLOCKER.format(blocked=LAYER_BLOCKED) + f"""
import importlib, json, pkgutil, pipelines
SKIPPED = {NOT_EXTRACTION!r}
failed, imported = {{}}, []
for info in pkgutil.walk_packages(pipelines.__path__, "pipelines."):
    name = info.name
    if any(name == s or name.startswith(s + ".") for s in SKIPPED):
        continue
    try:
        importlib.import_module(name)
        imported.append(name)
    except ImportError as error:
        failed[name] = str(error)
""" + RUN_PAGE.format(page=PAGE) + """
print(json.dumps({"failed": failed, "imported": imported, "asked": ASKED}))
"""
    done = _child(code)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["failed"] == {}
    assert report["asked"] == []
    assert {"pipelines.process", "pipelines.pagetype", "pipelines.records", "pipelines.cli",
            "pipelines.template_diff", "pipelines.labelling"} <= set(report["imported"])


def test_a_training_command_without_the_extra_names_it() -> None:
    """`train-pagetype` on an install without scikit-learn: one line naming the extra."""
    code = (BLOCKER.format(blocked=TRAINING_BLOCKED)
            + "from pipelines.__main__ import main\nsys.exit(main(['train-pagetype', '--help']))\n")
    done = _child(code)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert "train-pagetype" in lines[0] and "scikit-learn" in lines[0]
    assert "[train]" in lines[0]
