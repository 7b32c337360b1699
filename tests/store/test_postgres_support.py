"""The tests' own PostgreSQL server leaves nothing behind: a run's databases take gigabytes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

STARTS_ONE = """
from support.postgres import server
print(server().handle.pgdata, flush=True)
"""


def test_the_servers_folder_is_removed_when_the_test_process_ends() -> None:
    tests = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tests), str(tests.parent)])}
    done = subprocess.run(
        [sys.executable, "-c", STARTS_ONE], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    folder = Path(done.stdout.strip().splitlines()[-1])
    assert folder.name.startswith("memo-pg-")
    assert not folder.exists()
