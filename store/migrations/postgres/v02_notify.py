"""PostgreSQL schema 2: every write that changes what the app lists tells the open apps.

A statement that writes one of these tables sends NOTIFY memo_changed, its payload the
writing session's backend pid (so a process can tell its own writes from others'). One
notification per transaction and pid: PostgreSQL folds identical ones.

Frozen: literal DDL. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

NAME = "open apps told of writes (LISTEN/NOTIFY memo_changed)"

TABLES = (
    "captures decisions action_items excerpts context_notes digests people entity_aliases "
    "person_addresses clients projects concepts capture_people capture_projects sections "
    "changes email_messages agent_sessions fact_embeddings"
).split()

NOTIFY = """
CREATE FUNCTION memo_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('memo_changed', pg_backend_pid()::text);
    RETURN NULL;
END $$;
"""


def upgrade(conn: Connection) -> None:
    conn.exec_driver_sql(NOTIFY)
    for table in TABLES:
        conn.exec_driver_sql(
            f"CREATE TRIGGER {table}_notify AFTER INSERT OR UPDATE OR DELETE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION memo_notify()"
        )
