"""Embeddings with the real fastembed model: after capture, backfill, reuse, model changes."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from support.embedding import INT8, MODEL, model_path
from support.embedding import embedder as real_embedder
from support.paths import DEMO

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.embed import EmbedService, FastEmbedder
from store import Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True


@pytest.fixture(scope="module")
def embedder() -> FastEmbedder:
    return real_embedder()


def services(
    store: Store, embedder: object, timeout: float = 30.0
) -> tuple[CaptureService, EmbedService]:
    embed = EmbedService(store, embedder, batch_size=8, timeout_s=timeout)  # type: ignore[arg-type]
    capture = CaptureService(store, CaptureOptions(user="t"), after_commit=embed.embed_capture)
    return capture, embed


def test_facts_are_embedded_right_after_capture(store: Store, embedder: FastEmbedder) -> None:
    capture, _ = services(store, embedder)
    capture.capture_paths([DEMO])
    stats = store.stats()
    assert stats.vectors == sum(stats.facts_by_type.values()) > 100
    assert (stats.embedding_model, stats.embedding_dim) == (INT8, 384)
    assert store.vectors.count_missing() == 0


def test_semantic_neighbours_make_sense(store: Store, embedder: FastEmbedder) -> None:
    capture, _ = services(store, embedder)
    capture.capture_paths([DEMO])
    [query] = embedder.embed(["which database did we pick for the analytics platform?"])
    keys = [key for key, _ in store.search.nearest(query, 5)]
    texts = {f.fact_key: f.text for f in store.facts.all()}
    assert any("Postgres" in texts[key] for key in keys)


def test_backfill_is_idempotent_and_reuses_unchanged_text(
    tmp_path: Path, store: Store, embedder: FastEmbedder
) -> None:
    capture, embed = services(store, embedder)
    path = tmp_path / "kickoff.txt"
    path.write_text((DEMO / "2026-09-08-atlas-kickoff.txt").read_text())
    capture.capture_file(path)
    again = embed.backfill()
    assert (again.embedded, again.reused, again.remaining) == (0, 0, 0)
    path.write_text(path.read_text() + "Marcus Webb: One more thing, thanks all.\n")
    replaced = capture.capture_file(path, replace=True)
    assert replaced.status == "replaced"
    assert store.vectors.count_missing() == 0
    # the replace re-created every fact; only the changed excerpt and summary were embedded
    with store.reader.connect() as conn:
        from sqlalchemy import text

        cached = conn.execute(text("SELECT count(*) FROM embedding_cache")).scalar_one()
    assert cached < 2 * sum(store.stats().facts_by_type.values())


class SlowEmbedder:
    """The real model behind a delay: a batch that runs past its timeout."""

    def __init__(self, real: FastEmbedder, delay: float) -> None:
        self.real, self.delay, self.name = real, delay, real.name

    @property
    def dim(self) -> int:
        return self.real.dim

    def embed(self, texts: list[str]) -> list[list[float]]:
        time.sleep(self.delay)
        return self.real.embed(texts)


def test_a_timed_out_batch_leaves_null_and_backfill_catches_up(
    store: Store, embedder: FastEmbedder
) -> None:
    capture, _ = services(store, SlowEmbedder(embedder, 1.0), timeout=0.2)
    result = capture.capture_file(DEMO / "2026-09-08-atlas-kickoff.txt")
    assert result.status == "captured"
    assert store.vectors.count_missing() > 0  # the capture stands without vectors
    _, embed = services(store, embedder)
    filled = embed.backfill()
    assert filled.error is None and filled.remaining == 0 and filled.embedded > 0


class OtherModel:
    """A second embedding model (8 dimensions) to show the store never mixes two."""

    name = "test/other-model"
    dim = 8

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [[float(len(t) % (i + 2)) + 1.0 for i in range(8)] for t in texts]


def test_changing_the_model_re_embeds_everything(store: Store, embedder: FastEmbedder) -> None:
    capture, _ = services(store, embedder)
    capture.capture_file(DEMO / "2026-09-08-atlas-kickoff.txt")
    _, other = services(store, OtherModel())
    result = other.backfill()
    stats = store.stats()
    assert result.reset and (stats.embedding_model, stats.embedding_dim) == ("test/other-model", 8)
    assert stats.vectors == sum(stats.facts_by_type.values())
    back = EmbedService(store, embedder).backfill()
    assert back.reset and store.stats().embedding_dim == 384


def test_without_a_model_capture_still_works_and_says_why(tmp_path: Path, store: Store) -> None:
    capture, embed = services(store, FastEmbedder(MODEL, tmp_path / "nowhere"))
    result = capture.capture_file(DEMO / "2026-09-08-atlas-kickoff.txt")
    assert result.status == "captured" and store.stats().vectors == 0
    report = embed.backfill()
    assert report.error and "MEMO_EMBED_MODEL_PATH" in report.error


def test_with_no_model_anywhere_fastembed_is_not_even_imported(tmp_path: Path) -> None:
    """No MEMO_EMBED_MODEL_PATH, no download, and fastembed's cache empty: no model can
    load, and memo says so without the second it takes to import fastembed (every
    `memo capture` paid it)."""
    import subprocess
    import sys

    code = """
import sys
from memo_tui.core.embed import FastEmbedder
from memo_tui.core.embed.embedder import EmbeddingUnavailable
try:
    FastEmbedder("sentence-transformers/all-MiniLM-L6-v2").dim
except EmbeddingUnavailable as error:
    print("unavailable:", error)
print("fastembed imported:", "fastembed" in sys.modules)
"""
    (tmp_path / "cache").mkdir()
    env = {**os.environ, "FASTEMBED_CACHE_PATH": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "unavailable: no embedding model" in done.stdout and "is empty" in done.stdout
    assert "fastembed imported: False" in done.stdout


def test_the_int8_copy_embeds_like_the_full_model(embedder: FastEmbedder) -> None:
    """memo runs the model as an int8 copy: its vectors are a space of their own and stay
    within a few percent of the full model's (memo bench recall measures the recall)."""
    full = FastEmbedder(MODEL, model_path())
    texts = [
        "We go with Postgres for the analytics platform; Redshift costs too much.",
        "Kate will finish the migration script by Friday.",
        "Standup moves to 9:30 from next week.",
    ]
    assert (embedder.name, full.name) == (INT8, MODEL)
    for a, b in zip(embedder.embed(texts), full.embed(texts), strict=True):
        assert sum(x * y for x, y in zip(a, b, strict=True)) > 0.97


def test_the_int8_copy_is_off_with_the_setting_or_without_a_local_model(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from memo_tui.core.embed.embedder import embedder_for
    from memo_tui.settings import Settings

    monkeypatch.setenv("MEMO_HOME", str(tmp_path))
    monkeypatch.delenv("MEMO_EMBED_INT8_DIR", raising=False)
    local = Settings(embed_model_path=model_path())
    assert embedder_for(local).name == INT8
    assert local.embed_int8_folder == tmp_path / "cache" / "models"
    assert embedder_for(Settings(embed_model_path=model_path(), embed_int8=False)).name == MODEL
    assert embedder_for(Settings(embed_model_path=None)).name == MODEL  # fastembed's own copy


def test_a_round_is_embedded_in_batches_of_similar_length(store: Store) -> None:
    """A batch is padded to its longest text: texts are batched shortest first."""
    seen: list[list[str]] = []

    class Recording(OtherModel):
        name = "test/recording"

        def embed(self, texts: list[str]) -> list[list[float]]:
            seen.append(texts)
            return super().embed(texts)

    CaptureService(store, CaptureOptions(user="t")).capture_file(
        DEMO / "2026-09-08-atlas-kickoff.txt"
    )
    result = EmbedService(store, Recording(), batch_size=4).backfill()
    assert result.embedded == sum(store.stats().facts_by_type.values()) > 8
    lengths = [len(text) for batch in seen for text in batch]
    assert lengths == sorted(lengths)


def test_a_model_that_fails_after_another_replaced_it_does_not_block_the_new_one(
    store: Store, embedder: FastEmbedder
) -> None:
    """A capture embedding with no model when the downloaded one arrives (`use`): its
    failure comes after the swap, and must not mark the new model unavailable."""
    import threading

    from memo_tui.core.embed import EmbeddingUnavailable

    loading, failing = threading.Event(), threading.Event()

    class Missing:
        name = MODEL
        slow = False  # the late attempt: still loading when the model arrives

        @property
        def dim(self) -> int:
            if self.slow:
                loading.set()
                failing.wait(10)
            raise EmbeddingUnavailable("no embedding model")

        def embed(self, texts: list[str]) -> list[list[float]]:
            raise EmbeddingUnavailable("no embedding model")

    missing = Missing()
    capture, embed = services(store, missing)
    capture.capture_paths([DEMO])  # (its embedding fails at once: no vectors yet)
    assert embed.unavailable
    embed.unavailable, missing.slow = None, True
    late = threading.Thread(target=embed.backfill)
    late.start()
    assert loading.wait(10)
    embed.use(embedder)  # the model arrives while the old attempt is still loading
    failing.set()
    late.join(10)
    assert embed.unavailable is None
    done = embed.backfill()
    assert done.error is None and done.embedded > 0 and done.remaining == 0
