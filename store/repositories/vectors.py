"""Stored embeddings: their model, epoch, cache and backfill."""

from __future__ import annotations

from collections.abc import Sequence

from store import vectors
from store.repository import Repository


class Vectors(Repository):
    """Stored embeddings: their model, epoch, cache and backfill."""

    def model(self) -> str | None:
        """The model that made the stored vectors (None before the first)."""
        with self._read() as conn:
            return vectors.embedding_space(conn)[0]

    def space(self) -> tuple[str | None, int]:
        """The model that made the stored vectors (None before the first) and their size."""
        with self._read() as conn:
            return vectors.embedding_space(conn)

    def hashes(self) -> dict[int, str]:
        """Each embedded fact's content hash, by fact key."""
        with self._read() as conn:
            return vectors.content_hashes(conn)

    def epoch(self) -> tuple[str | None, int]:
        with self._read() as conn:
            return vectors.vector_epoch(conn)

    def all(self) -> tuple[int, list[int], list[bytes]]:
        """The vector epoch and every stored vector (packed float32) with its fact key."""
        with self._read() as conn:
            return vectors.all_vectors(conn)

    def set_space(self, model: str, dim: int) -> bool:
        with self._write() as conn:
            return vectors.set_embedding_space(conn, model, dim)

    def missing(self, limit: int, capture_id: int | None = None) -> list[tuple[int, str]]:
        with self._read() as conn:
            return vectors.facts_without_vectors(conn, limit, capture_id)

    def count_missing(self) -> int:
        with self._read() as conn:
            return vectors.count_without_vectors(conn)

    def cached(self, hashes: list[str], model: str) -> dict[str, bytes]:
        with self._read() as conn:
            return vectors.cached_vectors(conn, hashes, model)

    def put_many(
        self, items: Sequence[tuple[int, Sequence[float] | bytes, str]], model: str
    ) -> None:
        """Several vectors (fact_key, vector or packed vector, content hash) in one transaction."""
        with self._write() as conn:
            vectors.put_many(conn, items, model)

    def put(self, fact_key: int, vector: Sequence[float], model: str, content_hash: str) -> None:
        with self._write() as conn:
            vectors.put_embedding(conn, fact_key, vector, model, content_hash)
