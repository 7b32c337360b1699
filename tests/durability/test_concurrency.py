"""Many `memo` processes on one store at once, on a SQLite file and on a PostgreSQL server:
capturing the same file and different ones, confirming a name, merging people, resuming a
run. No process dies, nothing but one clear line reaches stderr (no traceback, no SQL),
every write a process reports is in the store afterwards, and a lost race says
"unchanged" (with the capture it lost to) or why, never an error.

The races in the write path itself are also forced in process, so they are met every run
rather than when the scheduler happens to interleave the processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.capture.sources import Transcript
from memo_tui.core.services import Services
from store import Store

BOTH_STORES = True
pytestmark = pytest.mark.slow

WRITERS = 4
MEETING = """Ops review
Date: 2026-03-0{n}

Priya Natarajan: We decided to move the ops review to Thursdays, starting next week.
Tom Adeyemi: I'll send the new invite by Friday.
Priya Natarajan: And we keep the on-call rota as it is for meeting {n}.
"""


@dataclass
class Done:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def at_once(home: Path, commands: list[list[str]]) -> list[Done]:
    """Each command as its own `memo` process, all started together."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMO_")}
    env |= {"MEMO_HOME": str(home), "MEMO_PROVIDER": "offline", "MEMO_EMBED_DOWNLOAD": "0"}
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "memo_tui", *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for command in commands
    ]
    finished = []
    for process in started:
        stdout, stderr = process.communicate(timeout=180)
        finished.append(Done(process.returncode, stdout, stderr))
    return finished


def action_items(store: Store) -> list[Any]:
    return store.captures.action_items([c.id for c in store.captures.all()])


def assert_clean(done: Done) -> None:
    """What a user sees of a process: no traceback, no SQL, no driver's parameters."""
    for marker in ("Traceback", "[SQL:", "[parameters:", "INSERT INTO", "psycopg", "sqlalchemy"):
        assert marker not in done.stderr, done.stderr
    assert done.code in (0, 1), done.stderr


@pytest.fixture
def db(services: Services) -> Iterator[str]:
    """The location of this test's own copy of the demo store (a file, or a database)."""
    location = services.store.url or str(services.store.path)
    services.close()
    yield location


def test_one_file_captured_by_many_processes_at_once(db: str, tmp_path: Path) -> None:
    same = tmp_path / "2026-03-02-same.txt"
    same.write_text(MEETING.format(n=2), encoding="utf-8")
    others = []
    for n in range(WRITERS):
        other = tmp_path / f"2026-03-0{n + 3}-other.txt"
        other.write_text(MEETING.format(n=n + 3), encoding="utf-8")
        others.append(other)
    done = at_once(
        tmp_path / "home", [["--db", db, "capture", "--json", str(same), str(o)] for o in others]
    )
    for process in done:
        assert_clean(process)
        assert process.code == 0, process.stderr
    results = [process.json()["results"] for process in done]
    firsts = [r[0] for r in results]
    assert sorted(r["status"] for r in firsts) == ["captured"] + ["unchanged"] * (WRITERS - 1)
    assert len({r["capture_id"] for r in firsts}) == 1  # the losers name the capture they lost to
    assert all(r[1]["status"] == "captured" for r in results)  # each went on to its other file
    with Store(db) as store:
        stored = {c.id for c in store.captures.all()}
        reported = {r["capture_id"] for pair in results for r in pair}
        assert reported <= stored
        for pair in results:
            for r in pair:
                assert len(store.captures.items([r["capture_id"]])[1]) == len(r["action_items"])


def test_a_capture_that_loses_the_race_at_its_write_says_unchanged(
    store: Store, tmp_path: Path
) -> None:
    """Another process stores the same text between this one's check and its write."""
    other = CaptureService(Store(store.url or store.path), CaptureOptions(user="other"))
    text = MEETING.format(n=2)

    def extract_while_another_writes(transcript: Transcript) -> Any:
        other.capture_text(text, "2026-03-02-same.txt", "txt")  # commits first
        from memo_tui.core.capture.offline import extract

        return extract(transcript)

    service = CaptureService(
        store, CaptureOptions(user="me"), extractor=extract_while_another_writes
    )
    result = service.capture_text(text, "2026-03-02-same.txt", "txt")
    other.store.close()
    assert result.status == "unchanged", result.error
    assert result.capture_id == store.captures.all()[0].id
    assert len(store.captures.all()) == 1


def test_a_file_stored_meanwhile_is_unchanged_not_a_new_version(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same file, stored by another process between this one's look for its text and
    its look for an earlier version: the file is unchanged, not a version to replace."""
    path = tmp_path / "2026-03-02-same.txt"
    path.write_text(MEETING.format(n=2), encoding="utf-8")
    service = CaptureService(store, CaptureOptions(user="me"))
    first = service.capture_file(path)
    by_hash, looks = store.captures.by_hash, []

    def looked_too_early(content_hash: str) -> Any:
        looks.append(content_hash)  # the first look comes before the other process committed
        return None if len(looks) == 1 else by_hash(content_hash)

    monkeypatch.setattr(store.captures, "by_hash", looked_too_early)
    again = service.capture_file(path)
    assert (again.status, again.capture_id) == ("unchanged", first.capture_id), again.error


def test_a_name_confirmed_by_many_processes_at_once(db: str, tmp_path: Path) -> None:
    done = at_once(
        tmp_path / "home",
        [["--db", db, "confirm", "--json", "Sam", "Sam Chen"] for _ in range(WRITERS)],
    )
    for process in done:
        assert_clean(process)
        assert process.code == 0, process.stderr
        assert process.json()["person"] == "Sam Chen"
    with Store(db) as store:
        assert not store.people.pending_mentions()
        sam = next(p for p in store.people.all() if p.name == "Sam Chen")
        owned = [a for a in action_items(store) if a.person_id == sam.id]
        assert any(a.assignee_raw == "Sam" for a in owned)


def test_people_merged_by_many_processes_at_once(db: str, tmp_path: Path) -> None:
    """The same merge from every process: one makes it, the others say it is made."""
    with Store(db) as store:
        before = {p.name: p.id for p in store.people.all()}
        cheng_items = len([a for a in action_items(store) if a.person_id == before["Sam Cheng"]])
    done = at_once(
        tmp_path / "home",
        [["--db", db, "people", "merge", "--json", "Sam Cheng", "Sam Chen"]] * WRITERS,
    )
    for process in done:
        assert_clean(process)
    assert [p.code for p in done].count(0) >= 1
    for process in done:
        if process.code:
            assert "memo" in process.stderr and process.stderr.count("\n") == 1, process.stderr
    with Store(db) as store:
        after = {p.name: p.id for p in store.people.all()}
        assert "Sam Cheng" not in after
        moved = [a for a in action_items(store) if a.person_id == after["Sam Chen"]]
        assert len(moved) >= cheng_items


def test_a_run_resumed_by_many_processes_at_once(db: str, tmp_path: Path) -> None:
    """An interrupted run: one process takes it up and finishes it; the others say another
    memo resumed it. Its steps are made once."""
    home = tmp_path / "home"
    first = at_once(home, [["--db", db, "run", "--json", "project_compile", "Atlas"]])[0]
    assert first.code == 0, first.stderr
    run_id = first.json()["run_id"]
    with Store(db) as store:
        store.runs.set_status(run_id, "interrupted", "cut off (by the test)")
        steps = len(store.runs.steps(run_id))
    done = at_once(home, [["--db", db, "run", "--json", "--resume", str(run_id)]] * WRITERS)
    for process in done:
        assert_clean(process)
    winners = [p for p in done if p.code == 0]
    assert len(winners) == 1, [p.stderr for p in done]
    for process in done:
        if process.code:
            said = process.stderr
            assert any(w in said for w in ("resumed meanwhile", "is running", "is completed")), said
    with Store(db) as store:
        run = store.runs.get(run_id)
        assert run is not None and run.status == "completed", run
        indexes = [s.step_index for s in store.runs.steps(run_id)]
        assert len(indexes) == len(set(indexes)) >= steps
