"""The systemd units in deploy/systemd/ are valid and start the project's real commands.

They are installed with the project at /opt/opinion-crawler and its virtualenv in `.venv`
(README, "Operating"); here both paths are pointed at this checkout and the running venv.
"""

from __future__ import annotations

import importlib
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.settings import Settings
from scrapy.spiderloader import SpiderLoader

from crawler.__main__ import COMMANDS
from models.db import PROJECT_ROOT as ROOT

UNITS = sorted((ROOT / "deploy" / "systemd").glob("*.service"))
INSTALLED = "/opt/opinion-crawler"
VENV = Path(sys.executable).parent.parent


def _here(text: str) -> str:
    """A unit's text with the installed paths replaced by this checkout's."""
    return text.replace(f"{INSTALLED}/.venv", str(VENV)).replace(INSTALLED, str(ROOT))


def _directives(unit: Path) -> dict[str, str]:
    """`Key=value` lines of a unit (the last one of a key wins, as in systemd)."""
    pairs = (line.split("=", 1) for line in unit.read_text(encoding="utf-8").splitlines()
             if re.match(r"^[A-Za-z]+=", line))
    return {key: value for key, value in pairs}


def test_the_units_are_the_expected_ones() -> None:
    assert [unit.name for unit in UNITS] == [
        "opinion-crawler-api.service", "opinion-crawler-migrate.service",
        "opinion-crawler-scheduler.service", "opinion-crawler-worker@.service"]


@pytest.mark.parametrize("unit", UNITS, ids=lambda unit: unit.name)
def test_each_unit_runs_a_real_command_under_a_restart_policy(unit: Path) -> None:
    """Its program is the venv's, and its command is one the project has: a `python -m
    crawler` command whose own parser answers `--help`, or the `site` spider."""
    directives = _directives(unit)
    assert directives["EnvironmentFile"] == "/etc/opinion-crawler/crawler.env"
    if directives.get("Type") != "oneshot":
        assert directives.get("Restart") in ("always", "on-failure"), unit.name
    program, *arguments = shlex.split(_here(directives["ExecStart"]))
    assert os.access(program, os.X_OK), program
    if Path(program).name == "scrapy":
        assert arguments == ["crawl", "site"]
        settings = Settings()
        settings.setmodule("crawler.settings")
        assert "site" in SpiderLoader.from_settings(settings).list()
        return
    assert arguments[:2] == ["-m", "crawler"] and arguments[2] in COMMANDS, arguments
    module, function, _ = COMMANDS[arguments[2]]
    with pytest.raises(SystemExit) as exit_:
        getattr(importlib.import_module(module), function)(["--help"])
    assert exit_.value.code == 0


def test_systemd_analyze_verify_finds_nothing(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (apt package systemd)")
    for unit in UNITS:
        (tmp_path / unit.name).write_text(_here(unit.read_text(encoding="utf-8")),
                                          encoding="utf-8")
    # A template is verified through an instance of it.
    (tmp_path / "opinion-crawler-worker@1.service").symlink_to("opinion-crawler-worker@.service")
    files = [str(path) for path in sorted(tmp_path.glob("*.service"))
             if not path.name.endswith("@.service")]
    done = subprocess.run(["systemd-analyze", "verify", *files], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and not done.stdout + done.stderr, done.stdout + done.stderr
