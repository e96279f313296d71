"""Installing the project is quiet: no deprecation warnings from its own metadata."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from models.db import PROJECT_ROOT as ROOT


def test_building_the_package_prints_no_deprecation_warning(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                           "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "deprecated" not in done.stdout + done.stderr, done.stderr[-3000:]
    assert list(tmp_path.glob("opinion_crawler-*.whl"))
