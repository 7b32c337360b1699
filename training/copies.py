"""Train the copies model (memo_tui/core/capture/offline/models/copies.npz): which earlier
item of a meeting a later one says again.

Each meeting of each labelled set memo may learn from is extracted as capture does, up to
the rules' merging (`merged_items`, with the judge in the package and the embedding model:
train the judge first); each
item is matched to the set's truth by its keyword groups, as `memo bench extract` matches. A
pair of items of one kind (`copies.candidates`) is a copy to learn when the earlier item
matches nothing the later one does not: it matches nothing while the later one matches, or
all it matches the later one does too. A pair dropped is harmless when the earlier one
matches nothing the later does not (both may match nothing). The model is measured,
calibrated and given its threshold as `training.pairs` says, with "right" meaning harmless:
an earlier item is dropped where 95% of the held-out drops were.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from memo_tui.core.benchmarks.labelled import hit
from memo_tui.core.capture.files import read_file
from memo_tui.core.capture.offline import copies as model
from memo_tui.core.capture.offline.extractor import merged_items
from memo_tui.core.capture.offline.items import Item
from memo_tui.core.capture.offline.judge import WEIGHTS as JUDGE
from memo_tui.core.capture.offline.judge import Embed, Judge
from memo_tui.core.capture.sources import captured_name, parse
from training import pairs
from training.pairs import Collector

MODEL = pairs.Model("copies", model.FEATURES, strength=1.0, precision=0.95, sure=0)
KEY = {"decision": "decisions", "action": "actions"}


def _matches(item: Item, truth: dict[str, list[dict[str, object]]]) -> frozenset[str]:
    return frozenset(
        str(t["id"])
        for t in truth[KEY[item.kind]]
        if hit(item.description, t.get("keywords") or [])
        or hit(item.quote, t.get("keywords") or [])  # type: ignore[arg-type]
    )


def collect(folders: Sequence[Path], embed: Embed) -> Collector:
    """Every candidate pair, meeting by meeting."""
    judge = Judge.load(JUDGE)  # (read afresh: the judge trained just before, if it was)
    found = Collector()
    for folder in folders:
        for line in (folder / "truth.jsonl").read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            truth = json.loads(line)
            text, hint = read_file(folder / truth["file"], 400_000)
            transcript = parse(text, captured_name(folder / truth["file"]), hint)
            said = model.standing(merged_items(transcript, embed, judge))
            if len(said) < 2:
                continue
            chosen, x = model.candidates(said, transcript.turns, embed)
            matched = [_matches(i, truth) for i in said]
            # a copy when the earlier matches nothing the later does not (and the later
            # matches something); harmless to drop whenever it matches nothing more
            harmless = [matched[p.earlier] <= matched[p.later] for p in chosen]
            labels = [h and bool(matched[p.later]) for p, h in zip(chosen, harmless, strict=True)]
            found.add(folder.name, chosen, x, labels, harmless)
    found.wanted = sum(found.labels)
    return found


def train(folders: Sequence[Path], out: Path, embed: Embed) -> dict[str, object]:
    found = collect(folders, embed)
    data, read = found.done(), found.meetings
    print(
        f"copies: {read} meetings, {len(data.pairs):,} pairs of items, "
        f"{int(data.labels.sum())} copies to drop"
    )
    return pairs.train(data, MODEL, out) | {"meetings": read}


ABOUT = """A logistic model (NumPy inference, `memo_tui/core/capture/offline/copies.py`) of
whether the earlier of two items of one kind in a meeting is a copy of the later one: the
same call or task said again in other words. Its inputs, for each pair that shares a word or
is alike: how alike they are (the embeddings the judge reads; rapidfuzz ratios; shared words
and values), who said each and how far apart, whether the later one is a recap or a reply,
the judge's confidence in each, and their owners and due dates. The items are those memo
extracts from the sets with the shipped judge, matched to the sets' truth by keyword groups
(the judge learned from the same sets, so its confidences here are surer than on new ones).
Without the embedding model no copy is dropped."""


def main(argv: Sequence[str] | None = None) -> int:
    return pairs.main(argv, MODEL, model.WEIGHTS, train, ABOUT)


if __name__ == "__main__":
    import sys

    sys.exit(main())
