"""The synthetic store `memo bench search` times: N facts with seeded text (topic words, shared
meeting words, names, numbers) and 384-d unit vectors clustered by topic, and the queries asked
of it (noisy copies of stored vectors, with a few of the same fact's words as text).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from memo_tui.core.capture.offline.text import STOPWORDS
from store import (
    FACT_TYPES,
    NewActionItem,
    NewCapture,
    NewDecision,
    NewExcerpt,
    Provenance,
    Store,
    utc_now,
)

Progress = Callable[[str], None]
Vectors = npt.NDArray[np.float32]

MODEL = "bench/synthetic-384"
DIM = 384
FACTS_PER_CAPTURE = 100  # a summary, 4 decisions, 4 action items, the rest excerpts
TOPICS = 48
TOPIC_WORDS = 60
VECTOR_BATCH = 5_000
FACT_NOISE = 1.0  # a fact's cosine with its topic centre is about 1 / sqrt(1 + noise^2)
QUERY_NOISE = 0.35
MEETING_WORDS = """budget release deploy schema migration invoice client contract review
    staging pilot vendor roadmap sprint launch pricing audit backlog incident outage hiring
    onboarding security licence database cluster latency dashboard report forecast renewal
    integration workshop training rollout warehouse scanner driver route payment refund
    supplier quote proposal timeline milestone deadline handover retro metrics survey design
    prototype feedback testing support ticket escalation compliance policy backup storage""".split()
NAMES = """Priya Sam Tom Ana Lars Mei Jonas Fatima Diego Ingrid Kwame Sofia Omar Hana Luca
    Nadia Ben Chloe Ravi Elena Yusuf Greta Mateo Aiko Noah Leila Pavel Zara Ivan Maya""".split()
_CONSONANTS = list("bdfghklmnprstvz")
_VOWELS = list("aeiou")


@dataclass(frozen=True)
class Corpus:
    """The facts of a synthetic store: row i of `vectors` is the vector of `keys[i]`."""

    keys: list[int]
    texts: list[str]  # as the facts view shows them
    vectors: Vectors
    tokens: list[list[str]]  # the words each fact was made of, for query text
    fact_types: dict[str, int]
    captures: int
    seconds: dict[str, float]


def _vocabulary(rng: np.random.Generator) -> list[str]:
    """TOPICS x TOPIC_WORDS made-up words (topic t owns one slice), then the shared words."""
    made: dict[str, None] = {}
    while len(made) < TOPICS * TOPIC_WORDS:
        syllables = rng.integers(2, 4)
        word = "".join(rng.choice(_CONSONANTS) + rng.choice(_VOWELS) for _ in range(syllables))
        if word not in STOPWORDS and word not in MEETING_WORDS:
            made[word] = None
    return [*made, *MEETING_WORDS]


def _zipf(size: int) -> npt.NDArray[np.float64]:
    weights = 1.0 / np.arange(1, size + 1) ** 1.1
    return np.asarray(weights / weights.sum(), dtype=np.float64)


def _fact_tokens(rng: np.random.Generator, topics: npt.NDArray[np.int64]) -> list[list[str]]:
    """6 to 18 words per fact: its topic's words (Zipf), meeting words, names, numbers."""
    vocab = np.array(_vocabulary(rng), dtype=object)
    count, width = len(topics), 18
    kinds = rng.choice(4, size=(count, width), p=[0.55, 0.25, 0.1, 0.1])
    topic_word = topics[:, None] * TOPIC_WORDS + rng.choice(
        TOPIC_WORDS, size=(count, width), p=_zipf(TOPIC_WORDS)
    )
    meeting_word = TOPICS * TOPIC_WORDS + rng.choice(
        len(MEETING_WORDS), size=(count, width), p=_zipf(len(MEETING_WORDS))
    )
    names = np.array(NAMES, dtype=object)[rng.integers(0, len(NAMES), (count, width))]
    numbers = rng.integers(100, 100_000, size=(count, width)).astype(str).astype(object)
    words = np.choose(kinds, [vocab[topic_word], vocab[meeting_word], names, numbers])
    lengths = rng.integers(6, width + 1, size=count)
    return [list(row[:n]) for row, n in zip(words, lengths, strict=True)]


def _fact_type(index: int) -> str:
    position = index % FACTS_PER_CAPTURE
    if position == 0:
        return "summary"
    return "decision" if position <= 4 else "action_item" if position <= 8 else "excerpt"


def _capture(number: int, texts: list[str], first: int, seed: int) -> NewCapture:
    """One synthetic meeting holding facts `first` .. `first + len(texts) - 1`."""
    by_kind: dict[str, list[str]] = {}
    lines = []  # an excerpt's line in the capture's text
    for i, body in enumerate(texts):
        kind = _fact_type(first + i)
        by_kind.setdefault(kind, []).append(body)
        if kind == "excerpt":
            lines.append(i + 1)
    owner = NAMES[number % len(NAMES)]
    return NewCapture(
        source_kind="bench",
        source_path=None,
        source_format="txt",
        content_hash=f"bench-search-{seed}-{number}",
        signature=None,
        title=f"Synthetic meeting {number}",
        occurred_at=f"{2024 + number % 3}-{1 + number % 12:02d}-{1 + number % 28:02d}",
        raw_text="\n".join(texts),
        text="\n".join(texts),
        line_count=len(texts),
        summary=by_kind["summary"][0] if "summary" in by_kind else None,
        meta={},
        extractor="bench",
        truncated=False,
        provenance=Provenance(
            "bench", f"synthetic-{number}", utc_now(), triggered_by_agent="memo bench"
        ),
        decisions=[
            NewDecision(t, None, owner, None, None, None) for t in by_kind.get("decision", [])
        ],
        action_items=[
            NewActionItem(t, owner, None, None, None, None) for t in by_kind.get("action_item", [])
        ],
        excerpts=[
            NewExcerpt(line, line, t)
            for line, t in zip(lines, by_kind.get("excerpt", []), strict=True)
        ],
    )


def _unit(rows: npt.NDArray[np.float64]) -> Vectors:
    return np.asarray(rows / np.linalg.norm(rows, axis=1, keepdims=True), dtype=np.float32)


def _write_facts(
    store: Store, tokens: list[list[str]], seed: int, say: Progress
) -> list[tuple[int, str]]:
    """Write the captures; (fact key, stored text) of each generated fact, in generation order."""
    texts = [" ".join(words) for words in tokens]
    for n, first in enumerate(range(0, len(texts), FACTS_PER_CAPTURE)):
        store.captures.write(_capture(n, texts[first : first + FACTS_PER_CAPTURE], first, seed))
        if (n + 1) % 200 == 0:
            say(f"{len(texts):,} facts: {first + FACTS_PER_CAPTURE:,} written")
    # Within a type, keys grow in insertion order, and vectors.missing sorts by key.
    stored: dict[str, list[tuple[int, str]]] = {}
    for key, body in store.vectors.missing(len(texts)):
        stored.setdefault(FACT_TYPES[(key >> 32) - 1], []).append((key, body))
    made: dict[str, list[int]] = {}
    for index in range(len(texts)):
        made.setdefault(_fact_type(index), []).append(index)
    facts: list[tuple[int, str]] = [(0, "")] * len(texts)
    for kind, indexes in made.items():
        for index, fact in zip(indexes, stored.get(kind, []), strict=True):
            facts[index] = fact
    return facts


def build_store(
    store: Store, facts: int, seed: int = 0, progress: Progress | None = None
) -> Corpus:
    """Fill an empty store with `facts` synthetic facts and their vectors."""
    say = progress or (lambda _: None)
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    topics = rng.integers(0, TOPICS, size=facts)
    tokens = _fact_tokens(rng, topics)
    say(f"{facts:,} facts: writing captures")
    written = _write_facts(store, tokens, seed, say)
    keys = [key for key, _ in written]
    wrote = time.perf_counter()
    centres = _unit(rng.standard_normal((TOPICS, DIM)))
    noise = rng.standard_normal((facts, DIM)) * FACT_NOISE / np.sqrt(DIM)
    unit = _unit(centres[topics] + noise)
    store.vectors.set_space(MODEL, DIM)
    for first in range(0, facts, VECTOR_BATCH):
        batch = range(first, min(first + VECTOR_BATCH, facts))
        store.vectors.put_many([(keys[i], unit[i].tobytes(), f"bench-{i}") for i in batch], MODEL)
        say(f"{facts:,} facts: {batch.stop:,} vectors written")
    return Corpus(
        keys=keys,
        texts=[body for _, body in written],
        vectors=unit,
        tokens=tokens,
        fact_types=dict(Counter(_fact_type(i) for i in range(facts))),
        captures=len(range(0, facts, FACTS_PER_CAPTURE)),
        seconds={"captures": wrote - started, "vectors": time.perf_counter() - wrote},
    )


def make_queries(corpus: Corpus, count: int, seed: int) -> tuple[list[str], Vectors]:
    """Noisy copies of stored vectors, each with two to four words of the same fact as text."""
    rng = np.random.default_rng([seed, 1])
    picks = rng.integers(0, len(corpus.keys), size=count)
    noise = rng.standard_normal((count, DIM)) * QUERY_NOISE / np.sqrt(DIM)
    texts = []
    for pick in picks:
        words = corpus.tokens[pick]
        chosen = rng.choice(
            len(words), size=min(len(words), int(rng.integers(2, 5))), replace=False
        )
        texts.append(" ".join(words[i] for i in sorted(chosen)))
    return texts, _unit(corpus.vectors[picks] + noise)
