"""What memo's learned pair models share (the copies model, the closer, the linker): pairs of
an earlier record and a later one, each with a probability from a logistic model, calibrated
on held-out sets; each side taken once, most likely first; a pair at or above `propose_at`
is acted on (a copy dropped; a close or a link proposed for review), one at or above
`apply_at` (no wrong one held out) applied."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from memo_tui.core.capture.offline.judge import Embed

LONGEST = 600  # characters of a text embedded


@dataclass(frozen=True)
class Pair:
    earlier: int  # index into the earlier records (an open task, a decision that held)
    later: int  # index into the later ones (a sentence, a new decision)
    probability: float = 0.0


def unit_vectors(texts: Iterable[str], embed: Embed) -> dict[str, np.ndarray]:
    """Each text (its first `LONGEST` characters, the key) as a vector of unit length, each
    embedded once, in batches of 16 of like length (padding costs as much as words)."""
    unique = sorted({t[:LONGEST] or "." for t in texts}, key=lambda t: (len(t), t))
    vectors: dict[str, np.ndarray] = {}
    for start in range(0, len(unique), 16):
        batch = unique[start : start + 16]
        for text, vector in zip(batch, embed(batch), strict=True):
            found = np.asarray(vector, dtype=np.float32)
            vectors[text] = found / max(float(np.linalg.norm(found)), 1e-6)
    return vectors


def likeness(vectors: dict[str, np.ndarray], one: str, other: str) -> float:
    """The cosine likeness of two texts `unit_vectors` embedded."""
    return float(vectors[one[:LONGEST] or "."] @ vectors[other[:LONGEST] or "."])


def assign(pairs: list[Pair], probabilities: np.ndarray) -> list[Pair]:
    """Most likely first, each later record taking one earlier one, each earlier taken once."""
    earlier: set[int] = set()
    later: set[int] = set()
    found = []
    for k in np.argsort(-probabilities, kind="stable"):
        pair = pairs[int(k)]
        if pair.earlier in earlier or pair.later in later:
            continue
        earlier.add(pair.earlier)
        later.add(pair.later)
        found.append(Pair(pair.earlier, pair.later, float(probabilities[k])))
    return found


class Logistic:
    """Shipped weights: a logistic model, its calibration and its two thresholds."""

    def __init__(self, weights: dict[str, np.ndarray], version: str) -> None:
        self.weights = weights
        self.version = version

    @classmethod
    def load(cls, path: Path) -> Logistic:
        with np.load(path, allow_pickle=False) as saved:
            weights = {name: saved[name] for name in saved.files}
        return cls(weights, str(weights["version"]))

    @property
    def propose_at(self) -> float:
        return float(self.weights["thresholds"][0])

    @property
    def apply_at(self) -> float:
        return float(self.weights["thresholds"][1])

    def probabilities(self, inputs: np.ndarray) -> np.ndarray:
        margin = inputs @ self.weights["coef"].astype(np.float32) + float(self.weights["bias"])
        scale, shift = (float(f) for f in self.weights["calibration"])
        return np.asarray(1 / (1 + np.exp(-(scale * margin + shift))))

    @staticmethod
    @cache
    def packaged(path: Path) -> Logistic | None:
        """The weights packaged with memo at `path`, read once (None before it was trained)."""
        return Logistic.load(path) if path.is_file() else None

    def chosen(self, pairs: list[Pair], inputs: np.ndarray) -> list[Pair]:
        """The pairs assigned (`assign`) at or above `propose_at`."""
        if not pairs:
            return []
        found = assign(pairs, self.probabilities(inputs))
        return [p for p in found if p.probability >= self.propose_at]
