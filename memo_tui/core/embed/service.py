"""Embedding facts: after each capture (best-effort, bounded time) and by `memo backfill`.

A batch that fails or runs past its timeout leaves those facts without vectors; the capture
stands and `memo backfill` (or the next capture) catches up. Texts embedded before, by the
same model, are reused from the cache instead of being embedded again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from functools import partial
from typing import Protocol, TypeVar

from memo_tui.core.embed.embedder import EmbeddingUnavailable
from store import Store, StoreError

T = TypeVar("T")

# Batches per round: a round's texts are sorted by length before batching, so a larger round
# pads less (on QMSum-val facts, sorted batches embed 1.8x as fast as batches in fact order).
ROUND = 32


class Embedder(Protocol):
    name: str

    @property
    def dim(self) -> int: ...

    def embed(self, texts: list[str]) -> list[list[float]]: ...


@dataclass
class BackfillResult:
    embedded: int = 0
    reused: int = 0
    failed: int = 0
    remaining: int = 0
    reset: bool = False
    error: str | None = None


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbedService:
    def __init__(
        self, store: Store, embedder: Embedder, batch_size: int = 8, timeout_s: float = 5.0
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.batch_size = batch_size
        self.timeout_s = timeout_s
        self._pool: ThreadPoolExecutor | None = None
        self.unavailable: str | None = None

    def use(self, embedder: Embedder) -> None:
        """Embed with `embedder` from now on (a model that has just been downloaded)."""
        self.embedder = embedder
        self.unavailable = None

    def embed_capture(self, capture_id: int) -> BackfillResult:
        """Best-effort right after a capture commits: never raises."""
        return self.backfill(capture_id=capture_id)

    def backfill(
        self,
        capture_id: int | None = None,
        progress: Callable[[BackfillResult], None] | None = None,
    ) -> BackfillResult:
        """Embed every fact without a vector (idempotent and resumable: each batch commits)."""
        result = BackfillResult()
        embedder = self.embedder  # one model for the whole run, even if `use` swaps it now
        try:
            result.reset = self.store.vectors.set_space(embedder.name, self._dim(embedder))
            while True:
                pending = self.store.vectors.missing(self.batch_size * ROUND, capture_id)
                if not pending or not self._round(embedder, pending, result, progress):
                    break
        except (EmbeddingUnavailable, StoreError, FutureTimeout) as error:
            result.error = str(error) or "embedding timed out"
        if capture_id is None:  # the whole-store count is for backfill, not every capture
            result.remaining = self.store.vectors.count_missing()
        return result

    def _dim(self, embedder: Embedder) -> int:
        if self.unavailable is not None and embedder is self.embedder:
            raise EmbeddingUnavailable(self.unavailable)
        try:
            return embedder.dim  # loads the model: not part of any batch's time
        except EmbeddingUnavailable as error:
            if embedder is self.embedder:  # (not a model `use` has replaced meanwhile)
                self.unavailable = str(error)  # do not try again in this process
            raise

    def _round(
        self,
        embedder: Embedder,
        pending: list[tuple[int, str]],
        result: BackfillResult,
        progress: Callable[[BackfillResult], None] | None,
    ) -> bool:
        """One round of batches, `progress` after each; False when a batch failed (stop, leave
        the rest NULL)."""
        hashes = {key: content_hash(text) for key, text in pending}
        cached = self.store.vectors.cached(list(set(hashes.values())), embedder.name)
        reuse = [
            (key, cached[hashes[key]], hashes[key]) for key, _ in pending if hashes[key] in cached
        ]
        if reuse:
            self.store.vectors.put_many(reuse, embedder.name)
            result.reused += len(reuse)
            if progress is not None:
                progress(result)
        todo = [(key, text) for key, text in pending if hashes[key] not in cached]
        todo.sort(key=lambda item: len(item[1]))  # a batch is padded to its longest text
        for start in range(0, len(todo), self.batch_size):
            batch = todo[start : start + self.batch_size]
            texts = [text for _, text in batch]
            try:
                vectors = self._call(partial(embedder.embed, texts))
            except (FutureTimeout, EmbeddingUnavailable) as error:
                result.failed += len(todo) - start
                result.error = str(error) or f"an embedding batch took over {self.timeout_s:g} s"
                return False
            items = [
                (key, vector, hashes[key]) for (key, _), vector in zip(batch, vectors, strict=True)
            ]
            self.store.vectors.put_many(items, embedder.name)
            result.embedded += len(batch)
            if progress is not None:
                progress(result)
        return True

    def _call(self, work: Callable[[], T]) -> T:
        """Run model work on a helper thread and wait at most the batch timeout."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed")
        return self._pool.submit(work).result(timeout=self.timeout_s)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
