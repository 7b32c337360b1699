"""The same commands on a team store: `--db postgresql://...` captures, lists, asks and
reports the store as a SQLite file does, with the same records out."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.paths import DEMO
from support.postgres import fresh_database

pytestmark = pytest.mark.postgres

_MOVING = ("captured_at", "capture_id", "fact_id", "id")  # set by when and in what order


def _records(facts: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return sorted(
        (tuple(v for k, v in sorted(f.items()) if k not in _MOVING) for f in facts), key=repr
    )


def test_a_team_store_gives_the_records_a_file_gives(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    url, db = fresh_database(), str(tmp_path / "memo.db")
    for store in (db, url):
        captured = memo("--db", store, "capture", str(DEMO), "--json")
        assert captured.code == 0, captured.stderr
    on_file = memo("--db", db, "facts", "--json").json()["facts"]
    on_server = memo("--db", url, "facts", "--json").json()["facts"]
    assert len(on_file) > 100
    assert _records(on_server) == _records(on_file)
    again = memo("--db", url, "capture", str(DEMO), "--json").json()["results"]
    assert {r["status"] for r in again} == {"unchanged"}

    people = memo("--db", url, "people", "--json")
    assert people.code == 0, people.stderr
    assert people.json() == memo("--db", db, "people", "--json").json()

    question = ("ask", "Why did Atlas choose Postgres?", "--json")
    answered = memo("--db", url, *question)
    assert answered.code == 0, answered.stderr
    assert "Priya" in answered.json()["answer"]
    on_file_cited = {c["text"] for c in memo("--db", db, *question).json()["citations"]}
    cited = {c["text"] for c in answered.json()["citations"]}
    assert any(text.startswith("We're moving Atlas to Postgres") for text in cited)
    assert len(cited & on_file_cited) >= 2  # (keyword ranks differ: ts_rank_cd, not BM25)

    doctor = memo("--db", url, "doctor", "--json").json()
    assert doctor["store"]["sqlite_version"].startswith("PostgreSQL 16")
    assert "***" not in url and doctor["store"]["path"].startswith("postgresql://")


def test_a_server_that_is_not_there_is_said_and_nothing_is_written(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    url = f"postgresql://memo@/nowhere?host={tmp_path}"  # no server listens in this folder
    run = memo("--db", url, "facts")
    assert run.code != 0
    assert "cannot open postgresql://memo@/nowhere" in run.stderr
    assert "check the URL and that the server is up" in run.stderr
    assert "Traceback" not in run.stderr
