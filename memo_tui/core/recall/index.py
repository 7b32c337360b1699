"""An in-process copy of the store's vectors, for processes that ask many questions.

sqlite-vec's KNN reads every vector with a scalar loop on each query (about 90 ms at 100,000
facts here); one float32 matrix product does the same exact scan in a fraction of that. The
copy costs memory (4 bytes x dimensions per fact: 154 MB at 100,000) and a load (about half
a second at 100,000), so long-lived processes (the TUI, benchmarks) use it, and a one-shot
`memo ask` does not. It is exact, not approximate: the same top-k as vec0.

The store's vector epoch moves whenever a vector is stored or dropped; a stale copy reloads
before it answers. Below `min_vectors` the copy is not worth it and vec0 answers. NumPy is
imported on the first load: the app's first screen does not wait for it.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from store import FactFilter, Store

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Keys = npt.NDArray[np.int64]
    Matrix = npt.NDArray[np.float32]


class VectorIndex:
    def __init__(self, store: Store, min_vectors: int = 5_000) -> None:
        self.store = store
        self.min_vectors = min_vectors
        self._lock = threading.Lock()
        self._epoch: tuple[str | None, int] | None = None
        self._loaded: tuple[Keys, Matrix] | None = None

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
            loaded = self._loaded
            if loaded is None or len(loaded[0]) == 0 or len(loaded[0]) < self.min_vectors:
                return None
            return loaded

    @property
    def nbytes(self) -> int:
        """The memory the loaded copy holds: its keys and its matrix of vectors."""
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
        scores = matrix @ (query / norm if norm else query)
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
