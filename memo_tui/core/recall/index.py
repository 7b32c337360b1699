"""An in-process copy of the store's vectors, for processes that ask many questions.

sqlite-vec's KNN reads every vector with a scalar loop on each query (about 90 ms at 100,000
facts here); one float32 matrix product does the same exact scan in a fraction of that. The
copy costs memory (4 bytes x dimensions per fact: 154 MB at 100,000) and a load (about half
a second at 100,000), so long-lived processes (the TUI, benchmarks) use it, and a one-shot
`memo ask` does not. It is exact, not approximate: the same top-k as vec0.

The store's vector epoch moves whenever a vector is stored or dropped; a stale copy reloads
before it answers. Below `min_vectors` the copy is not worth it and vec0 answers. NumPy is
imported on the first load: the app's first screen does not wait for it.

From `partition_from` vectors a whole scan costs too much (about 90 ms at a million), so a
background thread partitions the copy (recall.partition); until it is ready, and for
filtered searches, the scan stays exact. A partitioned search is approximate.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from memo_tui.core.recall.partition import Partition
from store import FactFilter, Store

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Keys = npt.NDArray[np.int64]
    Matrix = npt.NDArray[np.float32]


PARTITION_FROM = 200_000  # vectors; below this a whole scan takes under 20 ms here


class VectorIndex:
    def __init__(
        self, store: Store, min_vectors: int = 5_000, partition_from: int = PARTITION_FROM
    ) -> None:
        self.store = store
        self.min_vectors = min_vectors
        self.partition_from = partition_from
        self._lock = threading.Lock()
        self._epoch: tuple[str | None, int] | None = None
        self._loaded: tuple[Keys, Matrix] | None = None
        self._partition: tuple[tuple[str | None, int], Partition] | None = None
        self._partitioning: threading.Thread | None = None
        self._waiting: tuple[tuple[str | None, int], tuple[Keys, Matrix]] | None = None
        self.partition_seconds = 0.0

    def _snapshot(self) -> tuple[Keys, Matrix] | None:
        """The up-to-date keys and matrix (taken together, under the lock), or None when
        the store is too small to bother."""
        import numpy as np

        stamp = self.store.vectors.epoch()
        with self._lock:
            if stamp != self._epoch:
                epoch, keys, blobs = self.store.vectors.all()
                if keys:
                    flat = np.frombuffer(b"".join(blobs), dtype=np.float32)
                    matrix = flat.reshape(len(keys), -1)
                    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
                    matrix = (matrix / np.where(norms == 0, 1, norms)).astype(np.float32)
                else:
                    matrix = np.zeros((0, 0), dtype=np.float32)
                self._loaded = (np.asarray(keys, dtype=np.int64), matrix)
                self._epoch = (stamp[0], epoch)
                if len(keys) >= self.partition_from:
                    self._partition_later(self._epoch, self._loaded)
            loaded = self._loaded
            if loaded is None or len(loaded[0]) == 0 or len(loaded[0]) < self.min_vectors:
                return None
            return loaded

    def _partition_later(self, epoch: tuple[str | None, int], loaded: tuple[Keys, Matrix]) -> None:
        """Partition this copy in a thread of its own; while one is under way, the newest
        copy waits for it (one build at a time: each holds a sorted copy of the vectors).
        Called under the lock."""
        self._partition = None
        if self._partitioning is not None and self._partitioning.is_alive():
            self._waiting = (epoch, loaded)
            return
        self._waiting = None
        self._partitioning = threading.Thread(
            target=self._build, args=(epoch, loaded), name="memo-partition", daemon=True
        )
        self._partitioning.start()

    def _build(self, epoch: tuple[str | None, int], loaded: tuple[Keys, Matrix]) -> None:
        started = time.perf_counter()
        partition = Partition.build(*loaded)
        self.partition_seconds = time.perf_counter() - started
        with self._lock:
            if self._epoch == epoch:  # (else a newer copy came meanwhile: drop this one)
                self._partition = (epoch, partition)
                self._loaded = (partition.keys, partition.matrix)  # same rows, sorted
            waiting, self._waiting = self._waiting, None
            if waiting is not None and waiting[0] == self._epoch:
                self._partitioning = threading.Thread(
                    target=self._build, args=waiting, name="memo-partition", daemon=True
                )
                self._partitioning.start()

    def wait_partitioned(self, timeout: float | None = None) -> bool:
        """Wait for the partitions under way; whether the copy is partitioned now."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while (building := self._partitioning) is not None and building.is_alive():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            building.join(left)
        return self._partition is not None

    @property
    def kind(self) -> str:
        """How a search with no filter scans: "exact", or how the copy is partitioned."""
        if self._partition is None:
            return "exact"
        part = self._partition[1]
        lists = len(part.centroids)
        return (
            f"partitioned: {lists:,} lists, {part.probes} probed "
            f"(built in {self.partition_seconds:.1f} s)"
        )

    @property
    def nbytes(self) -> int:
        """The memory the loaded copy holds: its keys and its matrix of vectors."""
        if self._partition is not None:
            return self._partition[1].nbytes
        loaded = self._loaded
        return 0 if loaded is None else int(loaded[0].nbytes + loaded[1].nbytes)

    def search(
        self, vector: list[float], flt: FactFilter, k: int, min_similarity: float
    ) -> list[tuple[int, float]] | None:
        """(fact_key, cosine similarity) best first, as store.search.vector returns them;
        None when vec0 should answer instead."""
        import numpy as np

        snapshot = self._snapshot()
        if snapshot is None:
            return None
        keys, matrix = snapshot
        query = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(query))
        query = query / norm if norm else query
        partition = self._partition
        if flt.empty and partition is not None and partition[0] == self._epoch:
            found, similar = partition[1].search(query, k)
            return [
                (int(key), float(score))
                for key, score in zip(found, similar, strict=True)
                if score >= min_similarity
            ]
        scores = matrix @ query
        if not flt.empty:
            allowed = np.asarray(self.store.search.allowed_keys(flt), dtype=np.int64)
            scores = np.where(np.isin(keys, allowed), scores, -np.inf)
        k = min(k, len(scores))
        if k <= 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [
            (int(keys[i]), float(scores[i]))
            for i in top
            if np.isfinite(scores[i]) and scores[i] >= min_similarity
        ]
