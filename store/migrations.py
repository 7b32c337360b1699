"""Schema versioning: ordered migrations, each a plain function, applied in one transaction."""

from __future__ import annotations

import datetime as dt
import re
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


def _v12_settled_names(conn: Connection) -> None:
    """A decision's decider and an action item's owner read as the person once settled
    ("(owner: Sam Okafor)", not "(owner: Sam)"): the facts view joins people, and a change
    of person or of a person's name re-indexes their facts. Facts with a person now are
    re-indexed; their vectors go, so the next backfill embeds the new text."""
    conn.exec_driver_sql("DROP VIEW facts")
    _run(
        conn,
        """CREATE VIEW facts AS
SELECT (1 << 32) | d.id AS fact_key, 'decision' AS fact_type, d.id AS fact_id,
       d.description || CASE WHEN coalesce(d.reasoning, '') = '' THEN ''
                             ELSE ' Reasoning: ' || d.reasoning END
       || CASE WHEN coalesce(pd.name, d.decided_by, '') = '' THEN ''
               ELSE ' (decided by ' || coalesce(pd.name, d.decided_by) || ')' END AS text,
       d.capture_id, c.title AS capture_title, c.occurred_at, d.captured_at,
       d.source_type, d.source_id, d.line_start, d.line_end,
       d.triggered_by_user, d.triggered_by_agent
FROM decisions d JOIN captures c ON c.id = d.capture_id
LEFT JOIN people pd ON pd.id = d.person_id
UNION ALL
SELECT (2 << 32) | a.id, 'action_item', a.id,
       a.description
       || CASE WHEN coalesce(pa.name, a.assignee_raw, '') = '' THEN ''
               ELSE ' (owner: ' || coalesce(pa.name, a.assignee_raw) || ')' END
       || CASE WHEN a.due_date IS NULL THEN '' ELSE ' (due ' || a.due_date || ')' END
       || CASE a.status WHEN 'done' THEN ' (done)' WHEN 'dropped' THEN ' (dropped)' ELSE '' END,
       a.capture_id, c.title, c.occurred_at, a.captured_at,
       a.source_type, a.source_id, a.line_start, a.line_end,
       a.triggered_by_user, a.triggered_by_agent
FROM action_items a JOIN captures c ON c.id = a.capture_id
LEFT JOIN people pa ON pa.id = a.person_id
UNION ALL
SELECT (3 << 32) | c.id, 'summary', c.id, c.summary,
       c.id, c.title, c.occurred_at, c.captured_at,
       c.source_type, c.source_id, 1, c.line_count,
       c.triggered_by_user, c.triggered_by_agent
FROM captures c WHERE c.summary IS NOT NULL AND c.summary != ''
UNION ALL
SELECT (4 << 32) | e.id, 'excerpt', e.id, e.text,
       e.capture_id, c.title, c.occurred_at, e.captured_at,
       e.source_type, e.source_id, e.line_start, e.line_end,
       e.triggered_by_user, e.triggered_by_agent
FROM excerpts e JOIN captures c ON c.id = e.capture_id
UNION ALL
SELECT (5 << 32) | n.id, 'client_note', n.id, cl.name || ': ' || n.body,
       NULL, NULL, NULL, n.captured_at,
       n.source_type, n.source_id, NULL, NULL,
       n.triggered_by_user, n.triggered_by_agent
FROM context_notes n JOIN clients cl ON cl.id = n.client_id WHERE n.kind = 'client'
UNION ALL
SELECT (6 << 32) | n.id, 'project_note', n.id, p.name || ': ' || n.body,
       NULL, NULL, NULL, n.captured_at,
       n.source_type, n.source_id, NULL, NULL,
       n.triggered_by_user, n.triggered_by_agent
FROM context_notes n JOIN projects p ON p.id = n.project_id WHERE n.kind = 'project'
UNION ALL
SELECT (7 << 32) | g.id, 'digest', g.id, g.body,
       NULL, NULL, NULL, g.captured_at,
       g.source_type, g.source_id, NULL, NULL,
       g.triggered_by_user, g.triggered_by_agent
FROM digests g;

DROP TRIGGER decisions_decision_au;
CREATE TRIGGER decisions_decision_au
AFTER UPDATE OF description, reasoning, decided_by, person_id ON decisions BEGIN
    DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id);
    DELETE FROM fact_vectors WHERE rowid =
        (SELECT id FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id));
    DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts
    WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
DROP TRIGGER action_items_action_item_au;
CREATE TRIGGER action_items_action_item_au
AFTER UPDATE OF description, assignee_raw, due_date, status, person_id ON action_items BEGIN
    DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id);
    DELETE FROM fact_vectors WHERE rowid =
        (SELECT id FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id));
    DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts
    WHERE fact_type = 'action_item' AND fact_id = NEW.id;
END;
CREATE TRIGGER people_name_au AFTER UPDATE OF name ON people BEGIN
    UPDATE decisions SET person_id = person_id WHERE person_id = NEW.id;
    UPDATE action_items SET person_id = person_id WHERE person_id = NEW.id;
END;
""",
    )
    conn.exec_driver_sql("UPDATE decisions SET person_id = person_id WHERE person_id IS NOT NULL")
    conn.exec_driver_sql(
        "UPDATE action_items SET person_id = person_id WHERE person_id IS NOT NULL"
    )


def _v13_person_merges(conn: Connection) -> None:
    """Merging two people remembers what it moved, so a split can put it back."""
    _run(
        conn,
        """
CREATE TABLE person_merges (
    id INTEGER PRIMARY KEY,
    kept_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    merged_name TEXT NOT NULL,
    merged_email TEXT,
    merged_created_at TEXT NOT NULL,
    moved_json TEXT NOT NULL,
    merged_at TEXT NOT NULL,
    merged_by TEXT NOT NULL,
    split_at TEXT
);
CREATE INDEX person_merges_kept ON person_merges(kept_id);
""",
    )


def _v14_decision_status(conn: Connection) -> None:
    """A decision is current, superseded (a later decision replaced it: kept as history, with
    a link to the one that holds) or retracted; its fact text says which it is."""
    _run(
        conn,
        """
ALTER TABLE decisions ADD COLUMN status TEXT NOT NULL DEFAULT 'current'
    CHECK (status IN ('current', 'superseded', 'retracted'));
ALTER TABLE decisions ADD COLUMN superseded_by INTEGER REFERENCES decisions(id) ON DELETE SET NULL;
CREATE INDEX decisions_superseded_by ON decisions(superseded_by);
""",
    )
    conn.exec_driver_sql("DROP VIEW IF EXISTS facts")
    _run(
        conn,
        """CREATE VIEW facts AS
SELECT (1 << 32) | d.id AS fact_key, 'decision' AS fact_type, d.id AS fact_id,
       d.description || CASE WHEN coalesce(d.reasoning, '') = '' THEN ''
                             ELSE ' Reasoning: ' || d.reasoning END
       || CASE WHEN coalesce(pd.name, d.decided_by, '') = '' THEN ''
               ELSE ' (decided by ' || coalesce(pd.name, d.decided_by) || ')' END
       || CASE d.status WHEN 'superseded' THEN ' (superseded)'
                        WHEN 'retracted' THEN ' (retracted)' ELSE '' END AS text,
       d.capture_id, c.title AS capture_title, c.occurred_at, d.captured_at,
       d.source_type, d.source_id, d.line_start, d.line_end,
       d.triggered_by_user, d.triggered_by_agent
FROM decisions d JOIN captures c ON c.id = d.capture_id
LEFT JOIN people pd ON pd.id = d.person_id
UNION ALL
SELECT (2 << 32) | a.id, 'action_item', a.id,
       a.description
       || CASE WHEN coalesce(pa.name, a.assignee_raw, '') = '' THEN ''
               ELSE ' (owner: ' || coalesce(pa.name, a.assignee_raw) || ')' END
       || CASE WHEN a.due_date IS NULL THEN '' ELSE ' (due ' || a.due_date || ')' END
       || CASE a.status WHEN 'done' THEN ' (done)' WHEN 'dropped' THEN ' (dropped)' ELSE '' END,
       a.capture_id, c.title, c.occurred_at, a.captured_at,
       a.source_type, a.source_id, a.line_start, a.line_end,
       a.triggered_by_user, a.triggered_by_agent
FROM action_items a JOIN captures c ON c.id = a.capture_id
LEFT JOIN people pa ON pa.id = a.person_id
UNION ALL
SELECT (3 << 32) | c.id, 'summary', c.id, c.summary,
       c.id, c.title, c.occurred_at, c.captured_at,
       c.source_type, c.source_id, 1, c.line_count,
       c.triggered_by_user, c.triggered_by_agent
FROM captures c WHERE c.summary IS NOT NULL AND c.summary != ''
UNION ALL
SELECT (4 << 32) | e.id, 'excerpt', e.id, e.text,
       e.capture_id, c.title, c.occurred_at, e.captured_at,
       e.source_type, e.source_id, e.line_start, e.line_end,
       e.triggered_by_user, e.triggered_by_agent
FROM excerpts e JOIN captures c ON c.id = e.capture_id
UNION ALL
SELECT (5 << 32) | n.id, 'client_note', n.id, cl.name || ': ' || n.body,
       NULL, NULL, NULL, n.captured_at,
       n.source_type, n.source_id, NULL, NULL,
       n.triggered_by_user, n.triggered_by_agent
FROM context_notes n JOIN clients cl ON cl.id = n.client_id WHERE n.kind = 'client'
UNION ALL
SELECT (6 << 32) | n.id, 'project_note', n.id, p.name || ': ' || n.body,
       NULL, NULL, NULL, n.captured_at,
       n.source_type, n.source_id, NULL, NULL,
       n.triggered_by_user, n.triggered_by_agent
FROM context_notes n JOIN projects p ON p.id = n.project_id WHERE n.kind = 'project'
UNION ALL
SELECT (7 << 32) | g.id, 'digest', g.id, g.body,
       NULL, NULL, NULL, g.captured_at,
       g.source_type, g.source_id, NULL, NULL,
       g.triggered_by_user, g.triggered_by_agent
FROM digests g;
""",
    )
    _run(
        conn,
        """
DROP TRIGGER decisions_decision_au;
CREATE TRIGGER decisions_decision_au
AFTER UPDATE OF description, reasoning, decided_by, person_id, status ON decisions BEGIN
    DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id);
    DELETE FROM fact_vectors WHERE rowid =
        (SELECT id FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id));
    DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts
    WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
""",
    )


def _v15_changes(conn: Connection) -> None:
    """What a decision is about (its subject words, for finding the later decision that
    replaces it, and searched with it: "Let's bring it back to forty." is found by "robots"
    when the turn before it said robots; the words are indexed, not shown), and changes
    found across meetings: a decision superseded by a later one, an
    action item closed by later evidence. A strong change is applied with a note and can be
    undone; a weak one waits, proposed, for the user. Deleting the evidence (its meeting or its
    decision) takes an applied change back."""
    _run(
        conn,
        """
ALTER TABLE decisions ADD COLUMN subject TEXT NOT NULL DEFAULT '';
CREATE TABLE changes (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('supersedes', 'closes')),
    old_decision_id INTEGER REFERENCES decisions(id) ON DELETE CASCADE,
    old_item_id INTEGER REFERENCES action_items(id) ON DELETE CASCADE,
    new_decision_id INTEGER REFERENCES decisions(id) ON DELETE CASCADE,
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    line_start INTEGER,
    line_end INTEGER,
    evidence TEXT NOT NULL,
    reason TEXT NOT NULL,
    strength TEXT NOT NULL CHECK (strength IN ('strong', 'weak')),
    status TEXT NOT NULL CHECK (status IN ('applied', 'proposed', 'rejected', 'undone')),
    previous_status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    decided_at TEXT,
    decided_by TEXT,
    CHECK ((kind = 'supersedes' AND old_decision_id IS NOT NULL AND new_decision_id IS NOT NULL)
        OR (kind = 'closes' AND old_item_id IS NOT NULL))
);
CREATE INDEX changes_status ON changes(status);
CREATE INDEX changes_old_decision ON changes(old_decision_id);
CREATE INDEX changes_old_item ON changes(old_item_id);
CREATE INDEX changes_new_decision ON changes(new_decision_id);
CREATE INDEX changes_capture ON changes(capture_id);
CREATE TRIGGER changes_taken_back BEFORE DELETE ON changes WHEN OLD.status = 'applied' BEGIN
    UPDATE decisions SET status = OLD.previous_status, superseded_by = NULL
    WHERE OLD.kind = 'supersedes' AND id = OLD.old_decision_id AND status = 'superseded'
      AND (superseded_by IS NULL OR superseded_by = OLD.new_decision_id);
    UPDATE action_items SET status = OLD.previous_status
    WHERE OLD.kind = 'closes' AND id = OLD.old_item_id AND status = 'done';
END;
DROP TRIGGER IF EXISTS decisions_decision_ai;
CREATE TRIGGER decisions_decision_ai AFTER INSERT ON decisions BEGIN
    INSERT INTO facts_fts (rowid, text)
    SELECT fact_key, text || ' ' || NEW.subject FROM facts
    WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
DROP TRIGGER IF EXISTS decisions_decision_au;
CREATE TRIGGER decisions_decision_au
AFTER UPDATE OF description, reasoning, decided_by, person_id, status, subject ON decisions BEGIN
    DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id);
    DELETE FROM fact_vectors WHERE rowid =
        (SELECT id FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id));
    DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text)
    SELECT fact_key, text || ' ' || NEW.subject FROM facts
    WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
""",
    )


# "Name: words" at the start of a stored line: the turn's speaker (frozen here for v16).
_SPEAKER_V16 = re.compile(r"^([A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,3}): \S")


def _v16_asked_by(conn: Connection) -> None:
    """Who asked for an action item: the speaker of the line that assigned it, when that is
    someone other than its owner ("Raj, quotes." said by Libby). A person's page lists what
    others owe them from it. Filled in for items already stored from their meeting's text."""
    conn.exec_driver_sql("ALTER TABLE action_items ADD COLUMN asked_by TEXT")
    rows = conn.exec_driver_sql(
        "SELECT a.id, a.line_start, a.assignee_raw, c.id, c.text FROM action_items a "
        "JOIN captures c ON c.id = a.capture_id "
        "WHERE a.line_start IS NOT NULL AND coalesce(a.assignee_raw, '') != '' "
        "ORDER BY a.capture_id"
    ).all()
    lines: list[str] = []
    lines_of = None
    for item_id, line_start, owner, capture_id, body in rows:
        if capture_id != lines_of:
            lines_of, lines = capture_id, (body or "").splitlines()
        said = _SPEAKER_V16.match(lines[line_start - 1]) if 0 < line_start <= len(lines) else None
        owner_words = {w.lower() for w in re.findall(r"\w+", owner)}
        if said and not owner_words & {w.lower() for w in re.findall(r"\w+", said[1])}:
            conn.exec_driver_sql(
                "UPDATE action_items SET asked_by = ? WHERE id = ?", (said[1], item_id)
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
    ("deciders and owners read as the person they were settled as", _v12_settled_names),
    ("merges of people, kept so a split can undo them", _v13_person_merges),
    ("decisions current, superseded or retracted", _v14_decision_status),
    ("decision subjects; changes across meetings, applied or proposed", _v15_changes),
    ("who asked for an action item", _v16_asked_by),
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
