"""Frozen migrations: each step makes the schema its version had, and a store left by any
earlier memo, opened today, ends exactly like a fresh one, its rows and rollups intact.

The earlier schemas come from tests/data/schema_history.sql: what a fresh store held at each
commit that changed the schema, read from git history by make_schema_history.py.
"""

from __future__ import annotations

import ast
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlean
from sqlalchemy import Connection
from support.paths import DATA, REPO

from store import Store, reports
from store.engine import writer_engine
from store.migrations import MIGRATIONS, SCHEMA_VERSION, upgrade

STEPS = REPO / "store" / "migrations"


@dataclass(frozen=True)
class Schema:
    """The schema a fresh store had at `commit`: (type, name) -> its CREATE statement."""

    version: int
    commit: str
    entries: dict[tuple[str, str], str]


def read_history() -> list[Schema]:
    """schema_history.sql, each schema with its changes from the one before applied."""
    found: list[Schema] = []
    current: dict[tuple[str, str], str] = {}
    header: tuple[int, str] | None = None
    pending: tuple[str, str] | None = None
    buffer = ""
    for line in (DATA / "schema_history.sql").read_text().splitlines(keepends=True):
        if pending is not None:
            buffer += line
            if sqlean.complete_statement(buffer):
                current[pending] = buffer.strip().removesuffix(";")
                pending, buffer = None, ""
        elif match := re.match(r"-- schema (\d+) at (\w+)", line):
            if header:
                found.append(Schema(*header, dict(current)))
            header = (int(match[1]), match[2])
        elif match := re.match(r"-- (add|change|drop) (\w+) (\w+)", line):
            if match[1] == "drop":
                del current[(match[2], match[3])]
            else:
                pending = (match[2], match[3])
    assert header and pending is None
    return [*found, Schema(*header, current)]


HISTORY = read_history()
LATEST = {schema.version: schema for schema in HISTORY}  # the last schema of each version
# Entries a step was edited to create after its version shipped (a later step repairs them).
EDITED_LATER = {8: {("table", "person_addresses")}}


def normalised(sql: str) -> str:
    return re.sub(r"\s+", " ", sql).strip()


def schema_of(conn: Connection) -> dict[tuple[str, str], str]:
    """sqlite_master without SQLite's own entries and the virtual tables' shadow tables (vec0
    does not declare all of its own as shadow tables)."""
    listed = conn.exec_driver_sql("PRAGMA table_list").all()
    virtual = tuple(f"{r[1]}_" for r in listed if r[2] == "virtual")
    shadow = {r[1] for r in listed if r[2] == "shadow" or r[1].startswith(virtual)}
    rows = conn.exec_driver_sql(
        "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
        "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    )
    return {(t, n): normalised(s) for t, n, s in rows if n not in shadow}


def differences(
    got: dict[tuple[str, str], str], wanted: dict[tuple[str, str], str]
) -> dict[tuple[str, str], tuple[str | None, str | None]]:
    """The entries that differ: (got, wanted), None where one side lacks it."""
    keys = sorted(got.keys() | wanted.keys())
    return {key: (got.get(key), wanted.get(key)) for key in keys if got.get(key) != wanted.get(key)}


def test_the_history_holds_every_version_before_this_one() -> None:
    assert set(LATEST) >= set(range(1, SCHEMA_VERSION))
    assert max(LATEST) <= SCHEMA_VERSION


@pytest.mark.parametrize("version", sorted(LATEST))
def test_the_frozen_steps_make_the_schema_their_version_had(tmp_path: Path, version: int) -> None:
    engine = writer_engine(tmp_path / "steps.db")
    try:
        with engine.begin() as conn:
            upgrade(conn, version)
            made = schema_of(conn)
    finally:
        engine.dispose()
    had = {key: normalised(sql) for key, sql in LATEST[version].entries.items()}
    assert set(differences(made, had)) == EDITED_LATER.get(version, set())


def test_steps_import_nothing_of_the_live_store() -> None:
    """A step imports the connection type and the script runner, nothing else of the store."""
    allowed = {
        "__future__.annotations",
        "re",
        "sqlalchemy.Connection",
        "store.migrations._sql.run_script",
    }
    steps = sorted(STEPS.glob("v[0-9][0-9]_*.py"))
    assert len(steps) == SCHEMA_VERSION
    for step in steps:
        imported = {
            f"{node.module}.{alias.name}" if isinstance(node, ast.ImportFrom) else alias.name
            for node in ast.walk(ast.parse(step.read_text()))
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        }
        assert imported <= allowed, step.name


# --- a store from every historical schema, with rows in it, opened by today's Store -------

WHEN = "2026-09-01T10:00:00+00:00"
THEN = "2026-09-02T00:00:00+00:00"  # when an old memo last rebuilt the rollups
SAID = (
    "Libby Hart: Sam, please send the quotes by Friday.\n"
    "Sam Okafor: Will do.\n"
    "Libby Hart: We go with Postgres for the ledger, final.\n"
)
BY = {
    "source_type": "capture",
    "source_id": "m1",
    "captured_at": WHEN,
    "triggered_by_user": "tester",
    "triggered_by_agent": None,
}
EXCERPT_KEY = (4 << 32) | 1
VECTOR = struct.pack("384f", *(i / 384 for i in range(384)))

# Every row as today's tables have it; a store gets the columns its schema has.
ROWS: dict[str, list[dict[str, Any]]] = {
    "clients": [{"id": 1, "name": "Halvorsen", "created_at": WHEN}],
    "projects": [{"id": 1, "name": "Beacon", "client_id": 1, "created_at": WHEN}],
    "people": [
        {"id": 1, "name": "Sam Okafor", "email": None, "created_at": WHEN},
        {"id": 2, "name": "Libby Hart", "email": "libby@example.com", "created_at": WHEN},
    ],
    "entity_aliases": [
        {
            "id": 1,
            "entity_type": "person",
            "entity_id": 1,
            "alias": "Sam",
            "confidence": 0.9,
            "auto_resolved": 0,
            "confirmed_by": "tester",
            "created_at": WHEN,
        }
    ],
    "captures": [
        {
            "id": 1,
            "source_kind": "file",
            "source_path": "/notes/ledger.txt",
            "source_format": "plain",
            "content_hash": "c1",
            "title": "Ledger sync",
            "occurred_at": "2026-09-01",
            "raw_text": SAID,
            "text": SAID,
            "line_count": 3,
            "char_count": len(SAID),
            "summary": "Quotes and the ledger database.",
            "meta_json": "{}",
            "extractor": "offline",
            **BY,
        }
    ],
    "capture_projects": [
        {"capture_id": 1, "project_id": 1, "linked_by": "user", "created_at": WHEN}
    ],
    "capture_people": [{"capture_id": 1, "person_id": 1}, {"capture_id": 1, "person_id": 2}],
    "decisions": [
        {
            "id": 1,
            "capture_id": 1,
            "description": "Use Postgres for the ledger",
            "reasoning": "the team knows it",
            "decided_by": "Libby",
            "line_start": 3,
            "line_end": 3,
            "evidence_quote": "We go with Postgres for the ledger",
            "person_id": 2,
            "status": "current",
            "subject": "database storage",
            **BY,
        },
        {
            "id": 2,
            "capture_id": 1,
            "description": "Ship on Fridays",
            "decided_by": "Sam",
            "line_start": 2,
            "line_end": 2,
            "pending": 1,
            "status": "retracted",
            **BY,
        },
    ],
    "action_items": [
        {
            "id": 1,
            "capture_id": 1,
            "description": "Send the quotes",
            "assignee_raw": "Sam",
            "person_id": 1,
            "due_date": "2026-09-05",
            "line_start": 1,
            "line_end": 1,
            "asked_by": "Libby Hart",  # (step 16 reads it from line 1)
            **BY,
        },
        {
            "id": 2,
            "capture_id": 1,
            "description": "Book the room",
            "assignee_raw": "Libby",
            "person_id": 2,
            "status": "done",
            "decision_id": 1,
            "line_start": 3,
            "line_end": 3,
            **BY,
        },
    ],
    "excerpts": [
        {"id": 1, "capture_id": 1, "line_start": 2, "line_end": 2, "text": "Will do.", **BY}
    ],
    "context_notes": [
        {"id": 1, "kind": "client", "client_id": 1, "body": "Prefers email.", "updated_at": WHEN}
        | BY
    ],
    "digests": [
        {"id": 1, "period_start": "2026-08-31", "period_end": "2026-09-06", "body": "Ledger week."}
        | BY
    ],
    "sections": [
        {
            "id": 1,
            "entity_type": "project",
            "entity_id": 1,
            "key": "summary",
            "body": "Beacon moves its ledger.",
            "edited_by": "user",
            "updated_at": WHEN,
        }
    ],
    "concepts": [{"id": 1, "name": "Ledger", "created_at": WHEN}],
    "email_messages": [
        {
            "id": 1,
            "message_id": "<q1@example.com>",
            "thread_key": "t1",
            "sent_at": WHEN,
            "subject": "Quotes",
            "sender_name": "Sam Okafor",
            "sender_address": "sam@example.com",
            "recipients_json": '[{"name": "Libby Hart", "address": "libby@example.com"}]',
            "refs_json": "[]",
            "body": "Quotes attached.",
            "imported_at": WHEN,
        }
    ],
    "person_addresses": [
        {
            "address": "sam@example.com",
            "person_id": 1,
            "display_name": "Sam Okafor",
            "settled": 1,
            "created_at": WHEN,
        },
        {"address": "libby@example.com", "person_id": 2, "created_at": WHEN},
    ],
    "changes": [
        {
            "id": 1,
            "kind": "supersedes",
            "old_decision_id": 2,
            "new_decision_id": 1,
            "capture_id": 1,
            "evidence": "We go with Postgres",
            "reason": "the same subject",
            "strength": "weak",
            "status": "proposed",
            "previous_status": "current",
            "created_at": WHEN,
        }
    ],
    "agent_sessions": [
        {
            "id": 1,
            "agent_type": "digest",
            "status": "completed",
            "started_at": WHEN,
            "finished_at": WHEN,
            "spec_json": '{"week": "2026-W36"}',
        }
    ],
    "agent_steps": [
        {
            "id": 1,
            "session_id": 1,
            "step_index": 0,
            "kind": "model",
            "status": "completed",
            "started_at": WHEN,
            "message_json": "{}",
        }
    ],
    "fact_embeddings": [
        {
            "id": 1,
            "fact_key": EXCERPT_KEY,
            "content_hash": "h1",
            "model": "test-model",
            "embedded_at": WHEN,
        }
    ],
}
# Filled in by a step from what is stored, so a fresh store is given them.
DERIVED = {("action_items", "asked_by")}
ROLLUPS = ("people_report", "projects_report")
NOT_COMPARED = {("schema_migrations", "applied_at"), ("embedding_space", "epoch")}


def columns_of(conn: Connection) -> dict[str, list[str]]:
    tables = [
        r[0] for r in conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type='table'")
    ]
    return {t: [r[1] for r in conn.exec_driver_sql(f"PRAGMA table_info({t})")] for t in tables}


def insert(conn: Connection, table: str, row: dict[str, Any], columns: list[str]) -> None:
    kept = {c: v for c, v in row.items() if c in columns}
    names = ", ".join(kept)
    marks = ", ".join("?" for _ in kept)
    conn.exec_driver_sql(f"INSERT INTO {table} ({names}) VALUES ({marks})", tuple(kept.values()))


def add_rows(conn: Connection, columns: dict[str, list[str]]) -> None:
    """ROWS as a store with these columns holds them, and the excerpt's vector."""
    for table, rows in ROWS.items():
        for row in rows if table in columns else ():
            insert(conn, table, row, columns[table])
    # Before schema 4 a vector's rowid was its fact key; since, its fact_embeddings id.
    rowid = 1 if "id" in columns_of(conn)["fact_embeddings"] else EXCERPT_KEY
    conn.exec_driver_sql(
        "INSERT INTO fact_vectors (rowid, embedding) VALUES (?, ?)", (rowid, VECTOR)
    )


def table_rows(conn: Connection, table: str) -> list[tuple[Any, ...]]:
    kept = [c for c in columns_of(conn)[table] if (table, c) not in NOT_COMPARED]
    return conn.exec_driver_sql(f"SELECT {', '.join(kept)} FROM {table} ORDER BY rowid").all()


def rollup(conn: Connection, table: str) -> list[dict[str, Any]]:
    return [r._asdict() for r in conn.exec_driver_sql(f"SELECT * FROM {table} ORDER BY rowid")]


def searched(conn: Connection, words: set[str]) -> dict[str, list[int]]:
    """The facts each word finds in the keyword index."""
    return {
        word: sorted(
            r[0]
            for r in conn.exec_driver_sql(
                "SELECT rowid FROM facts_fts WHERE facts_fts MATCH ?", (f'"{word}"',)
            )
        )
        for word in sorted(words)
    }


def build_historical(path: Path, schema: Schema) -> dict[str, list[str]]:
    """A store file as memo `schema.commit` made it, with no rows yet; its columns."""
    engine = writer_engine(path)
    try:
        with engine.begin() as conn:
            for kind in ("table", "index", "view", "trigger"):  # each after what it needs
                for (entry_kind, _), sql in schema.entries.items():
                    if entry_kind == kind:
                        conn.exec_driver_sql(sql)
            for number, (name, _) in enumerate(MIGRATIONS[: schema.version], 1):
                conn.exec_driver_sql(
                    "INSERT INTO schema_migrations VALUES (?, ?, '2026-11-29 00:00:00')",
                    (number, name),
                )
            conn.exec_driver_sql(f"PRAGMA user_version = {schema.version}")
            conn.exec_driver_sql(  # (schema 1 wrote this row)
                "INSERT INTO embedding_space (id, model, dim, updated_at) "
                "VALUES (1, 'test-model', 384, ?)",
                (WHEN,),
            )
            return columns_of(conn)
    finally:
        engine.dispose()


@dataclass
class Reference:
    """A fresh store given the rows an old store holds: what the upgrade must end with."""

    schema: dict[tuple[str, str], str]
    rows: dict[str, list[tuple[Any, ...]]]
    rollups: dict[str, list[dict[str, Any]]]
    facts: list[tuple[Any, ...]]
    search: dict[str, list[int]]


def reference(path: Path, old_columns: dict[str, list[str]]) -> Reference:
    with Store(path) as fresh:
        with fresh.writer.begin() as conn:
            conn.exec_driver_sql(
                "UPDATE embedding_space SET model = 'test-model', updated_at = ?", (WHEN,)
            )
            wanted = {
                table: [
                    c for c in today if c in old_columns.get(table, ()) or (table, c) in DERIVED
                ]
                for table, today in columns_of(conn).items()
            }
            add_rows(conn, {t: c for t, c in wanted.items() if t in old_columns})
        fresh.reports.rebuild()
        with fresh.reader.connect() as conn:
            texts = " ".join(r[0] for r in conn.exec_driver_sql("SELECT text FROM facts"))
            subjects = " ".join(r[0] for r in conn.exec_driver_sql("SELECT subject FROM decisions"))
            words = set(re.findall(r"\w+", f"{texts} {subjects}".lower()))
            schema = schema_of(conn)
            plain = [
                name
                for (kind, name), sql in schema.items()
                if kind == "table" and not sql.startswith("CREATE VIRTUAL") and name not in ROLLUPS
            ]
            return Reference(
                schema=schema,
                rows={table: table_rows(conn, table) for table in plain},
                rollups={table: rollup(conn, table) for table in ROLLUPS},
                facts=conn.exec_driver_sql("SELECT * FROM facts ORDER BY fact_key").all(),
                search=searched(conn, words),
            )


@pytest.mark.parametrize(
    "schema",
    [s for s in HISTORY if s.version < SCHEMA_VERSION],
    ids=lambda s: f"v{s.version:02d}-{s.commit}",
)
def test_a_store_from_every_earlier_schema_ends_like_a_fresh_one(
    tmp_path: Path, schema: Schema, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "old.db"
    columns = build_historical(path, schema)
    expected = reference(tmp_path / "fresh.db", columns)
    engine = writer_engine(path)
    try:
        with engine.begin() as conn:
            add_rows(conn, columns)
            if schema.version >= 6:  # the rollups as that memo kept them (before: never built)
                for table in ROLLUPS:
                    for row in expected.rollups[table]:
                        insert(conn, table, row | {"refreshed_at": THEN}, columns[table])
    finally:
        engine.dispose()

    rebuilds: list[str] = []
    live_rebuild = reports.rebuild

    def counted_rebuild(conn: Connection, now: str) -> None:
        rebuilds.append(now)
        live_rebuild(conn, now)

    monkeypatch.setattr(reports, "rebuild", counted_rebuild)
    with Store(path) as upgraded, upgraded.reader.connect() as conn:
        assert differences(schema_of(conn), expected.schema) == {}
        for table, rows in expected.rows.items():
            assert table_rows(conn, table) == rows, table
        assert conn.exec_driver_sql("SELECT * FROM facts ORDER BY fact_key").all() == expected.facts
        assert searched(conn, set(expected.search)) == expected.search
        assert conn.exec_driver_sql(
            "SELECT e.fact_key, v.embedding FROM fact_embeddings e "
            "JOIN fact_vectors v ON v.rowid = e.id"
        ).all() == [(EXCERPT_KEY, VECTOR)]
        # Rebuilt once, after the last step, where step 6 or 8 marked them stale; else kept.
        assert len(rebuilds) == (1 if schema.version < 8 else 0)
        for table in ROLLUPS:
            rolled = rollup(conn, table)
            assert [r | {"refreshed_at": None} for r in rolled] == [
                r | {"refreshed_at": None} for r in expected.rollups[table]
            ]
            assert {r["refreshed_at"] == THEN for r in rolled} == {schema.version >= 8}
        assert [r[0] for r in conn.exec_driver_sql("SELECT version FROM schema_migrations")] == (
            list(range(1, SCHEMA_VERSION + 1))
        )


def test_a_fresh_store_rebuilds_no_rollups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reports, "rebuild", lambda conn, now: pytest.fail("rebuilt"))
    with Store(tmp_path / "fresh.db") as fresh, fresh.reader.connect() as conn:
        assert ("table", "rollups_stale") not in schema_of(conn)
