"""The layer rules at run time: the domain never loads textual, and importing does no work.
(The import contracts themselves are checked by `scripts/lint`, with import-linter.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support.paths import REPO


def test_store_and_core_never_load_textual() -> None:
    code = """
import pkgutil, importlib, sys
import store, memo_tui.core
for package in (store, memo_tui.core):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        importlib.import_module(module.name)
import memo_tui.cli
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich"))
print(",".join(loaded))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_importing_modules_does_no_work(tmp_path: Path) -> None:
    """Nothing at import time: no store file, no directories, no heavy SDKs."""
    code = """
import sys, memo_tui.cli, memo_tui.settings, store, memo_tui.core.capture
heavy = [m for m in ("anthropic", "fastembed", "onnxruntime") if m in sys.modules]
print(",".join(heavy))
"""
    env = {"MEMO_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
    assert not (tmp_path / "home").exists()
