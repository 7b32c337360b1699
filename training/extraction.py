"""Train the extraction judge (memo_tui/core/capture/offline/models/sentences.npz).

Every sentence of every labelled set memo may learn from (`training_sets`: the dev set and
the held-out sets not kept unseen) is read as capture reads it (`candidates.heard`), scored by
the rules, and labelled by the set's truth. Two logistic models per kind (decision, action
item) are fitted: one on the rules' cues and the sentence's hashed words, one with the
sentences' embeddings too. Each is measured leaving one set out at a time; those held-out
predictions, on the sentences the rules take as items (the ones a user is shown a confidence
for), calibrate its probability (Platt scaling) and choose its two thresholds:

- `assert_at`: the lowest probability above which the held-out sentences the rules take as
  items were at least 95% right (an item there is asserted);
- `propose_at`: the highest probability above which 92% of the held-out items still lie (when
  the judge chooses the items, not the rules: an experiment, not the default);
- `drop_at`: the highest probability below which the rules' held-out items held no more than
  3% of the right ones (a rule's item below it is dropped: chatter and copies);
- `add_at`: the lowest probability above which the held-out sentences the rules take as
  neither kind were at least 80% right (such a sentence there is taken as a proposed item:
  what the rules' cues miss, like a call agreed without "let's").

Run it with `scripts/train-extraction`; it prints its data counts and held-out figures and
writes the weights and the model card.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memo_tui.core.capture.offline import judge as judged
from memo_tui.core.capture.offline.candidates import heard, note_items
from training.labelled import LabelledMeeting, labelled_meetings, training_sets

SEED = 0
STRENGTH = 3.0  # the inverse of the L2 penalty (chosen leaving sets out, like the rest)
PRECISION = 0.95  # asserted items: at least this precision on held-out sets
RECALL = 0.92  # asserted + proposed: at least this share of the held-out items
KEEP = 0.97  # of the rules' items, the judge drops none that would cost more than 3% of the right
ADD = 0.8  # sentences the rules pass over: the judge takes them where this share was right


@dataclass
class Data:
    """The sentences of the training sets, in order, with their inputs and labels."""

    sets: list[str]  # the set of each sentence
    said: list[judged.Said]
    labels: dict[str, np.ndarray]  # kind -> 0/1 per sentence
    counted: dict[str, np.ndarray]  # kind -> False where a sentence restates an item unquoted
    meetings: list[tuple[int, int]]  # each meeting's slice of the sentences
    notes: dict[str, list[int]]  # kind -> for each item written under a heading, 1 if it is one


def collect(folders: Sequence[Path]) -> Data:
    data = Data([], [], {}, {}, [], {kind: [] for kind in judged.KINDS})
    labels: dict[str, list[int]] = {kind: [] for kind in judged.KINDS}
    counted: dict[str, list[bool]] = {kind: [] for kind in judged.KINDS}
    for folder in folders:
        for meeting in labelled_meetings(folder):
            _add(data, labels, counted, meeting)
    data.labels = {kind: np.asarray(found, dtype=np.int8) for kind, found in labels.items()}
    data.counted = {kind: np.asarray(found, dtype=bool) for kind, found in counted.items()}
    return data


def _add(
    data: Data,
    labels: dict[str, list[int]],
    counted: dict[str, list[bool]],
    meeting: LabelledMeeting,
) -> None:
    truth = {(s.turn, s.start): s for s in meeting.said}
    by_turn: dict[int, set[str]] = {}
    for s in meeting.said:
        by_turn.setdefault(s.turn, set()).update(s.labels)
    noted, used = note_items(meeting.transcript)
    for item in noted:
        data.notes[item.kind].append(int(item.kind in by_turn.get(item.turn_index, set())))
    start = len(data.said)
    for one in heard(meeting.transcript):
        if one.said.turn in used:
            continue  # written under a notes heading: those items are judged as notes
        data.said.append(one.said)
        data.sets.append(meeting.set_name)
        found = truth.get((one.said.turn, one.said.start))
        for kind in judged.KINDS:
            labels[kind].append(int(found is not None and kind in found.labels))
            # Said again in other words (a recap, a confirmation): neither a clean example of
            # the item nor of chatter. Left out of fitting and of the figures.
            counted[kind].append(found is None or kind not in found.restates)
    data.meetings.append((start, len(data.said)))


def inputs(data: Data, embed: judged.Embed | None) -> object:
    """The design matrix (sparse): dense features, then the hashed words."""
    from scipy.sparse import csr_matrix, hstack

    blocks = []
    for start, end in data.meetings:
        said = data.said[start:end]
        dense = judged.dense_features(said, embed)
        rows, columns, values = judged.word_entries(said)
        words = csr_matrix((values, (rows, columns)), shape=(len(said), judged.HASHED))
        blocks.append(hstack([csr_matrix(dense), words]).tocsr())
    return hstack([]) if not blocks else _stack(blocks)


def _stack(blocks: list[object]) -> object:
    from scipy.sparse import vstack

    return vstack(blocks).tocsr()


def _fit(x: object, y: np.ndarray) -> object:
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=STRENGTH, max_iter=5000, random_state=SEED).fit(x, y)


def held_out(x: object, y: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """Each sentence's margin from a model fitted without its set."""
    margins = np.zeros(len(y))
    for name in sorted(set(sets)):
        out = sets == name
        model = _fit(x[~out], y[~out])  # type: ignore[index]
        margins[out] = model.decision_function(x[out])  # type: ignore[index, attr-defined]
    return margins


def platt(margins: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Scale and shift that turn held-out margins into calibrated probabilities."""
    from sklearn.linear_model import LogisticRegression

    fitted = LogisticRegression(C=1e6, max_iter=1000).fit(margins.reshape(-1, 1), y)
    return float(fitted.coef_[0, 0]), float(fitted.intercept_[0])


def thresholds(p: np.ndarray, y: np.ndarray, precision: float = PRECISION) -> tuple[float, float]:
    """(assert_at, propose_at) from held-out probabilities: assert_at is the lowest cut above
    which `precision` of them were right; 1.01 asserts nothing."""
    order = np.argsort(-p)
    hits = np.cumsum(y[order])
    right = hits / np.arange(1, len(y) + 1)
    recall = hits / max(int(y.sum()), 1)
    assert_at = judged.NEVER
    # the lowest cut whose items above are all at least PRECISION right (and not a handful)
    for n in range(len(order) - 1, 19, -1):
        if right[n] >= precision and (n + 1 == len(order) or p[order[n]] > p[order[n + 1]]):
            assert_at = float(p[order[n]])
            break
    reach = int(np.searchsorted(recall, RECALL))
    propose_at = float(p[order[min(reach, len(order) - 1)]])
    return assert_at, min(propose_at, assert_at)


def keeping(p: np.ndarray, y: np.ndarray, share: float) -> float:
    """The highest probability below which the rules' items may be dropped while `share` of
    the right ones stay (0: drop none)."""
    right = np.sort(p[y == 1])
    if not len(right):
        return 0.0
    lost = int(np.floor(len(right) * (1 - share)))  # right items it may drop
    return float(right[lost]) if lost else 0.0


def _dropped(p: np.ndarray, y: np.ndarray, drop_at: float) -> dict[str, int]:
    gone = p < drop_at
    return {"wrong": int((gone & (y == 0)).sum()), "right": int((gone & (y == 1)).sum())}


def figures(p: np.ndarray, y: np.ndarray, cut: tuple[float, float]) -> dict[str, float]:
    from sklearn.metrics import average_precision_score

    asserted, kept = p >= cut[0], p >= cut[1]
    total = max(int(y.sum()), 1)
    return {
        "average_precision": round(float(average_precision_score(y, p)), 3),
        "asserted_precision": round(float(y[asserted].mean()) if asserted.any() else 1.0, 3),
        "asserted_recall": round(float(y[asserted].sum()) / total, 3),
        "proposed_precision": round(float(y[kept & ~asserted].mean()) if kept.any() else 0, 3),
        "kept_recall": round(float(y[kept].sum()) / total, 3),
        "kept_share": round(float(kept.mean()), 3),
    }


def reliability(p: np.ndarray, y: np.ndarray) -> list[tuple[str, int, float, float]]:
    edges = [0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0001]
    rows = []
    for low, high in zip(edges, edges[1:], strict=False):
        inside = (p >= low) & (p < high)
        if inside.any():
            rows.append(
                (
                    f"{low:.1f}-{min(high, 1):.1f}",
                    int(inside.sum()),
                    float(p[inside].mean()),
                    float(y[inside].mean()),
                )
            )
    return rows


def train(benchdata: Path, dev: Path, out: Path, model_path: Path | None) -> dict[str, object]:
    started = time.monotonic()
    folders = training_sets(benchdata, dev)
    data = collect(folders)
    sets = np.asarray(data.sets)
    print(
        f"{len(folders)} labelled sets, {len(data.meetings)} meetings, {len(data.said)} sentences"
    )
    for kind in judged.KINDS:
        print(
            f"  {kind}: {int(data.labels[kind].sum())} positive sentences, "
            f"{int((~data.counted[kind]).sum())} left out as restatements"
        )
    embed = _embedder(model_path)
    weights: dict[str, np.ndarray] = {}
    card: dict[str, object] = {
        "sets": [f.name for f in folders],
        "meetings": len(data.meetings),
        "sentences": len(data.said),
        "positives": {k: int(v.sum()) for k, v in data.labels.items()},
        "held_out": {},
    }
    taken = {kind: _rules_take(data.said, kind) for kind in judged.KINDS}
    neither = ~taken["decision"] & ~taken["action"]  # the sentences the judge may add
    for variant, use in (("words", None), ("embedded", embed)):
        print(f"{variant}: building inputs", flush=True)
        x = inputs(data, use)
        for kind in judged.KINDS:
            keep = data.counted[kind]
            y = data.labels[kind][keep]
            x_kind = x[keep]  # type: ignore[index]
            margins = held_out(x_kind, y, sets[keep])
            # The rules choose the items (the judge rates them), so the probability is
            # calibrated on the sentences the rules take for this kind (what a user is shown a
            # confidence for), and the threshold that asserts is read on them too; the one
            # that proposes, for when the judge chooses, on every sentence.
            proposed = taken[kind][keep]
            scale, shift = platt(margins[proposed], y[proposed])
            p = 1 / (1 + np.exp(-(scale * margins + shift)))
            cut = (thresholds(p[proposed], y[proposed])[0], thresholds(p, y)[1])
            drop_at = keeping(p[proposed], y[proposed], KEEP)
            passed = neither[keep]
            add_at = thresholds(p[passed], y[passed], ADD)[0]
            added = passed & (p >= add_at)
            scored = figures(p[proposed], y[proposed], cut)
            card["held_out"][f"{variant}.{kind}"] = {  # type: ignore[index]
                **scored,
                "assert_at": round(cut[0], 3),
                "propose_at": round(cut[1], 3),
                "drop_at": round(drop_at, 3),
                "dropped": _dropped(p[proposed], y[proposed], drop_at),
                "add_at": round(add_at, 3),
                "added": {"right": int(y[added].sum()), "wrong": int((1 - y[added]).sum())},
                "reliability": reliability(p[proposed], y[proposed]),
                "by_set": _by_set(p[proposed], y[proposed], sets[keep][proposed], cut),
            }
            print(
                f"  {kind}: {scored}  assert_at {cut[0]:.3f}  propose_at {cut[1]:.3f}  "
                f"drop_at {drop_at:.3f} {_dropped(p[proposed], y[proposed], drop_at)}  "
                f"add_at {add_at:.3f} (right {int(y[added].sum())} of {int(added.sum())})"
            )
            model = _fit(x_kind, y)
            coef = model.coef_[0]  # type: ignore[attr-defined]
            dense = coef.shape[0] - judged.HASHED
            name = f"{variant}.{kind}"
            weights[f"{name}.dense"] = coef[:dense].astype(np.float32)
            weights[f"{name}.words"] = coef[dense:].astype(np.float16)
            bias = float(model.intercept_[0])  # type: ignore[attr-defined]
            weights[f"{name}.calibration"] = np.asarray([bias, scale, shift], dtype=np.float64)
            weights[f"{name}.thresholds"] = np.asarray([*cut, drop_at, add_at], dtype=np.float64)
    for kind in judged.KINDS:
        written = np.asarray(data.notes[kind] or [1])
        weights[f"notes.{kind}"] = np.asarray((written.sum() + 1) / (len(written) + 2))
        print(
            f"notes: {len(data.notes[kind])} {kind} items under a heading, "
            f"{float(weights[f'notes.{kind}']):.2f} of them right"
        )
    # The shortest meeting it learned from: a shorter one is outside what it knows.
    weights["meeting_sentences"] = np.asarray(min(end - start for start, end in data.meetings))
    card["meeting_sentences"] = int(weights["meeting_sentences"])
    version = _version(data)
    weights["version"] = np.asarray(version)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **weights)  # type: ignore[arg-type]
    card["version"] = version
    print(f"trained in {time.monotonic() - started:.0f} s")
    (out.parent / "sentences.json").write_text(json.dumps(card, indent=1) + "\n")
    (out.parent / "MODEL_CARD.md").write_text(model_card(card))
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB), version {version}")
    return card


def _rules_take(said: list[judged.Said], kind: str) -> np.ndarray:
    """The sentences whose rule score for `kind` reaches the rules' threshold."""
    from memo_tui.core.capture.offline.sentence_scores import ACTION_THRESHOLD, DECISION_THRESHOLD

    if kind == "decision":
        return np.asarray([s.decision >= DECISION_THRESHOLD for s in said])
    return np.asarray([s.action >= ACTION_THRESHOLD for s in said])


def model_card(card: dict[str, Any]) -> str:
    """The model card beside the weights: what it is, what it learned from, how it scored."""
    rows = [
        "# The extraction judge (`sentences.npz`)",
        "",
        f"Version `{card['version']}`, written by `scripts/train-extraction` (seeded: the same",
        "sets give the same weights). Inference is NumPy alone (`judge.py`); fitting needs the",
        "`train` extra (scikit-learn, SciPy).",
        "",
        "## What it does",
        "For each sentence of a meeting that the offline extractor reads, a probability that it",
        "states a decision and one that it gives an action item. Two logistic models per kind:",
        "`words` (the rules' cue scores, where the sentence sits, who speaks, and hashed words",
        "and word pairs of the sentence, its neighbours and what another speaker said just",
        "before and after it) and `embedded` (the same, plus the all-MiniLM-L6-v2 embeddings,",
        "int8, of the sentence and the mean of its neighbours', and how like it the likest",
        "sentence said later and earlier in the meeting is: a call recapped, a proposal taken up).",
        "Margins are calibrated by Platt scaling fitted on predictions for held-out sets, on the",
        "sentences the rules take as items: a confidence is how often such an item was right.",
        "The rules choose the items and the judge rates them: an item at or above `assert_at`",
        "is asserted, any other proposed; one below `drop_at` is dropped, in a meeting at least",
        "as long as the shortest it learned from "
        f"({card['meeting_sentences']} sentences; a shorter",
        "one keeps the rules' items, rated). `assert_at` is the lowest probability above which at",
        "least 95% of the rules' held-out items were right (1.01: none was sure enough, so every",
        "such item is proposed); `drop_at` the highest below which held-out sets lost no more",
        "than 3% of their right items. A sentence the rules take as neither kind is taken as a",
        "proposed item at or above `add_at`, where 80% of such held-out sentences were right.",
        "",
        "## Training data",
        f"{card['meetings']} meetings, {card['sentences']:,} sentences of the labelled sets "
        + ", ".join(card["sets"])
        + f"; {card['positives']['decision']} decision and {card['positives']['action']} action",
        "sentences. dev-meetings is `../shared/data/dev-meetings`; the others are in",
        "benchdata/ (see its README). The sets benchdata/unseen.txt lists are never learned",
        "from, nor are QMSum's val and test meetings. The AMI and ICSI annotations",
        "(`training/corpora.py`) were tried in a prototype and lowered the decision scores on",
        "these sets, so they are not used.",
        "",
        "## Licence",
        "The labelled sets were written for memo and are fictional; the weights are memo's, under",
        "memo's licence. The embedding model (sentence-transformers/all-MiniLM-L6-v2) is",
        "Apache-2.0.",
        "",
        "## Held-out figures (leave one set out; sentences the rules take as items)",
        "| model | AP | assert_at | asserted P | asserted R | drop_at | dropped wrong/right "
        "| add_at | added right/wrong |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, f in card["held_out"].items():
        rows.append(
            f"| {name} | {f['average_precision']} | {f['assert_at']} | "
            f"{f['asserted_precision']} | {f['asserted_recall']} | {f['drop_at']} | "
            f"{f['dropped']['wrong']}/{f['dropped']['right']} | {f['add_at']} | "
            f"{f['added']['right']}/{f['added']['wrong']} |"
        )
    rows += ["", "Reliability (held out): bin, sentences, mean probability, share right.", ""]
    for name, f in card["held_out"].items():
        cells = "; ".join(f"{b} {n} {p:.2f} {o:.2f}" for b, n, p, o in f["reliability"])
        rows.append(f"- {name}: {cells}")
    return "\n".join(rows) + "\n"


def _by_set(
    p: np.ndarray, y: np.ndarray, sets: np.ndarray, cut: tuple[float, float]
) -> dict[str, dict[str, float]]:
    found = {}
    for name in sorted(set(sets)):
        inside = sets == name
        asserted = inside & (p >= cut[0])
        total = max(int(y[inside].sum()), 1)
        found[str(name)] = {
            "asserted_precision": round(float(y[asserted].mean()) if asserted.any() else 1.0, 3),
            "asserted_recall": round(float(y[asserted].sum()) / total, 3),
            "kept_recall": round(float(y[inside & (p >= cut[1])].sum()) / total, 3),
        }
    return found


def _version(data: Data) -> str:
    digest = hashlib.sha256(judged.FEATURES.encode())
    for s, label in zip(data.said, data.labels["decision"], strict=True):
        digest.update(f"{s.text}\x00{label}\x00".encode())
    return f"sentences-{dt.date.today():%Y%m%d}-{digest.hexdigest()[:8]}"


def _embedder(model_path: Path | None) -> judged.Embed:
    import tempfile

    from memo_tui.core.embed import FastEmbedder

    if model_path is None:
        raise SystemExit("set MEMO_EMBED_MODEL_PATH (or --model) to the embedding model's folder")
    cache = Path(tempfile.gettempdir()) / "memo-train-int8"
    embedder = FastEmbedder(judged.EMBEDDING_MODEL, model_path, int8_folder=cache)
    return embedder.embed


def main(argv: Sequence[str] | None = None) -> int:
    import os

    root = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(prog="scripts/train-extraction", description=__doc__)
    parser.add_argument("--benchdata", type=Path, default=root / "benchdata")
    parser.add_argument("--dev", type=Path, default=root.parent / "shared/data/dev-meetings")
    parser.add_argument("--out", type=Path, default=judged.WEIGHTS)
    found = os.environ.get("MEMO_EMBED_MODEL_PATH")
    parser.add_argument("--model", type=Path, default=Path(found) if found else None)
    parser.add_argument("--closer-out", type=Path, default=None, help="the closer's weights")
    parser.add_argument("--linker-out", type=Path, default=None, help="the linker's weights")
    parser.add_argument("--copies-out", type=Path, default=None, help="the copies model's")
    args = parser.parse_args(argv)
    np.random.seed(SEED)
    train(args.benchdata, args.dev, args.out, args.model)
    from training import closing, copies, linking  # from the same sets, after the judge

    sets = ["--benchdata", str(args.benchdata), "--dev", str(args.dev)]
    model = [] if args.model is None else ["--model", str(args.model)]
    closer = [] if args.closer_out is None else ["--out", str(args.closer_out)]
    linker = [] if args.linker_out is None else ["--out", str(args.linker_out)]
    copier = [] if args.copies_out is None else ["--out", str(args.copies_out)]
    return (
        copies.main([*sets, *model, *copier])
        or closing.main([*sets, *model, *closer])
        or linking.main([*sets, *model, *linker])
    )


if __name__ == "__main__":
    sys.exit(main())
