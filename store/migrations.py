"""Schema versioning: ordered migrations, each a plain function, applied in one transaction."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator

import sqlean
from sqlalchemy import Connection, Engine

from store import schema_v1
from store.errors import SchemaTooNewError


def split_sql(script: str) -> Iterator[str]:
    """Split a script into complete statements (trigger bodies contain semicolons)."""
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if buffer.rstrip().endswith(";") and sqlean.complete_statement(buffer):
            statement = buffer.strip()
            buffer = ""
            if statement:
                yield statement
    if buffer.strip():
        raise ValueError(f"incomplete SQL statement: {buffer.strip()[:80]}")


def _run(conn: Connection, script: str) -> None:
    for statement in split_sql(script):
        conn.exec_driver_sql(statement)


def _v1_initial(conn: Connection) -> None:
    _run(conn, schema_v1.TABLES)
    _run(conn, schema_v1.FACTS_VIEW)
    _run(conn, schema_v1.SEARCH_INDEXES)
    _run(conn, schema_v1.index_triggers())


def _v2_embedding_cache(conn: Connection) -> None:
    _run(
        conn,
        """
CREATE TABLE embedding_cache (
    content_hash TEXT NOT NULL,
    model TEXT NOT NULL,
    embedding BLOB NOT NULL,
    PRIMARY KEY (content_hash, model)
);
""",
    )


def _v3_people_links(conn: Connection) -> None:
    """Who decided is linked like who owes; meetings know who attended."""
    _run(
        conn,
        """
ALTER TABLE decisions ADD COLUMN person_id INTEGER REFERENCES people(id) ON DELETE SET NULL;
ALTER TABLE decisions ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
CREATE INDEX decisions_person ON decisions(person_id);
CREATE INDEX decisions_pending ON decisions(decided_by) WHERE pending = 1;
CREATE INDEX action_items_pending ON action_items(assignee_raw) WHERE pending = 1;
CREATE INDEX people_name ON people(name COLLATE NOCASE);
CREATE TABLE capture_people (
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    PRIMARY KEY (capture_id, person_id)
);
CREATE INDEX capture_people_person ON capture_people(person_id);
""",
    )


def _v4_compact_vector_ids(conn: Connection) -> None:
    """vec0 rowids become small ids, and a counter tracks vector changes.

    sqlite-vec 0.1.9 compares only the low 32 bits of rowids in a KNN query's `rowid IN`
    filter, so with fact keys ((arm << 32) | id) as rowids a filtered vector search returned
    facts of other arms. Each vector's rowid is now its fact_embeddings id. The epoch moves
    whenever a vector comes or goes, so an in-process copy of the vectors knows it is stale.
    """
    triggers = conn.exec_driver_sql(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' "
        "AND (name LIKE '%\\_ai' ESCAPE '\\' OR name LIKE '%\\_au' ESCAPE '\\' "
        "OR name LIKE '%\\_ad' ESCAPE '\\')"
    ).all()
    for (name,) in triggers:
        conn.exec_driver_sql(f'DROP TRIGGER "{name}"')
    dim = int(conn.exec_driver_sql("SELECT dim FROM embedding_space WHERE id = 1").scalar_one())
    _run(
        conn,
        f"""
CREATE TABLE fact_embeddings_v4 (
    id INTEGER PRIMARY KEY,
    fact_key INTEGER NOT NULL UNIQUE,
    content_hash TEXT NOT NULL,
    model TEXT NOT NULL,
    embedded_at TEXT NOT NULL
);
INSERT INTO fact_embeddings_v4 (fact_key, content_hash, model, embedded_at)
    SELECT fact_key, content_hash, model, embedded_at FROM fact_embeddings ORDER BY fact_key;
CREATE TEMP TABLE moved_vectors AS
    SELECT e.id AS id, v.embedding AS embedding
    FROM fact_vectors v JOIN fact_embeddings_v4 e ON e.fact_key = v.rowid;
DROP TABLE fact_vectors;
CREATE VIRTUAL TABLE fact_vectors USING vec0(embedding float[{dim}] distance_metric=cosine);
INSERT INTO fact_vectors (rowid, embedding) SELECT id, embedding FROM moved_vectors;
DROP TABLE moved_vectors;
DELETE FROM fact_embeddings_v4 WHERE id NOT IN (SELECT rowid FROM fact_vectors);
DROP TABLE fact_embeddings;
ALTER TABLE fact_embeddings_v4 RENAME TO fact_embeddings;
ALTER TABLE embedding_space ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER fact_embeddings_epoch_ai AFTER INSERT ON fact_embeddings BEGIN
    UPDATE embedding_space SET epoch = epoch + 1 WHERE id = 1;
END;
CREATE TRIGGER fact_embeddings_epoch_ad AFTER DELETE ON fact_embeddings BEGIN
    UPDATE embedding_space SET epoch = epoch + 1 WHERE id = 1;
END;
""",
    )
    _run(conn, schema_v1.index_triggers(compact_vectors=True))


def _v5_resumable_runs(conn: Connection) -> None:
    """An agent run keeps its spec and each step the model's turn, so it can be resumed."""
    _run(
        conn,
        """
ALTER TABLE agent_sessions ADD COLUMN spec_json TEXT NOT NULL DEFAULT '{}';
ALTER TABLE agent_steps ADD COLUMN message_json TEXT;
CREATE INDEX agent_tool_calls_step ON agent_tool_calls(step_id);
CREATE INDEX agent_decisions_session ON agent_decisions(session_id);
""",
    )


def _v6_rollups_kept(conn: Connection) -> None:
    """The rollups are now rebuilt with every write that changes them: fill them once from
    what is stored (they were only rebuilt after agent runs before)."""
    from store import reports

    reports.rebuild(conn, _now(), mail=False)  # the email columns come with version 8


def _v7_email(conn: Connection) -> None:
    """Email: each message once (by Message-ID), its thread, and the capture the thread
    became; newsletters and other bulk mail are kept, with why, but never captured."""
    _run(
        conn,
        """
CREATE TABLE email_messages (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    thread_key TEXT NOT NULL,
    capture_id INTEGER REFERENCES captures(id) ON DELETE SET NULL,
    sent_at TEXT,
    subject TEXT NOT NULL,
    sender_name TEXT NOT NULL,
    sender_address TEXT NOT NULL,
    recipients_json TEXT NOT NULL,
    refs_json TEXT NOT NULL,
    body TEXT NOT NULL,
    bulk_reason TEXT,
    list_id TEXT NOT NULL DEFAULT '',
    unsubscribe TEXT NOT NULL DEFAULT '',
    source_path TEXT,
    imported_at TEXT NOT NULL
);
CREATE INDEX email_messages_thread ON email_messages(thread_key);
CREATE INDEX email_messages_capture ON email_messages(capture_id);
CREATE INDEX email_messages_sender ON email_messages(sender_address);
""",
    )


def _v8_addresses(conn: Connection) -> None:
    """Email addresses belong to people (or are proposed for one); the people rollup
    counts each person's mail."""
    _run(
        conn,
        """
CREATE TABLE person_addresses (
    address TEXT PRIMARY KEY,
    person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
    proposed_person_id INTEGER REFERENCES people(id) ON DELETE SET NULL,
    display_name TEXT NOT NULL DEFAULT '',
    settled INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE INDEX person_addresses_person ON person_addresses(person_id);
ALTER TABLE people_report ADD COLUMN emails_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE people_report ADD COLUMN messages_sent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE people_report ADD COLUMN messages_received INTEGER NOT NULL DEFAULT 0;
ALTER TABLE people_report ADD COLUMN first_contact TEXT;
ALTER TABLE people_report ADD COLUMN last_contact TEXT;
ALTER TABLE people_report ADD COLUMN correspondents_json TEXT NOT NULL DEFAULT '[]';
""",
    )
    from store import reports

    reports.rebuild(conn, _now())


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


def _v9_concepts(conn: Connection) -> None:
    """Concepts the user names; their living documents are sections like a project's."""
    _run(
        conn,
        """
CREATE TABLE concepts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at TEXT NOT NULL
);
""",
    )


def _v10_done_items_say_so(conn: Connection) -> None:
    """A ticked-off action item's fact text ends "(done)" (or "(dropped)"): search, answers
    and agents read the text, and quoted an item finished months ago as still owed. Those
    items are re-indexed now; their vectors go, so the next backfill embeds the new text."""
    conn.exec_driver_sql("DROP VIEW facts")
    _run(conn, schema_v1.FACTS_VIEW_V10)
    for kind in ("ai", "au", "ad"):
        conn.exec_driver_sql(f"DROP TRIGGER action_items_action_item_{kind}")
    _run(conn, schema_v1.action_item_triggers())
    # The update trigger forgets the old text, index and vector, and indexes the view's.
    conn.exec_driver_sql("UPDATE action_items SET status = status WHERE status != 'open'")


def _v11_side_channels(conn: Connection) -> None:
    """A meeting's chat log, captured from the file saved beside its transcript, points at
    the meeting it was the side channel of (deleting the meeting unlinks it)."""
    _run(
        conn,
        """
ALTER TABLE captures ADD COLUMN channel_of INTEGER;
CREATE INDEX captures_channel ON captures(channel_of);
""",
    )


MIGRATIONS: list[tuple[str, Callable[[Connection], None]]] = [
    ("initial schema", _v1_initial),
    ("embedding cache by content hash", _v2_embedding_cache),
    ("people linked to decisions and meetings", _v3_people_links),
    ("compact vector ids and a vector epoch", _v4_compact_vector_ids),
    ("resumable agent runs: spec and step messages", _v5_resumable_runs),
    ("rollups kept with every write", _v6_rollups_kept),
    ("email messages, threads and newsletters", _v7_email),
    ("email addresses of people; mail in the people rollup", _v8_addresses),
    ("concepts", _v9_concepts),
    ("ticked-off action items say so in their fact text", _v10_done_items_say_so),
    ("a meeting's chat log is its side channel", _v11_side_channels),
]

SCHEMA_VERSION = len(MIGRATIONS)


def current_version(conn: Connection) -> int:
    """The schema version recorded in the database file."""
    return int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())


def migrate(engine: Engine) -> int:
    """Bring the database up to SCHEMA_VERSION; all pending steps commit together or not at all."""
    with engine.begin() as conn:
        version = current_version(conn)
        if version > SCHEMA_VERSION:
            raise SchemaTooNewError(
                f"this database has schema version {version}, but this memo knows only up to "
                f"{SCHEMA_VERSION}: upgrade memo (pip install -U memo-tui) to open it"
            )
        if version == 0:
            conn.exec_driver_sql(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
        for number in range(version + 1, SCHEMA_VERSION + 1):
            name, step = MIGRATIONS[number - 1]
            step(conn)
            conn.exec_driver_sql(
                "INSERT INTO schema_migrations (version, name, applied_at) "
                "VALUES (?, ?, datetime('now'))",
                (number, name),
            )
            conn.exec_driver_sql(f"PRAGMA user_version = {number}")
        return SCHEMA_VERSION
