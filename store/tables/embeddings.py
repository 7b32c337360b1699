"""What the vectors were made from: the cache of embeddings by content, each fact's vector
row, and the one embedding space (model and dimension) the store's vectors are in. The
vectors themselves are in vec0 (store.vectors, raw SQL)."""

from __future__ import annotations

from sqlalchemy import BigInteger
from sqlmodel import Field, SQLModel


class EmbeddingCache(SQLModel, table=True):
    __tablename__ = "embedding_cache"
    content_hash: str = Field(primary_key=True)
    model: str = Field(primary_key=True)
    embedding: bytes


class FactEmbedding(SQLModel, table=True):
    __tablename__ = "fact_embeddings"
    id: int = Field(default=None, primary_key=True)
    fact_key: int = Field(sa_type=BigInteger)  # unique; a 64-bit key
    content_hash: str
    model: str
    embedded_at: str


class EmbeddingSpace(SQLModel, table=True):
    """One row (id 1)."""

    __tablename__ = "embedding_space"
    id: int = Field(default=None, primary_key=True)
    model: str | None = None
    dim: int
    updated_at: str
    epoch: int = 0
