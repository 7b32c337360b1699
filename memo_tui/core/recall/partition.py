"""An inverted-file partition of the in-process vectors, for stores too big to scan whole.

Spherical k-means splits the unit vectors into about sqrt(N) lists around their centroids;
the rows are kept sorted by list, so a list is one contiguous slice of the matrix. A query
scores the centroids, then scans only the `probes` best lists: at a million facts about 6%
of the rows, a few milliseconds instead of a whole-matrix product. It is approximate: a
neighbour in a list not probed is missed, so `memo bench search` prints how often the top
ten still match the exact ones, and a filtered search scans everything (its few allowed
facts may sit in any list).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Keys = npt.NDArray[np.int64]
    Matrix = npt.NDArray[np.float32]

ROUNDS = 10  # k-means rounds over the sample
SAMPLE_PER_LIST = 40  # training rows per list: the centroids settle long before all are read
PROBED_SHARE = 1 / 16  # lists scanned per query, as a share of all of them
MIN_PROBES = 8
CHUNK = 65_536  # rows assigned at a time (a chunk's scores against every centroid in memory)


@dataclass(frozen=True)
class Partition:
    """The store's vectors sorted by list: `keys[i]` and `matrix[i]` belong to the list whose
    rows are `starts[l]:starts[l + 1]`, around `centroids[l]`."""

    keys: Keys
    matrix: Matrix
    centroids: Matrix
    starts: npt.NDArray[np.int64]
    probes: int

    @classmethod
    def build(cls, keys: Keys, matrix: Matrix, seed: int = 0) -> Partition:
        """Lists for unit-length rows (the copy is sorted by list; the input is left as is)."""
        import numpy as np

        lists = max(1, round(math.sqrt(len(matrix))))
        centroids = _centroids(matrix, lists, np.random.default_rng(seed))
        owner = np.concatenate(
            [
                np.argmax(matrix[start : start + CHUNK] @ centroids.T, axis=1)
                for start in range(0, len(matrix), CHUNK)
            ]
        )
        order = np.argsort(owner, kind="stable")
        counts = np.bincount(owner, minlength=lists)
        starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        probes = min(lists, max(MIN_PROBES, math.ceil(lists * PROBED_SHARE)))
        return cls(keys[order], matrix[order], centroids, starts, probes)

    @property
    def nbytes(self) -> int:
        return int(
            self.keys.nbytes + self.matrix.nbytes + self.centroids.nbytes + self.starts.nbytes
        )

    def search(self, query: Matrix, k: int) -> tuple[Keys, npt.NDArray[np.float32]]:
        """The keys of the (about) k rows most similar to a unit query, best first, and their
        cosine similarities."""
        import numpy as np

        near = self.centroids @ query
        probed = np.sort(np.argpartition(-near, self.probes - 1)[: self.probes])
        spans = [(int(self.starts[p]), int(self.starts[p + 1])) for p in probed]
        rows = np.concatenate([np.arange(a, b) for a, b in spans])
        scores = np.concatenate([self.matrix[a:b] @ query for a, b in spans])
        k = min(k, len(scores))
        if k <= 0:
            return self.keys[:0], scores[:0]
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return self.keys[rows[top]], scores[top]


def _centroids(matrix: Matrix, lists: int, rng: np.random.Generator) -> Matrix:
    """Spherical k-means on a sample: each centroid the normalised mean of its rows; a list
    left empty starts again from a random row."""
    import numpy as np

    size = min(len(matrix), lists * SAMPLE_PER_LIST)
    sample = matrix[np.sort(rng.choice(len(matrix), size, replace=False))]
    centroids = sample[rng.choice(size, lists, replace=False)].copy()
    for _ in range(ROUNDS):
        owner = np.argmax(sample @ centroids.T, axis=1)
        order = np.argsort(owner, kind="stable")
        held, first = np.unique(owner[order], return_index=True)
        sums = np.zeros_like(centroids)
        sums[held] = np.add.reduceat(sample[order], first, axis=0)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        empty = norms[:, 0] == 0
        sums[empty] = sample[rng.choice(size, int(empty.sum()))]
        centroids = (sums / np.where(empty[:, None], 1, norms)).astype(np.float32)
    return centroids
