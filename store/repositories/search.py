"""Keyword and vector search over facts."""

from __future__ import annotations

from collections.abc import Sequence

from store import search, vectors
from store.repository import Repository
from store.search import FactFilter


class Search(Repository):
    """Keyword and vector search over facts."""

    def keyword(
        self, query: str, flt: FactFilter, limit: int, stopwords: frozenset[str] = frozenset()
    ) -> list[tuple[int, float]]:
        with self._read() as conn:
            return search.keyword(conn, query, flt, limit, stopwords)

    def term_coverage(self, words: Sequence[str], keys: Sequence[int]) -> search.TermCoverage:
        """How many facts hold each word, and which of `keys` do."""
        with self._read() as conn:
            return search.term_coverage(conn, words, keys)

    def vector(
        self, vector: list[float], flt: FactFilter, limit: int, min_similarity: float
    ) -> list[tuple[int, float]]:
        with self._read() as conn:
            return search.semantic(conn, vector, flt, limit, min_similarity)

    def allowed_keys(self, flt: FactFilter) -> list[int]:
        with self._read() as conn:
            return search.allowed_keys(conn, flt)

    def nearest(self, vector: Sequence[float], k: int) -> list[tuple[int, float]]:
        with self._read() as conn:
            return vectors.nearest(conn, vector, k)
