"""The store: engine pragmas, BEGIN IMMEDIATE, migrations, provenance, facts view, indexes."""

from __future__ import annotations

import importlib
import math
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy
from sqlalchemy import text
from support.db import PROV, new_capture, old_schema

from store import (
    FACT_TYPES,
    SCHEMA_VERSION,
    FactFilter,
    NewActionItem,
    NewDecision,
    NewExcerpt,
    Provenance,
    ProvenanceError,
    SchemaTooNewError,
    Store,
    VectorError,
)


def pragma(engine: sqlalchemy.Engine, name: str) -> object:
    with engine.connect() as conn:
        return conn.execute(text(f"PRAGMA {name}")).scalar()


def test_connections_have_wal_foreign_keys_busy_timeout_and_sqlite_vec(
    sqlite_store: Store,
) -> None:
    store = sqlite_store
    for engine in (store.writer, store.reader):
        assert pragma(engine, "journal_mode") == "wal"
        assert pragma(engine, "foreign_keys") == 1
        assert pragma(engine, "busy_timeout") == 5000
        with engine.connect() as conn:
            assert conn.execute(text("SELECT vec_version()")).scalar().startswith("v")


def test_only_the_writer_checkpoints(sqlite_store: Store) -> None:
    store = sqlite_store
    assert pragma(store.writer, "wal_autocheckpoint") == 1000
    assert pragma(store.reader, "wal_autocheckpoint") == 0
    with pytest.raises(sqlalchemy.exc.OperationalError), store.reader.begin() as conn:
        conn.execute(text("DELETE FROM captures"))  # readers are query-only


@pytest.mark.postgres
def test_on_postgres_writes_hold_one_lock_and_reads_see_a_snapshot() -> None:
    """The writer's transactions take memo's advisory lock first (SQLite's BEGIN IMMEDIATE,
    across machines); readers are read-only and see one snapshot per transaction."""
    from support.postgres import fresh_database

    from store.postgres import WRITING

    with Store(fresh_database()) as store:
        with store.writer.begin() as conn:
            held = conn.execute(
                text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")
            ).scalar()
            key = conn.execute(text("SELECT objid FROM pg_locks WHERE locktype = 'advisory'"))
            assert held == 1 and int(key.scalar_one()) == WRITING & 0xFFFFFFFF
        with pytest.raises(sqlalchemy.exc.InternalError), store.reader.begin() as conn:
            conn.execute(text("DELETE FROM captures"))  # readers are read-only
        with store.reader.begin() as conn:
            before = conn.execute(text("SELECT count(*) FROM people")).scalar()
            store.people.add("Ana")  # committed by the writer meanwhile
            assert conn.execute(text("SELECT count(*) FROM people")).scalar() == before
        with store.reader.begin() as conn:
            assert conn.execute(text("SELECT count(*) FROM people")).scalar() == 1


def test_write_transactions_begin_immediate(tmp_path: Path) -> None:
    """A write transaction takes the write lock at BEGIN: a second writer waits at BEGIN."""
    with Store(tmp_path / "a.db", busy_timeout_ms=100) as first:
        second = Store(tmp_path / "a.db", busy_timeout_ms=100).open()
        try:
            with first.writer.begin() as conn:
                conn.execute(text("SELECT count(*) FROM captures")).scalar()  # no write yet
                locked = pytest.raises(sqlalchemy.exc.OperationalError, match="locked")
                with locked, second.writer.begin():
                    pass  # BEGIN IMMEDIATE itself must wait for the first writer
        finally:
            second.close()


def test_concurrent_writers_all_commit(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    Store(path).open().close()
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        try:
            with Store(path, busy_timeout_ms=10_000) as mine:
                for i in range(10):
                    mine.captures.write(new_capture(f"w{worker}-{i}"))
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with Store(path) as check:
        assert check.stats().captures == 40
        assert check.integrity_check() == "ok"


def test_migrations_are_recorded_and_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    Store(path).open().close()
    with Store(path) as again:
        assert again.stats().schema_version == SCHEMA_VERSION
        with again.reader.connect() as conn:
            rows = conn.execute(text("SELECT version, name FROM schema_migrations")).all()
        assert [r[0] for r in rows] == list(range(1, SCHEMA_VERSION + 1))


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    with Store(path) as opened, opened.writer.begin() as conn:
        conn.exec_driver_sql(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNewError, match="upgrade memo"):
        Store(path).open()


def test_table_classes_match_the_migrated_schema(store: Store) -> None:
    """Every plain table has an SQLModel class (the typed query layer) naming the columns
    the migrations made, with the same primary key and the same NOT NULL columns (a default
    aside). Only FTS5's and vec0's tables and the migrations' own log have none."""
    from sqlmodel import SQLModel

    importlib.import_module("store.tables")  # declares the classes
    declared = SQLModel.metadata.tables
    with store.reader.connect() as conn:
        schema = sqlalchemy.inspect(conn)
        raw = ("facts_fts", "fact_vectors", "schema_migrations", "sqlite_")
        tables = [t for t in schema.get_table_names() if not t.startswith(raw)]
        assert set(tables) == set(declared)
        for name, table in declared.items():
            info = schema.get_columns(name)
            assert {c["name"] for c in info} == set(table.columns.keys()), name
            keys = set(schema.get_pk_constraint(name)["constrained_columns"])
            assert keys == {c.name for c in table.primary_key.columns}, name
            required = {
                c["name"]
                for c in info
                if not c["nullable"] and c["default"] is None and c["name"] not in keys
            }
            nullable = {c.name for c in table.columns if c.nullable and c.name in required}
            assert not nullable, f"{name}: NOT NULL in the schema, optional in the class"


def test_provenance_is_required_by_helper_and_by_the_database(store: Store) -> None:
    orphan = Provenance("meeting", "file:/x.txt", "2026-09-08T10:00:00+00:00")
    with pytest.raises(ProvenanceError, match="no provenance"):
        store.captures.write(new_capture(provenance=orphan))
    with pytest.raises(ProvenanceError):
        store.notes.add_digest("2026-09-01", "2026-09-07", "week", orphan)
    assert store.stats().captures == 0
    refused = pytest.raises(sqlalchemy.exc.IntegrityError, match="(?i)check")
    with refused, store.writer.begin() as c:
        c.execute(
            text(
                "INSERT INTO digests (period_start, period_end, body, source_type, source_id, "
                "captured_at) VALUES ('a', 'b', 'c', 'agent', 'x', 'now')"
            )
        )


def test_capture_writes_every_arm_and_the_fts_index(store: Store) -> None:
    written = store.captures.write(new_capture())
    store.notes.add_for_client("Halvorsen Freight", "Prefers email over calls.", PROV)
    store.notes.add_for_project("Atlas", "Cutover planned for October.", PROV, client="Northwind")
    store.notes.add_digest("2026-09-07", "2026-09-13", "Postgres chosen for Atlas.", PROV)
    stats = store.stats()
    assert set(stats.facts_by_type) == set(FACT_TYPES)
    assert all(count == 1 for count in stats.facts_by_type.values())
    assert stats.fts_rows == 7
    decision = store.facts.all(fact_type="decision")[0]
    assert decision.fact_id == written.decisions[0].id
    assert decision.text.startswith("Use Postgres Reasoning: JSONB and PostGIS")
    assert (decision.line_start, decision.line_end) == (1, 2)
    assert (decision.source_type, decision.source_id) == ("meeting", "file:/x.txt")
    assert [key for key, _ in store.search.keyword("postgis", FactFilter(), 10)] == [
        decision.fact_key
    ]


def test_a_failed_transaction_leaves_no_rows_and_no_index_entries(store: Store) -> None:
    from store import captures as capture_sql

    with pytest.raises(RuntimeError), store.writer.begin() as conn:
        capture_sql.write_capture(conn, new_capture(), None)
        raise RuntimeError("crash after the rows were written")
    stats = store.stats()
    assert stats.captures == 0 and stats.fts_rows == 0


def test_replace_swaps_facts_and_reindexes_in_place(store: Store) -> None:
    first = store.captures.write(new_capture())
    key = (1 << 32) | first.decisions[0].id
    store.vectors.put(key, [0.1] * 384, "test-model", "hash")
    replacement = new_capture(
        "h2", decisions=[NewDecision("Use MySQL", None, "Sam", 2, 2, "b")], action_items=[]
    )
    again = store.captures.write(replacement, replace_id=first.capture_id)
    assert again.capture_id == first.capture_id
    stats = store.stats()
    assert stats.captures == 1 and stats.vectors == 0  # the old fact's vector went with it
    assert [f.text for f in store.facts.all(fact_type="decision")] == ["Use MySQL (decided by Sam)"]
    assert stats.fts_rows == sum(stats.facts_by_type.values())


def test_vectors_replace_by_delete_then_insert_and_refuse_bad_input(store: Store) -> None:
    written = store.captures.write(new_capture())
    key = (1 << 32) | written.decisions[0].id
    store.vectors.put(key, [0.1] * 384, "test-model", "h")
    store.vectors.put(key, [0.2] * 384, "test-model", "h2")  # the same key again
    assert store.stats().vectors == 1
    assert store.stats().embedding_model == "test-model"
    for bad in ([math.nan] * 384, [math.inf] + [0.0] * 383):
        with pytest.raises(VectorError, match="NaN or infinity"):
            store.vectors.put(key, bad, "test-model", "h")
    with pytest.raises(VectorError, match="dimensions"):
        store.vectors.put(key, [0.1] * 10, "test-model", "h")
    with pytest.raises(VectorError, match="refusing to mix"):
        store.vectors.put(key, [0.1] * 384, "other-model", "h")


def test_records_are_plain_dataclasses_not_orm_rows(store: Store) -> None:
    from sqlmodel import SQLModel

    written = store.captures.write(new_capture())
    for record in [written, *written.decisions, *written.action_items, *store.facts.all()]:
        assert not isinstance(record, SQLModel)
        assert hasattr(record, "__dataclass_fields__")


def test_each_area_is_a_repository_on_the_store(store: Store) -> None:
    written = store.captures.write(new_capture())
    other = store.captures.write(new_capture("h2"))
    ids = [written.capture_id, other.capture_id]
    assert store.captures.items(ids) == (
        store.captures.decisions(ids),
        store.captures.action_items(ids),
    )
    assert len(store.captures.items(ids)[0]) == 2 and store.captures.items([999]) == ([], [])
    with store.atomically():  # a repository's write joins the thread's transaction
        store.people.add("Ana Lima")
        store.notes.add_for_client("Northwind", "Likes short calls.", PROV)
        assert store.people.all() == []  # a read takes another connection: not yet committed
    assert [p.name for p in store.people.all()] == ["Ana Lima"]


def test_facts_filter_by_type_and_since(store: Store) -> None:
    store.captures.write(new_capture("old", occurred_at="2026-01-05"))
    store.captures.write(new_capture("new", occurred_at="2026-09-08"))
    assert len(store.facts.all(fact_type="decision")) == 2
    recent = store.facts.all(since="2026-06-01")
    assert {f.occurred_at for f in recent} == {"2026-09-08"}


def test_the_store_opens_once_and_only_when_first_used(tmp_path: Path) -> None:
    store = Store(tmp_path / "lazy" / "memo.db")
    assert not store.path.exists()
    writer = store.writer
    assert store.path.exists()
    assert store.open().writer is writer  # opening again changes nothing
    store.close()
    store.close()  # closing twice is fine


def test_migration_4_gives_vectors_small_ids_so_vec0_filters_hold(tmp_path: Path) -> None:
    """sqlite-vec 0.1.9 compares 32 bits of a rowid in a KNN filter: with fact keys as rowids
    a decisions-only search returned excerpts. A schema-3 store with vectors is migrated."""
    import struct

    from store import FactFilter, captures

    path = tmp_path / "old.db"
    with old_schema(path, 3) as conn:
        captures.insert_capture(conn, new_capture(), None)
        keys = [int(k) for (k,) in conn.exec_driver_sql("SELECT fact_key FROM facts").all()]
        conn.exec_driver_sql("UPDATE embedding_space SET model = 'm'")
        for key in keys:  # as schema 3 stored them: the fact key is the vec0 rowid
            vector = [1.0] + [0.0] * 383 if key >> 32 == 1 else [1.0, 0.5] + [0.0] * 382
            conn.exec_driver_sql(
                "INSERT INTO fact_vectors (rowid, embedding) VALUES (?, ?)",
                (key, struct.pack("384f", *vector)),
            )
            conn.exec_driver_sql(
                "INSERT INTO fact_embeddings VALUES (?, 'h', 'm', datetime('now'))", (key,)
            )

    with Store(path) as store:
        assert store.stats().schema_version == SCHEMA_VERSION
        with store.reader.connect() as conn:
            rowids = [r for (r,) in conn.execute(text("SELECT rowid FROM fact_vectors"))]
        assert len(rowids) == len(keys) and max(rowids) < 2**32
        query = [1.0, 0.5] + [0.0] * 382  # nearer the excerpt and summary than the decision
        found = store.search.vector(query, FactFilter(fact_types=("decision",)), 5, -1.0)
        assert [key >> 32 for key, _ in found] == [1]
        assert {key for key, _ in store.search.vector(query, FactFilter(), 10, -1.0)} == set(keys)
        store.captures.write(new_capture(summary="Changed."), replace_id=1)  # triggers still work
        with store.reader.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM fact_vectors")).scalar_one() == 0
            assert conn.execute(text("SELECT count(*) FROM fact_embeddings")).scalar_one() == 0


def test_migration_10_marks_ticked_off_items_in_their_fact_text(tmp_path: Path) -> None:
    """Answers read a fact's text: before schema 10 an item ticked off in the meeting read as
    still owed. A schema-9 store with vectors is migrated; only the finished item changes."""
    from store import FactFilter, captures, vectors

    path = tmp_path / "old.db"
    with old_schema(path, 9) as conn:
        items = [
            NewActionItem("Set up staging", "Tom", "2026-09-15", 3, 3, "c", status="done"),
            NewActionItem("Write the runbook", "Tom", None, 3, 3, "c"),
        ]
        captures.insert_capture(conn, new_capture(action_items=items), None)
        old = {
            fact_id: (key, body)
            for key, fact_id, body in conn.exec_driver_sql(
                "SELECT fact_key, fact_id, text FROM facts WHERE fact_type = 'action_item'"
            )
        }
        vectors.set_embedding_space(conn, "m", 384)
        for (key,) in conn.exec_driver_sql("SELECT fact_key FROM facts").all():
            vectors.put_embedding(conn, key, [1.0] + [0.0] * 383, "m", f"h{key}")
    assert old[1][1] == "Set up staging (owner: Tom) (due 2026-09-15)"

    with Store(path) as store:
        assert store.stats().schema_version == SCHEMA_VERSION
        rows = {r.fact_id: r for r in store.facts.page(FactFilter(fact_types=("action_item",)), 9)}
        assert rows[1].text == "Set up staging (owner: Tom) (due 2026-09-15) (done)"
        assert rows[2].text == old[2][1] == "Write the runbook (owner: Tom)"
        assert [k for k, _ in store.search.keyword("done", FactFilter(), 5)] == [old[1][0]]
        without = {key for key, _ in store.vectors.missing(50)}
        assert without == {old[1][0]}  # embedded again at the next backfill; the rest kept
        with store.writer.begin() as conn:  # a later change of status re-indexes too
            conn.exec_driver_sql("UPDATE action_items SET status = 'done' WHERE id = 2")
        found = {k for k, _ in store.search.keyword("done", FactFilter(), 5)}
        assert found == {old[1][0], old[2][0]}


def test_migration_12_reads_deciders_and_owners_as_their_people(tmp_path: Path) -> None:
    """A schema-11 store's facts said "(owner: Tom)" though Tom was settled as Tom Adeyemi:
    migrated, they say the person; an unsettled name stays as said; renaming a person
    re-indexes their facts."""
    from store import FactFilter, captures

    path = tmp_path / "old.db"
    with old_schema(path, 11) as conn:
        new = new_capture(
            new_people=("Tom Adeyemi", "Priya Natarajan"),
            decisions=[
                NewDecision("Use Postgres", None, "Priya", 1, 2, "a", person="Priya Natarajan")
            ],
            action_items=[
                NewActionItem("Set up staging", "Tom", None, 3, 3, "c", person="Tom Adeyemi"),
                NewActionItem("Write the runbook", "Sam", None, 3, 3, "c", pending=True),
            ],
        )
        captures.insert_capture(conn, new, None)
        said = [r[0] for r in conn.exec_driver_sql("SELECT text FROM facts ORDER BY fact_key")]
    assert "Set up staging (owner: Tom)" in said

    with Store(path) as store:
        assert store.stats().schema_version == SCHEMA_VERSION
        texts = {f.text for f in store.facts.page(FactFilter(), 20)}
        assert {
            "Use Postgres (decided by Priya Natarajan)",
            "Set up staging (owner: Tom Adeyemi)",
        } <= texts
        assert "Write the runbook (owner: Sam)" in texts
        assert len(store.search.keyword("Adeyemi", FactFilter(), 5)) == 1
        with store.writer.begin() as conn:
            conn.exec_driver_sql(
                "UPDATE people SET name = 'Tomas Adeyemi' WHERE name = 'Tom Adeyemi'"
            )
        assert len(store.search.keyword("Tomas", FactFilter(), 5)) == 1


def test_keyword_search_leaves_out_words_most_facts_hold_when_rarer_ones_are_asked(
    tmp_path: Path,
) -> None:
    """A word in over 10% of a large store ranks nothing and makes FTS5 score every fact that
    holds it: it is left out, unless the query has nothing rarer."""
    from store.search import COMMON_FROM, COMMON_SHARE

    count = COMMON_FROM + 500
    common_every = int(1 / COMMON_SHARE) - 5  # in about 1 fact in 5
    texts = [
        " ".join(
            ["budget" if n % common_every == 0 else "", "quarterly" if n % 40 == 0 else "", f"t{n}"]
        )
        for n in range(count)
    ]
    with Store(tmp_path / "m.db") as store:
        store.captures.write(
            new_capture(
                excerpts=[NewExcerpt(1, 1, t) for t in texts], decisions=[], action_items=[]
            )
        )
        found = {k for k, _ in store.search.keyword("budget quarterly", FactFilter(), 500)}
        by_text = {f.fact_key: f.text for f in store.facts.all(fact_type="excerpt")}
        assert found and all("quarterly" in by_text[k] for k in found)  # not "budget" alone
        alone = store.search.keyword("budget", FactFilter(), 500)  # nothing rarer: kept
        assert len(alone) == 500 and all("budget" in by_text[k] for k, _ in alone)
        misspelt = store.search.keyword("budget quartrely", FactFilter(), 500)  # found nowhere
        assert len(misspelt) == 500 and all("budget" in by_text[k] for k, _ in misspelt)
        other = store.captures.write(
            new_capture("h2", excerpts=[NewExcerpt(1, 1, "budget only")], decisions=[])
        )
        only_there = FactFilter(capture_ids=(other.capture_id,))  # "quarterly" is not there
        assert len(store.search.keyword("budget quarterly", only_there, 10)) == 1
    with Store(tmp_path / "small.db") as store:  # a small store: every word is cheap
        store.captures.write(
            new_capture(
                excerpts=[NewExcerpt(1, 1, t) for t in texts[:200]], decisions=[], action_items=[]
            )
        )
        small = {k for k, _ in store.search.keyword("budget quarterly", FactFilter(), 500)}
        by_text = {f.fact_key: f.text for f in store.facts.all(fact_type="excerpt")}
        assert any("quarterly" not in by_text[k] for k in small)


@pytest.mark.postgres
def test_on_postgres_an_open_store_hears_of_other_writes_not_its_own() -> None:
    """data_version on a team store: NOTIFY memo_changed from other sessions moves it, once
    a transaction; this process's own writes (shown already) do not."""
    from support.postgres import fresh_database

    url = fresh_database()

    def heard(store: Store, least: int) -> int:
        """The version once it has reached `least` (notifications arrive a moment after the
        commit: the app's next tick reads them), or as it is after 10 s."""
        deadline = time.monotonic() + 10
        while (now := store.data_version()) < least and time.monotonic() < deadline:
            time.sleep(0.02)
        return now

    with Store(url) as app, Store(url) as other:
        seen = app.data_version()
        app.people.add("Ana")  # its own write, told first
        other.people.add("Ben")  # then another process's
        assert heard(app, seen + 1) == seen + 1  # only the other's counted
        with other.writer.begin() as conn:  # a transaction of two writes: told once
            conn.execute(text("INSERT INTO clients (name, created_at) VALUES ('A', 'x')"))
            conn.execute(text("INSERT INTO clients (name, created_at) VALUES ('B', 'x')"))
        app.people.add("Dee")  # its own again
        other.people.add("Cy")
        assert heard(app, seen + 3) == seen + 3  # (the last told after the others)
        time.sleep(0.3)  # any own write counted by mistake would have been read by now
        assert app.data_version() == seen + 3


@pytest.mark.postgres
def test_on_postgres_a_key_is_held_against_other_processes_and_machines() -> None:
    """An agent's lock key, held through the server: another session waits for it; another
    key does not."""
    from support.postgres import fresh_database

    url = fresh_database()
    order: list[str] = []
    with Store(url) as here, Store(url) as there:
        taken = threading.Event()

        def other() -> None:
            taken.wait(5)
            with there.key_held("project_compile:project:1"):
                order.append("there")

        waiting = threading.Thread(target=other)
        waiting.start()
        with here.key_held("project_compile:project:1"):
            taken.set()
            with there.key_held("project_compile:project:2"):  # another key: no wait
                order.append("other key")
            waiting.join(0.5)
            assert waiting.is_alive()  # still waiting for the key
            order.append("here")
        waiting.join(5)
    assert order == ["other key", "here", "there"]
