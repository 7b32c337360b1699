"""`memo export markdown DIR` from the command line: JSON, what it skipped, a refusal."""

from __future__ import annotations

import json
from pathlib import Path


def test_the_cli_exports_and_says_what_it_skipped(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    vault = tmp_path / "vault"
    first = memo("--demo", "export", "markdown", str(vault), "--json")
    assert first.code == 0, first.stderr
    assert len(json.loads(first.stdout)["written"]) == len(list(vault.rglob("*.md")))
    (vault / "Decision log.md").write_text("my own log\n")
    again = memo("--demo", "export", "markdown", str(vault))
    assert again.code == 0
    assert again.stdout.startswith("0 written, ")
    assert "skipped Decision log.md: changed since memo wrote it (yours now)" in again.stdout
    blocked = tmp_path / "file"
    blocked.write_text("x")
    refused = memo("--demo", "export", "markdown", str(blocked / "vault"))
    assert refused.code == 1 and refused.stderr.startswith("memo export: ")
