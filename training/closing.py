"""Train the closer (memo_tui/core/history/models/closes.npz): which sentence of a later
meeting says an earlier open task is done.

For each meeting of each labelled set memo may learn from, in date order, the tasks of the
set's earlier meetings still open then (not closed in their own meeting nor in one between)
are paired with the meeting's sentences that share one of their key words (`candidates`); a
pair is right when the sentence holds the quote of the set's `updates` entry that `closes`
that task. A logistic model is measured leaving one set out at a time; its held-out closes
(each sentence one task, each task once, most likely first) calibrate its probability
(Platt scaling) and choose its thresholds:

- `propose_at`: the lowest probability above which at least 85% of the held-out closes were
  right (such a close is proposed for review);
- `apply_at`: the lowest above which none was wrong, over at least 30 closes (else never: a
  close is always proposed).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memo_tui.core.capture.offline.judge import NEVER, Embed
from memo_tui.core.history import closing_model as model
from training.labelled import _overlaps, flat, labelled_meetings

STRENGTH = 1.0  # the inverse of the L2 penalty
PRECISION = 0.85  # proposed closes: at least this precision held out
SURE = 30  # closes above `apply_at` held out, all right, before memo applies one itself


@dataclass
class Meeting:
    """A later meeting of a set: its sentences, the tasks open before it, the answers."""

    set_name: str
    tasks: list[model.Task]
    said: list[model.Sentence]
    others: list[str]  # the earlier meetings' decisions
    closed: list[bool]  # per task: this meeting closes it
    quotes: list[str | None]  # per task: the words that close it here


def meetings(folder: Path) -> list[Meeting]:
    rows = [json.loads(line) for line in (folder / "truth.jsonl").read_text().splitlines() if line]
    heard = {m.file: m for m in labelled_meetings(folder)}
    order = sorted(rows, key=lambda r: (r["date"], r["file"]))
    place = {r["file"]: k for k, r in enumerate(order)}
    found = []
    for k, row in enumerate(order):
        updates = {u["id"]: u.get("quote") for u in row.get("updates") or []}
        tasks, closed, quotes = [], [], []
        for earlier in order[:k]:
            for action in earlier["actions"]:
                by, _, update = (action.get("closed_by") or "").partition("#")
                if by == earlier["file"] or (by in place and place[by] < k):
                    continue  # closed in its own meeting, or before this one
                tasks.append(model.Task(action["quote"], action.get("owner")))
                closed.append(by == row["file"])
                quotes.append(updates.get(update) if by == row["file"] else None)
        said = [model.Sentence(s.speaker, s.text) for s in heard[row["file"]].said]
        others = [d["text"] for earlier in order[:k] for d in earlier["decisions"]]
        found.append(Meeting(folder.name, tasks, said, others, closed, quotes))
    return found


@dataclass
class Pairs:
    sets: np.ndarray  # per pair
    meeting: np.ndarray  # per pair: its meeting's index
    pairs: list[model.Pair]
    inputs: np.ndarray
    labels: np.ndarray
    closed: list[list[bool]]  # per meeting, per task
    closes: int  # tasks closed by a later meeting


def collect(folders: Sequence[Path], embed: Embed) -> Pairs:
    sets, where, pairs, inputs, labels, closed = [], [], [], [], [], []
    for folder in folders:
        for meeting in meetings(folder):
            if not meeting.tasks or not meeting.said:
                continue
            found, x = model.candidates(meeting.tasks, meeting.said, meeting.others, embed)
            for pair in found:
                quote = meeting.quotes[pair.task]
                text = flat(meeting.said[pair.sentence].text)
                labels.append(bool(quote) and _overlaps(text, flat(quote or "")))
            sets += [folder.name] * len(found)
            where += [len(closed)] * len(found)
            pairs += found
            inputs.append(x)
            closed.append(meeting.closed)
    return Pairs(
        np.asarray(sets),
        np.asarray(where),
        pairs,
        np.vstack(inputs),
        np.asarray(labels, dtype=np.int8),
        closed,
        sum(sum(c) for c in closed),
    )


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    from sklearn.linear_model import LogisticRegression

    fitted = LogisticRegression(C=STRENGTH, max_iter=5000).fit(x, y)
    return fitted.coef_[0].astype(np.float32), float(fitted.intercept_[0])


def _held_out(data: Pairs) -> np.ndarray:
    """Each pair's margin from a model that never saw its set."""
    margins = np.zeros(len(data.pairs), dtype=np.float64)
    for name in sorted(set(data.sets)):
        out = data.sets == name
        coef, bias = _fit(data.inputs[~out], data.labels[~out])
        margins[out] = data.inputs[out] @ coef + bias
    return margins


def _closes(data: Pairs, margins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The held-out closes (margin, right) after each meeting's assignment."""
    found: list[tuple[float, bool]] = []
    for m in range(len(data.closed)):
        inside = np.flatnonzero(data.meeting == m)
        for pair in model.assign([data.pairs[i] for i in inside], margins[inside]):
            found.append((pair.probability, data.closed[m][pair.task]))
    return np.asarray([f[0] for f in found]), np.asarray([f[1] for f in found], dtype=bool)


def _platt(margins: np.ndarray, right: np.ndarray) -> tuple[float, float]:
    from sklearn.linear_model import LogisticRegression

    fitted = LogisticRegression(C=1e6, max_iter=5000).fit(margins[:, None], right)
    return float(fitted.coef_[0][0]), float(fitted.intercept_[0])


def _cuts(p: np.ndarray, right: np.ndarray) -> tuple[float, float]:
    order = np.argsort(-p, kind="stable")
    hits = np.cumsum(right[order])
    count = np.arange(1, len(order) + 1)
    good = np.flatnonzero(hits / count >= PRECISION)
    propose = float(p[order][good.max()]) if len(good) else NEVER
    clean = np.flatnonzero(hits == count)
    last = int(clean.max()) if len(clean) else -1
    apply = float(p[order][last]) if last + 1 >= SURE else NEVER
    return round(propose, 4), round(apply, 4)


def train(folders: Sequence[Path], out: Path, embed: Embed) -> dict[str, object]:
    data = collect(folders, embed)
    print(
        f"closer: {len(data.closed)} meetings, {data.closes} tasks closed by a later one, "
        f"{len(data.pairs):,} pairs, {int(data.labels.sum())} right"
    )
    margins, right = _closes(data, _held_out(data))
    scale, shift = _platt(margins, right)
    p = 1 / (1 + np.exp(-(scale * margins + shift)))
    propose_at, apply_at = _cuts(p, right)
    proposed = p >= propose_at
    figures = {
        "closes_held_out": int(len(p)),
        "propose_at": propose_at,
        "apply_at": apply_at,
        "proposed_right": int(right[proposed].sum()),
        "proposed_wrong": int((~right[proposed]).sum()),
        "recall": round(float(right[proposed].sum()) / max(data.closes, 1), 3),
    }
    print(f"closer held out: {figures}")
    coef, bias = _fit(data.inputs, data.labels)
    digest = hashlib.sha256(model.FEATURES.encode())
    digest.update(data.labels.tobytes())
    digest.update(np.round(data.inputs, 4).tobytes())
    version = f"closes-{dt.date.today():%Y%m%d}-{digest.hexdigest()[:8]}"
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
        "meetings": len(data.closed),
        "pairs": len(data.pairs),
        "closes": data.closes,
    }


def card(figures: dict[str, object], folders: Sequence[Path]) -> str:
    return "\n".join(
        [
            "# The closer: model card",
            "",
            f"Version `{figures['version']}`, written by `scripts/train-extraction`. A logistic",
            "model (NumPy inference, `memo_tui/core/history/closing_model.py`) of whether a",
            "sentence of a later meeting says an earlier open task is done. Its inputs, for",
            "each task and sentence sharing one of the task's key words: how alike they are",
            "(the embeddings of sentence-transformers/all-MiniLM-L6-v2, the model search uses),",
            "how much of the task's rarer words the sentence says, whether the task's owner says",
            "it or is named, the rules' done and not-done cues and their verdict, the sentence's",
            "hashed",
            f"words ({model.HASHED} buckets), and how the pair ranks among the others. Without the",
            "embedding model memo closes by the rules alone (`closing.py`).",
            "",
            "## Training data",
            f"{figures['meetings']} meetings of the labelled sets "
            + ", ".join(f.name for f in folders)
            + f": {figures['pairs']:,} pairs, {figures['closes']} tasks closed by a later meeting",
            "(the sets' `updates`). The sets benchdata/unseen.txt lists are never learned from.",
            "The sets were written for memo and are fictional; the weights are memo's, under",
            "memo's licence. The embedding model is Apache-2.0.",
            "",
            "## Held-out figures (leave one set out)",
            f"- closes made (each sentence one task, each task once): {figures['closes_held_out']}",
            f"- `propose_at` {figures['propose_at']} (at least {PRECISION:.0%} right above it): "
            f"{figures['proposed_right']} right, {figures['proposed_wrong']} wrong, "
            f"{figures['recall']:.0%} of the tasks closed later",
            f"- `apply_at` {figures['apply_at']} (none wrong above it over at least {SURE} "
            "closes; 1.01: never, every close is proposed)",
            "",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    import argparse
    import os

    from training.extraction import _embedder
    from training.labelled import training_sets

    root = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(prog="python -m training.closing", description=__doc__)
    parser.add_argument("--benchdata", type=Path, default=root / "benchdata")
    parser.add_argument("--dev", type=Path, default=root.parent / "shared/data/dev-meetings")
    parser.add_argument("--out", type=Path, default=model.WEIGHTS)
    found = os.environ.get("MEMO_EMBED_MODEL_PATH")
    parser.add_argument("--model", type=Path, default=Path(found) if found else None)
    args = parser.parse_args(argv)
    folders = training_sets(args.benchdata, args.dev)
    figures = train(folders, args.out, _embedder(args.model))
    (args.out.parent / "MODEL_CARD.md").write_text(card(figures, folders), encoding="utf-8")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
