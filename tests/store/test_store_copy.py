"""Copying a file's store into a PostgreSQL server's (store.copy): rows with their ids, the
vectors, what is new only on a second run, and ids that go on after the copied ones."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from support.db import PROV, new_capture
from support.postgres import fresh_database

from store import FactFilter, Store
from store.copy import copy_store

pytestmark = pytest.mark.postgres


def _vector(seed: int) -> list[float]:
    raw = [math.sin(seed * 7.1 + i) for i in range(384)]
    norm = math.sqrt(sum(v * v for v in raw))
    return [v / norm for v in raw]


def test_rows_and_vectors_move_in_and_a_second_copy_adds_only_what_is_new(
    sqlite_store: Store,
) -> None:
    source = sqlite_store
    first = source.captures.write(new_capture("h1"))
    source.notes.add_for_project("Atlas", "Cutover planned for October.", PROV)
    keys = [f.fact_key for f in source.facts.all()]
    for n, key in enumerate(keys):
        source.vectors.put(key, _vector(n), "test-model", f"hash{n}")
    seen = []
    with Store(fresh_database()) as target:
        copied = copy_store(source, target, lambda *step: seen.append(step))
        assert copied.added["captures"] == 1 and copied.vectors == len(keys)
        assert ("vectors", len(keys), len(keys)) in seen
        assert target.facts.all() == source.facts.all()  # ids, text, provenance
        assert target.vectors.space() == ("test-model", 384)
        query = _vector(1)
        assert [k for k, _ in target.search.vector(query, FactFilter(), 3, -1.0)] == [
            k for k, _ in source.search.vector(query, FactFilter(), 3, -1.0)
        ]
        assert target.search.keyword("cutover", FactFilter(), 5)  # indexed as it arrived

        second = source.captures.write(new_capture("h2", title="Second"))
        again = copy_store(source, target)
        assert again.added["captures"] == 1 and again.added["decisions"] == 1
        assert again.present >= len(keys) and again.vectors == 0
        assert {c.id for c in target.captures.all()} == {first.capture_id, second.capture_id}
        made = target.captures.write(new_capture("h3", title="Made on the server"))
        assert made.capture_id > second.capture_id  # the ids go on after the copied ones


def test_vectors_of_another_model_stay_out(sqlite_store: Store, tmp_path: Path) -> None:
    sqlite_store.captures.write(new_capture("h1"))
    [key, *_] = [f.fact_key for f in sqlite_store.facts.all()]
    sqlite_store.vectors.put(key, _vector(0), "test-model", "hash0")
    with Store(fresh_database()) as target:
        target.vectors.set_space("other-model", 384)
        copied = copy_store(sqlite_store, target)
        assert copied.vectors == 0 and "other-model" in copied.vectors_skipped
        assert target.facts.all() == sqlite_store.facts.all()
