"""Copies of one call or task in a meeting: the same item said twice in other words ("Fine,
the twelfth it is." after "Saturday the twelfth of September."; "ok recap, cutover's the
thirteenth" after the call itself), which the rules' merging (exact restatements, values
said again) leaves as two.

A logistic model learned from the labelled sets (`scripts/train-extraction`, model card
beside the weights) reads each pair of a meeting's items of one kind, still holding, that
are alike or share words: how alike they are (the embeddings the judge reads, rapidfuzz
ratios, shared words and values), who said each and how far apart, whether the later one is
a recap or a reply, how sure the judge is of each, and their owners and due dates. Where it
is as sure as `propose_at` (held out, 95% of such pairs dropped no item the sets hold that
the later one does not), the earlier item goes and the later one stands for both.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from rapidfuzz import fuzz

from memo_tui.core.capture.offline import call_values as cv
from memo_tui.core.capture.offline.items import Item
from memo_tui.core.capture.offline.judge import Embed
from memo_tui.core.capture.offline.pairs import Logistic, Pair, likeness, unit_vectors
from memo_tui.core.capture.offline.text import content_words
from memo_tui.core.capture.sources import Turn

WEIGHTS = Path(__file__).parent / "models" / "copies.npz"
INPUTS = 23
FEATURES = f"copies-{INPUTS}"  # in the version: weights fit these inputs only
ALIKE = 0.3  # a pair sharing no word is a candidate from this likeness on
_RECAP = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|right|so)\W+)*(?:recap|to recap|summar|so to|just to confirm|"
    r"to confirm|actions?:|decisions?:)",
    re.IGNORECASE,
)


def shipped() -> Logistic | None:
    """The copies model packaged with memo (None before it was trained)."""
    return Logistic.packaged(WEIGHTS)


def standing(items: Sequence[Item]) -> list[Item]:
    """The items a copy may be found among: those still holding, in the order said."""
    return sorted((i for i in items if i.superseded_by is None), key=lambda i: i.position)


def candidates(
    items: Sequence[Item], turns: Sequence[Turn], embed: Embed
) -> tuple[list[Pair], np.ndarray]:
    """Each pair of `items` (in the order said) of one kind that share a word or are alike,
    and its inputs."""
    vectors = unit_vectors((i.quote for i in items), embed)
    words = [content_words(i.quote) for i in items]
    pairs, rows = [], []
    for b, later in enumerate(items):
        for a, earlier in enumerate(items[:b]):
            if earlier.kind != later.kind:
                continue
            alike = likeness(vectors, earlier.quote, later.quote)
            if alike < ALIKE and not words[a] & words[b]:
                continue
            pairs.append(Pair(a, b))
            rows.append(_inputs(earlier, later, (words[a], words[b]), alike, turns))
    return pairs, np.asarray(rows, dtype=np.float32).reshape(len(rows), INPUTS)


def _inputs(
    a: Item, b: Item, words: tuple[set[str], set[str]], alike: float, turns: Sequence[Turn]
) -> list[float]:
    ours, theirs = words
    values_a, values_b = cv.values(a.quote), cv.values(b.quote)
    said_a, said_b = a.description.lower(), b.description.lower()
    speaker_a, speaker_b = turns[a.turn_index].speaker, turns[b.turn_index].speaker
    task = a.kind == "action"
    return [
        alike,
        fuzz.ratio(said_a, said_b) / 100,
        fuzz.token_set_ratio(said_a, said_b) / 100,
        len(ours & theirs) / max(len(ours | theirs), 1),
        len(ours & theirs) / max(min(len(ours), len(theirs)), 1),
        bool(values_a and values_b and values_a == values_b),
        bool(values_a and values_b and values_a != values_b),
        bool(values_a) != bool(values_b),
        speaker_a == speaker_b,
        math.log1p(b.position[0] - a.position[0]) / 6,
        bool(_RECAP.search(b.quote)),
        bool(_RECAP.search(a.quote)),
        a.confidence or 0.0,
        b.confidence or 0.0,
        task and a.assignee is not None and a.assignee == b.assignee,
        task and a.due is not None and a.due == b.due,
        a.from_notes or b.from_notes,
        task,
        b.turn_index / max(len(turns), 1),
        a.turn_index / max(len(turns), 1),
        b.turn_index - a.turn_index <= 2 and speaker_a != speaker_b,  # a reply
        len(theirs) < len(ours),
        len(theirs) > len(ours),
    ]


def without_copies(
    items: list[Item], turns: Sequence[Turn], embed: Embed, model: Logistic | None = None
) -> list[Item]:
    """`items` less each earlier one the model is sure a later one says again; a call that
    pointed at a dropped one as its replacement points at the later one."""
    model = model or shipped()
    said = standing(items)
    if model is None or len(said) < 2:
        return items
    pairs, inputs = candidates(said, turns, embed)
    gone: dict[int, Item] = {}
    for pair in model.chosen(pairs, inputs):
        gone[id(said[pair.earlier])] = said[pair.later]
    for item in items:
        while item.superseded_by is not None and id(item.superseded_by) in gone:
            item.superseded_by = gone[id(item.superseded_by)]
    return [i for i in items if id(i) not in gone]
