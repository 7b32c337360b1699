"""`memo bench team`: writers at once on a PostgreSQL store it starts itself, every write
checked, and hybrid search timed on SQLite and on pgvector."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from support.postgres import fresh_database

from memo_tui.core.benchmarks import team
from store import Store

pytestmark = pytest.mark.postgres


@pytest.mark.slow
def test_writers_at_once_lose_nothing_and_both_stores_are_timed(memo) -> None:  # type: ignore[no-untyped-def]
    args = ("--writers", "3", "--meetings", "2", "--facts", "300", "--queries", "5")
    temp = Path(tempfile.mkdtemp(prefix="mbt", dir="/tmp"))  # short: the server's socket is in it
    try:
        run = memo("bench", "team", *args, "--json", timeout=300, extra_env={"TMPDIR": str(temp)})
        assert run.code == 0, run.stderr
        assert not list(temp.glob("memo-bench-pg-*"))  # the server's folder went with it
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    figures = run.json()
    writers = figures["writers"]
    assert (writers["processes"], writers["captures"]) == (3, 6)
    assert writers["lost_writes"] == 0 and writers["errors"] == 0
    assert [s["store"] for s in figures["search"]] == [
        "SQLite (vec0)",
        "PostgreSQL (pgvector HNSW)",
    ]
    assert all(
        s["hybrid_ms"]["p50"] > 0 and s["vector_recall_at_10"] > 0.9 for s in figures["search"]
    )
    assert "started for this run" in run.stderr


def test_a_write_the_store_does_not_hold_is_counted_lost(tmp_path: Path) -> None:
    url = fresh_database()
    with Store(url) as store:
        store.people.add(f"{team.first_name(0)} Adams")
        store.people.add(f"{team.first_name(0)} Baker")
    made = team._writer(url, 0, 2)
    assert made.errors == [] and len(made.captures) == 2
    assert team._check(url, [made], 2) == []
    claimed = team.WriterReport(0, [*made.captures, 999], made.confirmed)  # one never made
    lost = team._check(url, [claimed], 2)
    assert "writer 0: 3 of 2 made" in lost and "writer 0: capture 999 missing" in lost
    unconfirmed = team.WriterReport(0, made.captures, "Zed")
    assert team._check(url, [unconfirmed], 2) == ["writer 0: alias Zed missing"]
