"""Write schema_history.sql: the schema a fresh store had at each commit that changed it.

Run from the repository root after committing a new migration step:

    python tests/data/make_schema_history.py

For every commit that touched store/ (oldest first), that commit's `store` package is
unpacked into a temporary folder (`git archive`: the working tree and the repository are
left alone), a fresh store is opened with it in a subprocess, and its sqlite_master is read.
A commit whose schema or version differs from the last one written is written as the changes
from it. Shadow tables of virtual tables and SQLite's own entries are left out.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "schema_history.sql"

# Runs inside the old commit's package: a fresh store, then what it holds.
DUMP = """
import json, sys
from pathlib import Path
from store import Store
store = Store(Path(sys.argv[1]))
store.open()
with store.writer.connect() as conn:
    listed = conn.exec_driver_sql("PRAGMA table_list").all()
    virtual = tuple(r[1] + "_" for r in listed if r[2] == "virtual")  # (vec0 declares few)
    shadow = {r[1] for r in listed if r[2] == "shadow" or r[1].startswith(virtual)}
    rows = conn.exec_driver_sql(
        "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
        "AND name NOT LIKE 'sqlite\\\\_%' ESCAPE '\\\\' ORDER BY rowid"
    ).all()
    version = conn.exec_driver_sql("PRAGMA user_version").scalar_one()
    names = conn.exec_driver_sql("SELECT name FROM schema_migrations ORDER BY version").all()
store.close()
print(json.dumps({
    "version": version,
    "names": [n for (n,) in names],
    "entries": [[t, n, s] for t, n, s in rows if n not in shadow],
}))
"""


def git(*args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=REPO, check=True, capture_output=True).stdout


def schema_at(commit: str, folder: Path) -> dict[str, object]:
    """A fresh store's schema, made by the `store` package of `commit`."""
    source = folder / commit
    with tarfile.open(fileobj=io.BytesIO(git("archive", commit, "store"))) as archive:
        archive.extractall(source, filter="data")
    done = subprocess.run(
        [sys.executable, "-c", DUMP, str(folder / f"{commit}.db")],
        cwd=folder,
        env={"PYTHONPATH": str(source), "PATH": "/usr/bin:/bin"},
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    from store.migrations import MIGRATIONS

    commits = git("log", "--reverse", "--format=%h %ad %s", "--date=short", "--", "store")
    lines = [
        "-- The schema a fresh memo store had after each commit that changed it, oldest first,",
        "-- each written as its changes from the one before. Written by make_schema_history.py:",
        "-- do not edit. Shadow tables of virtual tables and SQLite's own entries are left out.",
    ]
    last: dict[tuple[str, str], str] = {}
    last_version = 0
    with tempfile.TemporaryDirectory() as folder:
        for line in commits.decode().splitlines():
            commit, date, subject = line.split(" ", 2)
            found = schema_at(commit, Path(folder))
            names = found["names"]
            assert isinstance(names, list) and isinstance(found["entries"], list)
            assert names == [name for name, _ in MIGRATIONS[: len(names)]], commit
            schema = {(t, n): s for t, n, s in found["entries"]}
            if schema == last and found["version"] == last_version:
                continue
            title = subject if len(subject) <= 60 else subject[:57] + "..."
            lines += ["", f"-- schema {found['version']} at {commit} ({date}): {title}"]
            for (kind, name), sql in schema.items():
                if last.get((kind, name)) != sql:
                    change = "change" if (kind, name) in last else "add"
                    lines += [f"-- {change} {kind} {name}", f"{sql};"]
            lines += [f"-- drop {kind} {name}" for kind, name in last if (kind, name) not in schema]
            last, last_version = schema, found["version"]
    OUT.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
