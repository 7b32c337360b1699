"""Fact embeddings in the vec0 table, one vector per fact key."""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

from sqlalchemy import Connection, text

from store.errors import VectorError


def embedding_space(conn: Connection) -> tuple[str | None, int]:
    """The model that made the stored vectors (None before the first) and their dimension."""
    model, dim = conn.execute(text("SELECT model, dim FROM embedding_space WHERE id = 1")).one()
    return model, int(dim)


def _pack(vector: Sequence[float], dim: int) -> bytes:
    if len(vector) != dim:
        raise VectorError(f"embedding has {len(vector)} dimensions, the store expects {dim}")
    if not all(math.isfinite(value) for value in vector):
        raise VectorError("embedding contains NaN or infinity; refusing to store it")
    return struct.pack(f"{dim}f", *vector)


def put_embedding(
    conn: Connection, fact_key: int, vector: Sequence[float], model: str, content_hash: str
) -> None:
    """Store one fact's vector: delete then insert (vec0 0.1.9 rejects INSERT OR REPLACE)."""
    stored_model, dim = embedding_space(conn)
    if stored_model is not None and stored_model != model:
        raise VectorError(
            f"the store holds vectors from {stored_model}; refusing to mix in {model}"
        )
    blob = _pack(vector, dim)
    if stored_model is None:
        conn.execute(
            text("UPDATE embedding_space SET model = :m, updated_at = datetime('now')"),
            {"m": model},
        )
    conn.execute(text("DELETE FROM fact_vectors WHERE rowid = :k"), {"k": fact_key})
    conn.execute(
        text("INSERT INTO fact_vectors (rowid, embedding) VALUES (:k, :v)"),
        {"k": fact_key, "v": blob},
    )
    conn.execute(
        text(
            "INSERT INTO fact_embeddings (fact_key, content_hash, model, embedded_at) "
            "VALUES (:k, :h, :m, datetime('now')) ON CONFLICT (fact_key) DO UPDATE SET "
            "content_hash = excluded.content_hash, model = excluded.model, "
            "embedded_at = excluded.embedded_at"
        ),
        {"k": fact_key, "h": content_hash, "m": model},
    )
