"""The partitioned index for large stores: approximate, but it finds nearly the exact top
ten on clustered vectors; filtered searches and a store that changed stay exact."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from memo_tui.core.recall.index import VectorIndex
from memo_tui.core.recall.partition import Partition
from store import FactFilter, Store

DIM = 32


def clustered(count: int, topics: int, seed: int) -> npt.NDArray[np.float32]:
    """Unit vectors around `topics` centres (as meetings' facts gather around subjects)."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((topics, DIM))
    rows = centres[rng.integers(0, topics, count)] + rng.standard_normal((count, DIM)) * 0.6
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def exact(matrix: npt.NDArray[np.float32], query: npt.NDArray[np.float32], k: int) -> set[int]:
    return {int(i) for i in np.argsort(-(matrix @ query))[:k]}


def test_a_partition_finds_most_of_the_exact_top_ten_and_all_when_every_list_is_probed() -> None:
    matrix = clustered(20_000, 40, seed=1)
    keys = np.arange(20_000, dtype=np.int64) + 7
    partition = Partition.build(keys, matrix)
    assert len(partition.centroids) == 141 and partition.probes == 9
    assert sorted(partition.keys.tolist()) == keys.tolist()  # every row kept, once
    whole = replace(partition, probes=141)
    found = {"probed": 0, "whole": 0}
    for query in clustered(50, 40, seed=2):
        truth = exact(matrix, query, 10)
        for name, searched in (("probed", partition), ("whole", whole)):
            top, scores = searched.search(query, 10)
            assert list(scores) == sorted(scores, reverse=True)
            found[name] += len({int(k) - 7 for k in top} & truth)
    assert found["whole"] == 500
    assert found["probed"] / 500 >= 0.85  # 6% of the rows scanned
    # the rows it scans: a list's rows are one slice, around its centroid
    rows = partition.matrix[partition.starts[3] : partition.starts[4]]
    owners = np.argmax(rows @ partition.centroids.T, axis=1)
    assert set(owners.tolist()) == {3}


def with_vectors(store: Store, matrix: npt.NDArray[np.float32]) -> list[int]:
    """Vectors stored for fact keys that no fact has (the index reads vectors alone)."""
    keys = [(4 << 32) | i for i in range(1, len(matrix) + 1)]
    store.vectors.set_space("test-model", DIM)
    for start in range(0, len(keys), 500):
        batch = range(start, min(start + 500, len(keys)))
        store.vectors.put_many(
            [(keys[i], matrix[i].tobytes(), f"h{i}") for i in batch], "test-model"
        )
    return keys


def test_the_index_partitions_a_large_copy_and_keeps_filtered_searches_exact(
    store: Store,
) -> None:
    matrix = clustered(3_000, 12, seed=3)
    keys = with_vectors(store, matrix)
    index = VectorIndex(store, min_vectors=0, partition_from=2_000)
    query = clustered(1, 12, seed=4)[0]
    first = index.search(query.tolist(), FactFilter(), 10, -1.0)  # exact while it builds
    assert index.wait_partitioned(60) and index.kind.startswith("partitioned: 55 lists")
    partitioned = index.search(query.tolist(), FactFilter(), 10, -1.0)
    assert first is not None and partitioned is not None
    truth = {keys[i] for i in exact(matrix, query, 10)}
    assert {key for key, _ in first} == truth
    assert len({key for key, _ in partitioned} & truth) >= 9
    assert index.nbytes >= matrix.nbytes


def test_a_store_below_the_size_is_scanned_whole(store: Store) -> None:
    matrix = clustered(300, 4, seed=5)
    with_vectors(store, matrix)
    index = VectorIndex(store, min_vectors=0, partition_from=2_000)
    assert index.search(matrix[0].tolist(), FactFilter(), 3, -1.0) is not None
    assert not index.wait_partitioned(0) and index.kind == "exact"


def test_one_partition_is_built_at_a_time_and_the_newest_copy_wins(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    matrix = clustered(3_000, 12, seed=6)
    keys = with_vectors(store, matrix)
    release, running, built = threading.Event(), [0], []
    original = Partition.build.__func__  # type: ignore[attr-defined]

    def held(cls: type[Partition], keys: Any, matrix: Any, seed: int = 0) -> Partition:
        running[0] += 1
        built.append(running[0])  # how many were running when this one began
        release.wait(30)
        try:
            return original(cls, keys, matrix, seed)  # type: ignore[no-any-return]
        finally:
            running[0] -= 1

    monkeypatch.setattr(Partition, "build", classmethod(held))
    index = VectorIndex(store, min_vectors=0, partition_from=2_000)
    query = matrix[0].tolist()
    index.search(query, FactFilter(), 5, -1.0)  # the first copy: its build waits
    for more in range(2):  # two more copies while it does
        extra = clustered(10, 12, seed=10 + more)
        newest = [(4 << 32) | (5_000 + 10 * more + i) for i in range(10)]
        store.vectors.put_many(
            [(key, extra[i].tobytes(), f"x{key}") for i, key in enumerate(newest)], "test-model"
        )
        index.search(query, FactFilter(), 5, -1.0)
    release.set()
    assert index.wait_partitioned(60)
    assert built == [1, 1]  # the first, then only the newest: never two at once
    assert index.kind.startswith("partitioned")
    found = index.search(extra[-1].tolist(), FactFilter(), 1, -1.0)  # the newest copy's row
    assert found is not None and found[0][0] == newest[-1]
    assert index.search(query, FactFilter(), 1, -1.0) == [(keys[0], pytest.approx(1.0))]
