"""The learned judge: how likely each sentence of a meeting is a decision and a task.

The rules read every sentence and score its cues (`sentence_scores`); the judge, a logistic
model learned from labelled meetings (`scripts/train-extraction`, see the model card beside
the weights), turns those scores, the sentence's words and its neighbours' into a calibrated
probability. Two models ship: one on words and cues alone, and one that adds the sentences'
embeddings (the model search uses). memo uses the second when the embedding model is here.

Each probability is compared with thresholds chosen on held-out sets: at or above
`assert_at` the item is asserted (the meetings it was validated on showed at least 95%
precision there); below, it is proposed and waits for the user's word; below `drop_at` (where
those meetings lost 3% of their right items) a rule's item is dropped, in a meeting as long as
those it learned from. At or above `add_at` a sentence the rules passed over is taken as an
item too (held out, 80% of such sentences were right). `propose_at` is for when the judge
chooses the items itself.
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

WEIGHTS = Path(__file__).parent / "models" / "sentences.npz"
KINDS = ("decision", "action")
HASHED = 1 << 15  # buckets for the words and word pairs of a sentence and its neighbours
EMBEDDING_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
FEATURES = "cues-13 words+replies echoes-4"  # in the version: weights fit these inputs only

Embed = Callable[[list[str]], list[list[float]]]


@dataclass(frozen=True)
class Said:
    """One sentence of the meeting as the judge sees it, with the rules' scores."""

    turn: int
    start: int  # where it starts in its turn's text
    text: str
    speaker: str | None
    decision: int  # the rules' decision score (see sentence_scores)
    action: int
    first: bool  # first sentence of its turn
    last: bool
    position: float  # how far into the meeting (0 to 1)


@dataclass(frozen=True)
class Verdict:
    """What the judge makes of one sentence: a probability for each kind."""

    decision: float
    action: float


_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def _grams(text: str) -> list[str]:
    words = _WORD.findall(text.lower())
    return words + [f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)]


def _bucket(gram: str) -> int:
    return zlib.crc32(gram.encode()) & (HASHED - 1)


CUES = 13


def cue_features(said: Sequence[Said]) -> np.ndarray:
    """The rules' scores and where each sentence sits, scaled to about 0..1."""
    turns = Counter(s.speaker for s in said if s.first)
    total = max(sum(turns.values()), 1)
    rows = []
    for n, s in enumerate(said):
        before = said[n - 1] if n else None
        after = said[n + 1] if n + 1 < len(said) else None
        rows.append(
            [
                s.decision / 5,
                s.action / 5,
                s.decision >= 3,
                s.action >= 3,
                s.text.rstrip().endswith("?"),
                s.position,
                min(len(s.text.split()), 60) / 60,
                s.first,
                s.last,
                (before.decision if before else 0) / 5,
                (after.decision if after else 0) / 5,
                (after.action if after else 0) / 5,
                turns[s.speaker] / total,  # how much its speaker talks
            ]
        )
    return np.asarray(rows, dtype=np.float32).reshape(len(said), CUES)


def _replies(said: Sequence[Said]) -> tuple[list[str], list[str]]:
    """For each sentence, the next one another speaker said (the answer to it: agreement,
    an objection) and the last one another speaker said before it (what it answers)."""
    after, before = [""] * len(said), [""] * len(said)
    for n in range(1, len(said)):
        turned = said[n - 1].speaker != said[n].speaker
        before[n] = said[n - 1].text if turned else before[n - 1]
    for n in range(len(said) - 2, -1, -1):
        turned = said[n + 1].speaker != said[n].speaker
        after[n] = said[n + 1].text if turned else after[n + 1]
    return after, before


def word_entries(said: Sequence[Said]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hashed words and word pairs of each sentence, and (at half weight) of its neighbours
    and of what another speaker said just before and just after it, as (sentence, bucket,
    value) triples: a sparse matrix of `HASHED` columns."""
    rows: list[int] = []
    columns: list[int] = []
    values: list[float] = []
    replies, prompts = _replies(said)
    for n, s in enumerate(said):
        parts = [("s", s.text, 1.0), ("r", replies[n], 0.5), ("q", prompts[n], 0.5)]
        if n:
            parts.append(("p", said[n - 1].text, 0.5))
        if n + 1 < len(said):
            parts.append(("n", said[n + 1].text, 0.5))
        for prefix, text, weight in parts:
            grams = set(_grams(text))
            for gram in grams:
                rows.append(n)
                columns.append(_bucket(f"{prefix}:{gram}"))
                values.append(weight / math.sqrt(len(grams)))
    return (
        np.asarray(rows, dtype=np.int64),
        np.asarray(columns, dtype=np.int64),
        np.asarray(values, dtype=np.float32),
    )


def _embedding_features(said: Sequence[Said], embed: Embed) -> np.ndarray:
    """Each sentence's embedding and the mean of its neighbours'. Sentences are embedded
    once each, in batches of like length (padding costs as much as words)."""
    texts = [s.text[:600] or "." for s in said]
    unique = sorted(set(texts), key=lambda t: (len(t), t))  # (the same batches every run)
    vectors: dict[str, np.ndarray] = {}
    for start in range(0, len(unique), 16):
        batch = unique[start : start + 16]
        for text, vector in zip(batch, embed(batch), strict=True):
            vectors[text] = np.asarray(vector, dtype=np.float32)
    own = np.stack([vectors[t] for t in texts]) if texts else np.zeros((0, 384), np.float32)
    zero = np.zeros((1, own.shape[1]), dtype=np.float32)
    before = np.vstack([zero, own[:-1]])
    after = np.vstack([own[1:], zero])
    return np.hstack([own, (before + after) / 2, echoes(own)])


ECHOES = 4
_APART = 3  # sentences nearer than this are its own turn's neighbours, not an echo


def echoes(own: np.ndarray) -> np.ndarray:
    """How much of each sentence the meeting says again elsewhere: its greatest likeness to a
    sentence later on and to one before (a call recapped at the end, a proposal taken up),
    and how many sentences are very like it, each way."""
    unit = own / np.maximum(np.linalg.norm(own, axis=1, keepdims=True), 1e-6)
    alike = unit @ unit.T
    found = np.zeros((len(own), ECHOES), dtype=np.float32)
    for n in range(len(own)):
        later, earlier = alike[n, n + _APART :], alike[n, : max(n - _APART + 1, 0)]
        if len(later):
            found[n, 0], found[n, 2] = later.max(), (later > 0.7).sum() / 5
        if len(earlier):
            found[n, 1], found[n, 3] = earlier.max(), (earlier > 0.7).sum() / 5
    return found


def dense_features(said: Sequence[Said], embed: Embed | None = None) -> np.ndarray:
    """The judge's dense inputs for a meeting's sentences, in order: the cues, and with
    `embed` the embeddings."""
    parts = [cue_features(said)]
    if embed is not None:
        parts.append(_embedding_features(said, embed))
    return np.hstack(parts)


NEVER = 1.01  # a threshold no probability reaches


@dataclass(frozen=True)
class Thresholds:
    assert_at: float
    propose_at: float
    drop_at: float = 0.0  # a rule's item below it is dropped (3% of the right ones, held out)
    add_at: float = NEVER  # a sentence the rules pass over is an item at or above it


class Judge:
    """The shipped sentence models: one on words and cues, one with embeddings too."""

    def __init__(self, weights: dict[str, np.ndarray], version: str) -> None:
        self.weights = weights
        self.version = version

    @classmethod
    def load(cls, path: Path = WEIGHTS) -> Judge:
        with np.load(path, allow_pickle=False) as saved:
            weights = {name: saved[name] for name in saved.files}
        return cls(weights, str(weights["version"]))

    def variant(self, embedded: bool) -> str:
        return "embedded" if embedded else "words"

    def thresholds(self, kind: str, embedded: bool) -> Thresholds:
        found = self.weights[f"{self.variant(embedded)}.{kind}.thresholds"]
        return Thresholds(*(float(f) for f in found[:4]))

    @property
    def meeting_sentences(self) -> int:
        """The shortest meeting, in sentences, it learned from."""
        found = self.weights.get("meeting_sentences")
        return 0 if found is None else int(found)

    def notes_confidence(self, kind: str) -> float:
        """How often an item written under a notes heading was one (measured on the sets)."""
        return float(self.weights[f"notes.{kind}"])

    def judge(self, said: Sequence[Said], embed: Embed | None = None) -> list[Verdict]:
        if not said:
            return []
        dense = dense_features(said, embed)
        words = word_entries(said)
        variant = self.variant(embed is not None)
        chances = {kind: self._probability(dense, words, variant, kind) for kind in KINDS}
        return [
            Verdict(float(d), float(a))
            for d, a in zip(chances["decision"], chances["action"], strict=True)
        ]

    def _probability(
        self,
        dense: np.ndarray,
        words: tuple[np.ndarray, np.ndarray, np.ndarray],
        variant: str,
        kind: str,
    ) -> np.ndarray:
        name = f"{variant}.{kind}"
        rows, columns, values = words
        by_word = self.weights[f"{name}.words"].astype(np.float32)
        margin = dense @ self.weights[f"{name}.dense"].astype(np.float32)
        margin += np.bincount(rows, values * by_word[columns], minlength=len(dense))
        bias, scale, shift = self.weights[f"{name}.calibration"]
        return np.asarray(1 / (1 + np.exp(-(scale * (margin + bias) + shift))))


@cache
def shipped() -> Judge:
    """The judge packaged with memo."""
    return Judge.load()
