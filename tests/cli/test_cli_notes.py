"""`memo note add|edit|delete`, `memo notes` and `memo forget` as a script runs them: a real
subprocess on a real database file; what they refuse leaves the file byte for byte as it was."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from store import FactFilter, Store

MEETING = (
    "Atlas kickoff\nDate: 2026-09-08\n\n"
    "Priya Natarajan: Final call: we're moving Atlas to Postgres, "
    "because JSONB covers the events.\n"
    "Tom Adeyemi: I'll set up a managed Postgres in staging by Friday.\n"
)
AS_PAT = {"MEMO_USER": "Pat"}


def files(db: Path) -> dict[str, bytes]:
    """The store's files, byte for byte (the database, and its WAL while one is left)."""
    return {p.name: p.read_bytes() for p in db.parent.glob(f"{db.name}*")}


@pytest.fixture
def db(memo: Any, tmp_path: Path) -> Path:
    """A store with Beacon (for Halvorsen Freight) and Atlas (no client)."""
    path = tmp_path / "memo.db"
    for project in (("Beacon", "--client", "Halvorsen Freight"), ("Atlas",)):
        run = memo("--db", str(path), "project", "add", *project)
        assert run.code == 0, run.stderr
    return path


def test_add_edit_delete_and_list_notes_with_json(memo: Any, db: Path) -> None:
    added = memo("--db", str(db), "note", "add", "--project", "beacon", "Pilot in Bergen", "--json")
    assert added.code == 0, added.stderr
    assert added.json()["action"] == "added"
    note = added.json()["note"]
    assert (note["kind"], note["owner"], note["body"]) == ("project", "Beacon", "Pilot in Bergen")
    provenance = note["provenance"]
    assert provenance["source_type"] == "note" and provenance["source_id"].startswith("project:")
    assert provenance["triggered_by_user"]
    client = memo(
        "--db", str(db), "note", "add", "--client", "Halvorsen Freight", "-", "--json",
        stdin="Invoices need PO numbers.\n",
        extra_env=AS_PAT,
    )  # fmt: skip
    assert client.code == 0, client.stderr
    theirs = client.json()["note"]
    assert theirs["body"] == "Invoices need PO numbers."
    assert theirs["provenance"]["source_id"] == "client:Halvorsen Freight"
    assert theirs["provenance"]["triggered_by_user"] == "Pat"
    listed = memo("--db", str(db), "notes", "--project", "Beacon", "--json").json()["notes"]
    assert [(n["id"], n["kind"]) for n in listed] == [
        (note["id"], "project"),
        (theirs["id"], "client"),
    ]  # the project's, then its client's: as its page shows them
    clients = memo("--db", str(db), "notes", "--client", "halvorsen freight", "--json")
    assert [n["id"] for n in clients.json()["notes"]] == [theirs["id"]]
    edited = memo("--db", str(db), "note", "edit", str(note["id"]), "Pilot in Bergen and Oslo")
    assert edited.code == 0 and "edited note" in edited.stdout
    again = memo("--db", str(db), "note", "edit", str(note["id"]), "Pilot in Bergen and Oslo")
    assert again.code == 0 and "unchanged note" in again.stdout
    with Store(db) as store:
        found = store.notes.get(note["id"])
        assert found is not None and found.body == "Pilot in Bergen and Oslo"
        assert (
            found.provenance is not None
            and found.provenance.captured_at == (provenance["captured_at"])
        )  # who wrote it first, and when, stay
        hits = store.search.keyword("Oslo", FactFilter(), 10)
        assert note["fact_key"] in {key for key, _ in hits}  # a fact: search finds it
    deleted = memo("--db", str(db), "note", "delete", str(note["id"]), "--json")
    assert deleted.code == 0 and deleted.json()["action"] == "deleted"
    assert deleted.json()["note"]["body"] == "Pilot in Bergen and Oslo"
    text = memo("--db", str(db), "notes")
    assert text.code == 0
    assert "Halvorsen Freight (the client)" in text.stdout and "by Pat" in text.stdout
    assert "Pilot" not in text.stdout


REFUSED = [  # (arguments, stdin, what stderr says)
    (("note", "add", "--project", "Zephyr", "text"), None, "no project called 'Zephyr'"),
    (("note", "add", "--client", "Nobody", "text", "--json"), None, "no client called 'Nobody'"),
    (("note", "add", "--project", "Beacon", "  "), None, "needs some text"),
    (("note", "add", "--project", "Beacon", "-", "--json"), "\n\n", "needs some text"),
    (("note", "edit", "1", ""), None, "needs some text"),
    (("note", "edit", "99", "text", "--json"), None, "no note 99"),
    (("note", "delete", "99"), None, "no note 99"),
    (("notes", "--project", "Zephyr", "--json"), None, "no project called 'Zephyr'"),
    (("notes", "--client", "Halvorsen"), None, "clients: Halvorsen Freight"),
]


def test_refusals_exit_2_and_leave_the_store_as_it_was(memo: Any, db: Path) -> None:
    assert memo("--db", str(db), "note", "add", "--project", "Beacon", "Pilot").code == 0
    before = files(db)
    for args, stdin, said in REFUSED:
        run = memo("--db", str(db), *args, stdin=stdin)
        assert (run.code, run.stdout) == (2, ""), (args, run.stderr)
        assert said in run.stderr, args
    assert files(db) == before


def test_a_note_written_from_the_cli_is_embedded_as_the_app_embeds_it(memo: Any, db: Path) -> None:
    model = os.environ.get("MEMO_EMBED_MODEL_PATH")
    if not model or not (Path(model) / "model.onnx").is_file():
        pytest.skip("needs MEMO_EMBED_MODEL_PATH")
    with_model = {"MEMO_EMBED_MODEL_PATH": model}
    run = memo(
        "--db", str(db), "note", "add", "--project", "Atlas", "Runs on Postgres", "--json",
        extra_env=with_model,
    )  # fmt: skip
    assert run.code == 0, run.stderr
    note = run.json()["note"]
    with Store(db) as store:
        assert store.vectors.count_missing() == 0  # (the note is the store's one fact)
        assert store.facts.get(note["fact_key"]) is not None
    edited = memo("--db", str(db), "note", "edit", str(note["id"]), "Runs on MySQL")
    assert edited.code == 0  # (no model here: the edit stands, its vector waits)
    with Store(db) as store:
        assert store.vectors.count_missing() == 1
    memo("--db", str(db), "note", "edit", str(note["id"]), "Runs on MySQL 8", extra_env=with_model)
    with Store(db) as store:
        assert store.vectors.count_missing() == 0


# memo forget: a capture deleted


def captured(memo: Any, tmp_path: Path, name: str = "kickoff.txt") -> tuple[Path, int]:
    path = tmp_path / name
    path.write_text(MEETING)
    db = tmp_path / "memo.db"
    run = memo("--db", str(db), "capture", str(path), "--json")
    assert run.code == 0, run.stderr
    return db, run.json()["results"][0]["capture_id"]


def test_forget_deletes_a_capture_and_its_facts(memo: Any, tmp_path: Path) -> None:
    db, capture_id = captured(memo, tmp_path)
    deleted = memo("--db", str(db), "forget", str(capture_id), "--yes", "--json")
    assert deleted.code == 0, deleted.stderr
    assert deleted.json()["deleted"] == {
        "capture_id": capture_id,
        "title": "Atlas kickoff",
        "occurred_at": "2026-09-08",
        "decisions": 1,
        "action_items": 1,
    }
    assert memo("--db", str(db), "facts", "--json").json()["facts"] == []
    with Store(db) as store:
        assert store.captures.all() == [] and store.integrity_check() == "ok"
        assert [p.name for p in store.people.all()]  # people outlive the meeting
    again = memo("--db", str(db), "capture", str(tmp_path / "kickoff.txt"), "--json")
    assert again.json()["results"][0]["status"] == "captured"  # not "already captured"


def test_forget_in_a_script_needs_yes_and_an_unknown_id_exits_2(memo: Any, tmp_path: Path) -> None:
    db, capture_id = captured(memo, tmp_path)
    before = files(db)
    refused = memo("--db", str(db), "forget", str(capture_id), stdin="y\n")  # not a terminal
    assert refused.code == 1
    assert "--yes" in refused.stderr and "Atlas kickoff" in refused.stderr
    unknown = memo("--db", str(db), "forget", str(capture_id + 1), "--yes", stdin="")
    assert unknown.code == 2 and f"no capture {capture_id + 1}" in unknown.stderr
    assert files(db) == before


@pytest.mark.parametrize(("answer", "code", "left"), [("n\n", 1, 1), ("", 1, 1), ("y\n", 0, 0)])
def test_forget_in_a_terminal_asks_first(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answer: str,
    code: int,
    left: int,
) -> None:
    from memo_tui.cli import main

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    for name in [n for n in os.environ if n.startswith("MEMO_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("MEMO_HOME", str(tmp_path / "home"))
    db = tmp_path / "memo.db"
    (tmp_path / "kickoff.txt").write_text(MEETING)
    assert main(["--db", str(db), "capture", str(tmp_path / "kickoff.txt")]) == 0
    monkeypatch.setattr(sys, "stdin", Terminal(answer))
    capsys.readouterr()
    assert main(["--db", str(db), "forget", "1"]) == code
    err = capsys.readouterr().err
    assert "Delete capture 1, 'Atlas kickoff'" in err and "[y/N]" in err
    with Store(db) as store:
        assert len(store.captures.all()) == left


def test_capture_still_takes_a_file_called_delete(memo: Any, tmp_path: Path) -> None:
    """`memo forget`, not a `capture delete` action: `memo capture FILE...` is as it was."""
    db, capture_id = captured(memo, tmp_path, "delete.txt")
    assert memo("--db", str(db), "forget", str(capture_id), "--yes").code == 0
