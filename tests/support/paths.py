"""Where things are: the repository, the demo meetings, the tests' data."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "memo_tui" / "demo" / "meetings"
DATA = REPO / "tests" / "data"
DEV = REPO.parent / "shared" / "data" / "dev-meetings"  # the labelled dev set (quality yardstick)
