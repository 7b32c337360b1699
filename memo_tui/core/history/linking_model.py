"""The learned linker: how likely a decision of a later meeting replaces one an earlier
meeting made ("Go-live moves from 1 March to 12 April" after "Target go-live is 1 March").

The rules (`threads.link`) propose and give their verdict; a logistic model learned from the
labelled sets' links across meetings (`scripts/train-extraction`, model card beside the
weights) decides. It reads each pair of a new decision and an earlier one that still holds
sharing a word of what they are about: how alike the two calls are (the embeddings search
uses) and how the earlier one ranks among the others by it, the rules' verdict (none, weak,
strong) and its weight, how much of their subjects' rarer words they share, the values each
sets and whether they differ, whether the new call names the old value or says it is a
change. Each new decision replaces at most one earlier one and each is replaced once, most
likely first; a link at or above `propose_at` (held out, 80% of such links were right) is
proposed for review, one at or above `apply_at` (none wrong held out) applied.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from memo_tui.core.capture.offline.judge import Embed
from memo_tui.core.capture.offline.pairs import Logistic, Pair, likeness, unit_vectors
from memo_tui.core.history.threads import (
    CHANGE_CUE,
    Context,
    Link,
    link,
    named_as_old,
    own_words,
    said_values,
    same_project,
    stated,
    subject_parts,
)
from store import HistoryDecision, NewChange

WEIGHTS = Path(__file__).parent / "models" / "links.npz"
INPUTS = 15
FEATURES = f"pair-{INPUTS}"  # in the version: weights fit these inputs only


def shipped() -> Logistic | None:
    """The linker packaged with memo (None before it was trained)."""
    return Logistic.packaged(WEIGHTS)


def candidates(
    fresh: Sequence[HistoryDecision],
    earlier: Sequence[HistoryDecision],
    context: Context,
    embed: Embed,
) -> tuple[list[Pair], list[Link | None], np.ndarray]:
    """Each pair of an earlier decision (`Pair.earlier`) and a new one (`Pair.later`) about a
    shared word, the rules' verdict on it, and its inputs (`context`: see `threads.Context`)."""
    rarity, people, common = context
    pairs: list[Pair] = []
    verdicts: list[Link | None] = []
    for j, new in enumerate(fresh):
        for i, old in enumerate(earlier):
            if not same_project(new, old):
                continue
            if not (_about(new) & _about(old)) - people:
                continue
            pairs.append(Pair(i, j))
            verdicts.append(link(new, old, rarity, people, common))
    if not pairs:
        return [], [], np.zeros((0, INPUTS), dtype=np.float32)
    alike = _likeness(fresh, earlier, pairs, embed)
    rivals: dict[int, list[float]] = {}
    for pair, cos in zip(pairs, alike, strict=True):
        rivals.setdefault(pair.later, []).append(cos)
    rows = [
        _inputs(
            fresh[pair.later],
            earlier[pair.earlier],
            verdict,
            (rarity, people),
            (cos, sum(c > cos for c in rivals[pair.later])),
        )
        for pair, verdict, cos in zip(pairs, verdicts, alike, strict=True)
    ]
    return pairs, verdicts, np.asarray(rows, dtype=np.float32)


def links(
    linker: Logistic,
    capture_id: int,
    fresh: Sequence[HistoryDecision],
    earlier: Sequence[HistoryDecision],
    context: Context,
    embed: Embed,
) -> list[NewChange]:
    """The earlier decisions the new ones replace, as the linker chooses them (`context`:
    see `threads.Context`)."""
    rarity, people, _ = context
    pairs, verdicts, inputs = candidates(fresh, earlier, context, embed)
    verdict_of = {(p.earlier, p.later): v for p, v in zip(pairs, verdicts, strict=True)}
    found = []
    for pair in linker.chosen(pairs, inputs):
        new, old = fresh[pair.later], earlier[pair.earlier]
        verdict = verdict_of[pair.earlier, pair.later]
        shared = sorted((_about(new) & _about(old)) - people, key=lambda w: -rarity(w))
        why = verdict.reason if verdict else f"both about {', '.join(shared[:4])}"
        found.append(
            NewChange(
                kind="supersedes",
                capture_id=capture_id,
                evidence=new.quote or new.description,
                reason=f"{why} ({pair.probability:.0%})",
                strength="strong" if pair.probability >= linker.apply_at else "weak",
                old_decision_id=old.id,
                new_decision_id=new.id,
                confidence=pair.probability,
                model_version=linker.version,
            )
        )
    return found


def _about(decision: HistoryDecision) -> set[str]:
    return subject_parts(decision.subject)[0] | own_words(decision)


def _inputs(
    new: HistoryDecision,
    old: HistoryDecision,
    verdict: Link | None,
    context: tuple[Callable[[str], float], frozenset[str]],
    alike: tuple[float, int],
) -> list[float]:
    """A pair's inputs: `context` how rare a word is and the words of people's names,
    `alike` the calls' likeness and how many other earlier calls are liker the new one."""
    rarity, people = context
    cos, rank = alike
    new_words, old_words = subject_parts(new.subject)[0], subject_parts(old.subject)[0]
    shared = sum(rarity(w) for w in new_words & old_words)
    smaller = min(sum(rarity(w) for w in new_words), sum(rarity(w) for w in old_words)) or 1.0
    said, before = stated(new), stated(old)
    ours, theirs = said_values(said) - people, said_values(before) - people
    return [
        cos,
        rank == 0,
        min(rank, 10) / 10,
        verdict is not None,
        verdict is not None and verdict.strength == "strong",
        min(verdict.weight, 30) / 30 if verdict else 0.0,
        min(shared, 30) / 30,
        shared / smaller,
        min(len((own_words(new) & own_words(old)) - people), 6) / 6,
        bool(ours),
        bool(theirs),
        bool(ours and theirs and ours != theirs),
        named_as_old(said, theirs) is not None,
        CHANGE_CUE.search(said) is not None,
        min(len(said.split()), 60) / 60,
    ]


def _likeness(
    fresh: Sequence[HistoryDecision],
    earlier: Sequence[HistoryDecision],
    pairs: list[Pair],
    embed: Embed,
) -> list[float]:
    """Cosine likeness of each pair's calls as said (less a written reason)."""
    news = {p.later: stated(fresh[p.later]) for p in pairs}
    olds = {p.earlier: stated(earlier[p.earlier]) for p in pairs}
    vectors = unit_vectors([*news.values(), *olds.values()], embed)
    return [likeness(vectors, news[p.later], olds[p.earlier]) for p in pairs]
