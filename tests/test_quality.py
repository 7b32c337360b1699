"""Lint and strict typing are part of the test run: ruff everywhere, mypy --strict on the domain."""

from __future__ import annotations

import subprocess
import sys

from conftest import REPO


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True, timeout=600
    )


def test_ruff_check_and_format() -> None:
    check = run("ruff", "check", ".")
    assert check.returncode == 0, check.stdout
    form = run("ruff", "format", "--check", ".")
    assert form.returncode == 0, form.stdout


def test_mypy_strict_on_store_and_core() -> None:
    done = run("mypy")
    assert done.returncode == 0, done.stdout
