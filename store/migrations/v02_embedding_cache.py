"""Schema 2: embeddings cached by content hash, so unchanged text is not embedded again.

Frozen: literal DDL, exactly as memo f2fe765 ran it. Never edit it; a change is a new step.
"""

from __future__ import annotations

from sqlalchemy import Connection

from store.migrations._sql import run_script

NAME = "embedding cache by content hash"

DDL = """
CREATE TABLE embedding_cache (
    content_hash TEXT NOT NULL,
    model TEXT NOT NULL,
    embedding BLOB NOT NULL,
    PRIMARY KEY (content_hash, model)
);
"""


def upgrade(conn: Connection) -> None:
    run_script(conn, DDL)
