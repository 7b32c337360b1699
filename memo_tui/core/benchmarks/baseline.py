"""The plain-RAG baseline `memo bench recall` prints beside memo: what the simplest retriever
finds, so memo's extraction, people and dates have a number to beat.

Each transcript is cut into chunks of six turns (no overlap, no extraction, no context), kept
in an FTS5 table (BM25, the same tokenizer as memo's index) and embedded with the same model;
a query takes 50 candidates from each side and fuses them by reciprocal rank, as memo does.
A hit is a chunk of the query's meeting holding an evidence turn (memo's rule for facts).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import sqlean

from memo_tui.core.capture.offline.text import STOPWORDS
from memo_tui.core.recall.search import fuse
from store.search import match_expression

TURNS = 6
POOL = 50


@dataclass(frozen=True)
class Chunk:
    meeting: str
    first: int  # 0-based turns, inclusive
    last: int


class Baseline:
    """Chunks of every meeting in an in-memory FTS5 table and a matrix of unit vectors."""

    def __init__(self, embed: Callable[[list[str]], list[list[float]]], batch: int = 8) -> None:
        self._embed = embed
        self._batch = batch
        self.chunks: list[Chunk] = []
        self._texts: list[str] = []
        self._vectors = np.zeros((0, 0), dtype=np.float32)
        self._db = sqlean.connect(":memory:")
        self._db.execute(
            "CREATE VIRTUAL TABLE chunks USING fts5(text, "
            "tokenize='porter unicode61 remove_diacritics 2')"
        )

    def add(self, meeting: str, transcript: str) -> None:
        turns = transcript.rstrip("\n").split("\n")
        for first in range(0, len(turns), TURNS):
            body = "\n".join(turns[first : first + TURNS]).strip()
            if body:
                self.chunks.append(Chunk(meeting, first, min(first + TURNS, len(turns)) - 1))
                self._texts.append(body)
                self._db.execute(
                    "INSERT INTO chunks (rowid, text) VALUES (?, ?)", (len(self.chunks), body)
                )

    def embed_all(self) -> None:
        """Embed every chunk, shortest first in batches (as memo's backfill does)."""
        order = sorted(range(len(self._texts)), key=lambda i: len(self._texts[i]))
        vectors: list[list[float]] = [[] for _ in self._texts]
        for start in range(0, len(order), self._batch):
            batch = order[start : start + self._batch]
            for i, vector in zip(batch, self._embed([self._texts[i] for i in batch]), strict=True):
                vectors[i] = vector
        matrix = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), -1)
        self._vectors = matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)

    def search(
        self, query: str, vector: Sequence[float], meeting: str | None, limit: int = 10
    ) -> list[Chunk]:
        """The `limit` best chunks for the query, store-wide or within one meeting."""
        allowed = [i for i, c in enumerate(self.chunks) if meeting is None or c.meeting == meeting]
        if not allowed:
            return []
        keyword = self._keyword(query, {i + 1 for i in allowed})
        similarity = self._vectors[allowed] @ np.asarray(vector, dtype=np.float32)
        best = np.argsort(-similarity)[:POOL]
        semantic = [allowed[int(i)] + 1 for i in best]
        scores = fuse([keyword, semantic])
        ranked = sorted(scores, key=lambda key: -scores[key])[:limit]
        return [self.chunks[key - 1] for key in ranked]

    def close(self) -> None:
        self._db.close()

    def _keyword(self, query: str, allowed: set[int]) -> list[int]:
        expression = match_expression(query, STOPWORDS)
        if expression is None:
            return []
        rows = self._db.execute(
            "SELECT rowid FROM chunks WHERE chunks MATCH ? ORDER BY bm25(chunks)", (expression,)
        )
        found = [int(rowid) for (rowid,) in rows if int(rowid) in allowed]
        return found[:POOL]


def first_hit(chunks: list[Chunk], meeting: str, evidence: tuple[int, ...]) -> int | None:
    """The 1-based rank of the first chunk of `meeting` holding an evidence turn."""
    for rank, chunk in enumerate(chunks, 1):
        if chunk.meeting == meeting and any(chunk.first <= t <= chunk.last for t in evidence):
            return rank
    return None
