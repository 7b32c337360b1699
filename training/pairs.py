"""What training the learned link models shares (the closer, the linker): pairs of an earlier
record and a later one from the labelled sets, a logistic model measured leaving one set out
at a time, its held-out choices (each side taken once, most likely first) calibrating its
probability (Platt scaling) and choosing its thresholds:

- `propose_at`: the lowest probability above which at least `precision` of the held-out
  choices were right (such a pair is proposed for review);
- `apply_at`: the lowest above which none was wrong, over at least `sure` choices (else never:
  every pair is proposed).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memo_tui.core.capture.offline.judge import NEVER, Embed
from memo_tui.core.capture.offline.pairs import Pair, assign


@dataclass
class Pairs:
    """Every candidate pair of the training sets, meeting by meeting."""

    sets: np.ndarray  # per pair: its set
    meeting: np.ndarray  # per pair: its meeting's index
    pairs: list[Pair]
    inputs: np.ndarray
    labels: np.ndarray  # per pair: 1 when the later record is the one that closes or replaces
    hits: np.ndarray  # per pair: right if chosen (a task closed here, by whichever sentence)
    wanted: int  # the links the sets make (some with no candidate pair)


@dataclass
class Collector:
    """Candidate pairs gathered meeting by meeting."""

    sets: list[str] = field(default_factory=list)
    meeting: list[int] = field(default_factory=list)
    pairs: list[Pair] = field(default_factory=list)
    inputs: list[np.ndarray] = field(default_factory=list)
    labels: list[bool] = field(default_factory=list)
    hits: list[bool] = field(default_factory=list)
    meetings: int = 0
    wanted: int = 0

    def add(
        self,
        set_name: str,
        found: list[Pair],
        inputs: np.ndarray,
        labels: list[bool],
        hits: list[bool],
    ) -> None:
        """One meeting's pairs, their inputs, labels and whether each is right if chosen."""
        self.sets += [set_name] * len(found)
        self.meeting += [self.meetings] * len(found)
        self.pairs += found
        self.inputs.append(inputs)
        self.labels += labels
        self.hits += hits
        self.meetings += 1

    def done(self) -> Pairs:
        return Pairs(
            np.asarray(self.sets),
            np.asarray(self.meeting),
            self.pairs,
            np.vstack(self.inputs),
            np.asarray(self.labels, dtype=np.int8),
            np.asarray(self.hits, dtype=bool),
            self.wanted,
        )


@dataclass(frozen=True)
class Model:
    """How one model is fitted and how sure its choices must be."""

    name: str
    features: str  # in the version: weights fit these inputs only
    strength: float  # the inverse of the L2 penalty
    precision: float  # proposed: at least this share right, held out
    sure: int  # applied: none wrong held out over at least this many (0: never applied)


def _fit(x: np.ndarray, y: np.ndarray, strength: float) -> tuple[np.ndarray, float]:
    from sklearn.linear_model import LogisticRegression

    fitted = LogisticRegression(C=strength, max_iter=5000).fit(x, y)
    return fitted.coef_[0].astype(np.float32), float(fitted.intercept_[0])


def _held_out(data: Pairs, strength: float) -> np.ndarray:
    """Each pair's margin from a model that never saw its set."""
    margins = np.zeros(len(data.pairs), dtype=np.float64)
    for name in sorted(set(data.sets)):
        out = data.sets == name
        coef, bias = _fit(data.inputs[~out], data.labels[~out], strength)
        margins[out] = data.inputs[out] @ coef + bias
    return margins


def _chosen(data: Pairs, margins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The held-out choices (margin, right) after each meeting's assignment."""
    found: list[tuple[float, bool]] = []
    for m in sorted(set(data.meeting.tolist())):
        inside = np.flatnonzero(data.meeting == m)
        where = {(data.pairs[i].earlier, data.pairs[i].later): i for i in inside}
        for pair in assign([data.pairs[i] for i in inside], margins[inside]):
            found.append((pair.probability, bool(data.hits[where[pair.earlier, pair.later]])))
    return np.asarray([f[0] for f in found]), np.asarray([f[1] for f in found], dtype=bool)


def _platt(margins: np.ndarray, right: np.ndarray) -> tuple[float, float]:
    from sklearn.linear_model import LogisticRegression

    fitted = LogisticRegression(C=1e6, max_iter=5000).fit(margins[:, None], right)
    return float(fitted.coef_[0][0]), float(fitted.intercept_[0])


def _cuts(p: np.ndarray, right: np.ndarray, model: Model) -> tuple[float, float]:
    order = np.argsort(-p, kind="stable")
    hits = np.cumsum(right[order])
    count = np.arange(1, len(order) + 1)
    good = np.flatnonzero(hits / count >= model.precision)
    propose = float(p[order][good.max()]) if len(good) else NEVER
    clean = np.flatnonzero(hits == count)
    last = int(clean.max()) if len(clean) else -1
    apply = float(p[order][last]) if model.sure and last + 1 >= model.sure else NEVER
    return round(propose, 4), round(apply, 4)


def train(data: Pairs, model: Model, out: Path) -> dict[str, object]:
    """Measure `model` held out, fit it on every set, write its weights to `out`; its
    figures."""
    margins, right = _chosen(data, _held_out(data, model.strength))
    scale, shift = _platt(margins, right)
    p = 1 / (1 + np.exp(-(scale * margins + shift)))
    propose_at, apply_at = _cuts(p, right, model)
    proposed = p >= propose_at
    figures: dict[str, object] = {
        "chosen_held_out": int(len(p)),
        "propose_at": propose_at,
        "apply_at": apply_at,
        "proposed_right": int(right[proposed].sum()),
        "proposed_wrong": int((~right[proposed]).sum()),
        "recall": round(float(right[proposed].sum()) / max(data.wanted, 1), 3),
    }
    print(f"{model.name} held out: {figures}")
    coef, bias = _fit(data.inputs, data.labels, model.strength)
    digest = hashlib.sha256(model.features.encode())
    digest.update(data.labels.tobytes())
    digest.update(np.round(data.inputs, 4).tobytes())
    version = f"{model.name}-{dt.date.today():%Y%m%d}-{digest.hexdigest()[:8]}"
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out,
        coef=coef,
        bias=np.float32(bias),
        calibration=np.asarray([scale, shift], dtype=np.float32),
        thresholds=np.asarray([propose_at, apply_at], dtype=np.float32),
        version=np.asarray(version),
    )
    return figures | {
        "version": version,
        "pairs": len(data.pairs),
        "wanted": data.wanted,
    }


def card(model: Model, figures: dict[str, object], folders: Sequence[Path], about: str) -> str:
    """The model card: `about` says what it reads and decides (Markdown, wrapped)."""
    return "\n".join(
        [
            f"# {model.name}: model card",
            "",
            f"Version `{figures['version']}`, written by `scripts/train-extraction`.",
            about,
            "",
            "## Training data",
            f"{figures['meetings']} meetings of the labelled sets "
            + ", ".join(f.name for f in folders)
            + f": {figures['pairs']:,} candidate pairs, {figures['wanted']} of them to find.",
            "The sets benchdata/unseen.txt lists are never learned from. The sets were written",
            "for memo and are fictional; the weights are memo's, under memo's licence. The",
            "embedding model (sentence-transformers/all-MiniLM-L6-v2) is Apache-2.0.",
            "",
            "## Held-out figures (leave one set out)",
            f"- choices made (each side taken once): {figures['chosen_held_out']}",
            f"- `propose_at` {figures['propose_at']} (at least {model.precision:.0%} right "
            f"above it): {figures['proposed_right']} right, {figures['proposed_wrong']} wrong, "
            f"{figures['recall']:.0%} of those to find",
            *(
                [
                    f"- `apply_at` {figures['apply_at']} (none wrong above it over at least "
                    f"{model.sure}; 1.01: never, every one is proposed)"
                ]
                if model.sure
                else []
            ),
            "",
        ]
    )


Train = Callable[[Sequence[Path], Path, Embed], dict[str, object]]


def main(argv: Sequence[str] | None, model: Model, weights: Path, train: Train, about: str) -> int:
    """Train one model from the sets memo may learn from; write its weights and card."""
    import argparse
    import os

    from training.extraction import _embedder
    from training.labelled import training_sets

    root = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(prog=f"train {model.name}")
    parser.add_argument("--benchdata", type=Path, default=root / "benchdata")
    parser.add_argument("--dev", type=Path, default=root.parent / "shared/data/dev-meetings")
    parser.add_argument("--out", type=Path, default=weights)
    found = os.environ.get("MEMO_EMBED_MODEL_PATH")
    parser.add_argument("--model", type=Path, default=Path(found) if found else None)
    args = parser.parse_args(argv)
    folders = training_sets(args.benchdata, args.dev)
    figures = train(folders, args.out, _embedder(args.model))
    args.out.with_suffix(".md").write_text(card(model, figures, folders, about), encoding="utf-8")
    return 0
