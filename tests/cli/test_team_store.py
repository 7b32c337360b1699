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

    said = memo("--db", url, "doctor").stdout
    assert "server       PostgreSQL 16" in said and "pgvector" in said and "sqlite" not in said
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


def test_a_file_store_moves_in_whole_and_again_only_what_is_new(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    url, db = fresh_database(), str(tmp_path / "memo.db")
    meetings = sorted(DEMO.iterdir())
    for meeting in meetings[:-1]:
        assert memo("--db", db, "capture", str(meeting)).code == 0
    moved = memo("--db", db, "store", "copy", "--to", url)
    assert moved.code == 0, moved.stderr
    assert "copying decisions:" in moved.stderr  # a line per table (not a terminal)
    assert moved.stdout.startswith("Copied ") and "there already" not in moved.stdout
    same = memo("--db", url, "facts", "--json").json()["facts"]
    assert same == memo("--db", db, "facts", "--json").json()["facts"]  # ids and all

    assert memo("--db", db, "capture", str(meetings[-1])).code == 0
    for change in memo("--db", db, "changes", "--json").json()["changes"]:  # the user keeps them
        assert memo("--db", db, "changes", "accept", str(change["id"])).code == 0
    again = memo("--db", db, "store", "copy", "--to", url, "--json").json()
    assert again["added"]["captures"] == 1 and again["present"] > 100
    assert again["updated"] >= 1  # the decision the last meeting replaced says so there too
    assert memo("--db", url, "facts", "--json").json() == memo("--db", db, "facts", "--json").json()
    # the server's ids go on after the copied ones: a capture there gets a new one
    note = tmp_path / "later.txt"
    note.write_text("Later sync\n\nAna: We decided to ship on Friday.\n")
    assert memo("--db", url, "capture", str(note)).code == 0


def test_another_store_is_not_copied_over_the_first(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    url, first, second = fresh_database(), str(tmp_path / "a.db"), str(tmp_path / "b.db")
    meetings = sorted(DEMO.iterdir())
    assert memo("--db", first, "capture", str(meetings[0])).code == 0
    assert memo("--db", second, "capture", str(meetings[1])).code == 0
    assert memo("--db", first, "store", "copy", "--to", url).code == 0
    before = memo("--db", url, "facts", "--json").json()
    refused = memo("--db", second, "store", "copy", "--to", url)
    assert refused.code == 1
    assert "holds other meetings under 1 of this store's ids" in refused.stderr
    assert memo("--db", url, "facts", "--json").json() == before
