"""Schema 4: vec0 rowids become small ids, and a counter tracks vector changes.

sqlite-vec 0.1.9 compares only the low 32 bits of rowids in a KNN query's `rowid IN`
filter, so with fact keys ((arm << 32) | id) as rowids a filtered vector search returned
facts of other arms. Each vector's rowid is now its fact_embeddings id. The epoch moves
whenever a vector comes or goes, so an in-process copy of the vectors knows it is stale.

Frozen: literal DDL, exactly as memo d99b4c4 ran it. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "compact vector ids and a vector epoch"

# The embeddings move to new rowids; `{dim}` is the store's vector size.
MOVE_VECTORS = """
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
"""

# Schema 1's index triggers again, dropping a fact's vector by its fact_embeddings id.
INDEX_TRIGGERS = """
CREATE TRIGGER decisions_decision_ai AFTER INSERT ON decisions  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'decision' AND fact_id = NEW.id; END;
CREATE TRIGGER decisions_decision_au AFTER UPDATE OF description, reasoning, decided_by ON decisions BEGIN
    DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'decision' AND fact_id = NEW.id;
END;
CREATE TRIGGER decisions_decision_ad AFTER DELETE ON decisions BEGIN DELETE FROM facts_fts WHERE rowid = ((1 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((1 << 32) | OLD.id); END;

CREATE TRIGGER action_items_action_item_ai AFTER INSERT ON action_items  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'action_item' AND fact_id = NEW.id; END;
CREATE TRIGGER action_items_action_item_au AFTER UPDATE OF description, assignee_raw, due_date ON action_items BEGIN
    DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'action_item' AND fact_id = NEW.id;
END;
CREATE TRIGGER action_items_action_item_ad AFTER DELETE ON action_items BEGIN DELETE FROM facts_fts WHERE rowid = ((2 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((2 << 32) | OLD.id); END;

CREATE TRIGGER captures_summary_ai AFTER INSERT ON captures WHEN coalesce(NEW.summary, '') != '' BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'summary' AND fact_id = NEW.id; END;
CREATE TRIGGER captures_summary_au AFTER UPDATE OF summary ON captures BEGIN
    DELETE FROM facts_fts WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'summary' AND fact_id = NEW.id;
END;
CREATE TRIGGER captures_summary_ad AFTER DELETE ON captures BEGIN DELETE FROM facts_fts WHERE rowid = ((3 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((3 << 32) | OLD.id); END;

CREATE TRIGGER excerpts_excerpt_ai AFTER INSERT ON excerpts  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'excerpt' AND fact_id = NEW.id; END;
CREATE TRIGGER excerpts_excerpt_au AFTER UPDATE OF text ON excerpts BEGIN
    DELETE FROM facts_fts WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'excerpt' AND fact_id = NEW.id;
END;
CREATE TRIGGER excerpts_excerpt_ad AFTER DELETE ON excerpts BEGIN DELETE FROM facts_fts WHERE rowid = ((4 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((4 << 32) | OLD.id); END;

CREATE TRIGGER context_notes_client_note_ai AFTER INSERT ON context_notes WHEN NEW.kind = 'client' BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'client_note' AND fact_id = NEW.id; END;
CREATE TRIGGER context_notes_client_note_au AFTER UPDATE OF body, kind ON context_notes BEGIN
    DELETE FROM facts_fts WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'client_note' AND fact_id = NEW.id;
END;
CREATE TRIGGER context_notes_client_note_ad AFTER DELETE ON context_notes BEGIN DELETE FROM facts_fts WHERE rowid = ((5 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((5 << 32) | OLD.id); END;

CREATE TRIGGER context_notes_project_note_ai AFTER INSERT ON context_notes WHEN NEW.kind = 'project' BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'project_note' AND fact_id = NEW.id; END;
CREATE TRIGGER context_notes_project_note_au AFTER UPDATE OF body, kind ON context_notes BEGIN
    DELETE FROM facts_fts WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'project_note' AND fact_id = NEW.id;
END;
CREATE TRIGGER context_notes_project_note_ad AFTER DELETE ON context_notes BEGIN DELETE FROM facts_fts WHERE rowid = ((6 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((6 << 32) | OLD.id); END;

CREATE TRIGGER digests_digest_ai AFTER INSERT ON digests  BEGIN INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'digest' AND fact_id = NEW.id; END;
CREATE TRIGGER digests_digest_au AFTER UPDATE OF body ON digests BEGIN
    DELETE FROM facts_fts WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id);
    INSERT INTO facts_fts (rowid, text) SELECT fact_key, text FROM facts WHERE fact_type = 'digest' AND fact_id = NEW.id;
END;
CREATE TRIGGER digests_digest_ad AFTER DELETE ON digests BEGIN DELETE FROM facts_fts WHERE rowid = ((7 << 32) | OLD.id); DELETE FROM fact_vectors WHERE rowid = (SELECT id FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id)); DELETE FROM fact_embeddings WHERE fact_key = ((7 << 32) | OLD.id); END;
"""  # noqa: E501


def upgrade(conn: Connection) -> None:
    triggers = conn.exec_driver_sql(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' "
        "AND (name LIKE '%\\_ai' ESCAPE '\\' OR name LIKE '%\\_au' ESCAPE '\\' "
        "OR name LIKE '%\\_ad' ESCAPE '\\')"
    ).all()
    for (name,) in triggers:
        conn.exec_driver_sql(f'DROP TRIGGER "{name}"')
    dim = int(conn.exec_driver_sql("SELECT dim FROM embedding_space WHERE id = 1").scalar_one())
    run_script(conn, MOVE_VECTORS.replace("{dim}", str(dim)))
    run_script(conn, INDEX_TRIGGERS)
