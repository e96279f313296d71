"""The CPU a PostgreSQL backend serving a bench spent, for benches that charge a store's
work to what they measure (the server runs on this machine: its /proc)."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.orm import Session

TICK = os.sysconf("SC_CLK_TCK")


def backend_seconds(session: Session) -> tuple[int, float]:
    """The PostgreSQL backend serving this session, and its CPU seconds so far (user and
    system time of /proc/<pid>/stat)."""
    pid = session.scalar(text("SELECT pg_backend_pid()"))
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return pid, (int(fields[11]) + int(fields[12])) / TICK
