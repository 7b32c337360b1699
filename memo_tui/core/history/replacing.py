"""Which earlier decisions a capture's decisions replace, across meetings: the learned
linker (`linking_model`) chooses when the embedding model is here, else the rules
(`threads.link`, which the linker reads too)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from memo_tui.core.history import threads
from memo_tui.core.history.threads import COMMON_CALLS, COMMON_SHARE, Context, link
from store import NewChange, Store

if TYPE_CHECKING:
    from memo_tui.core.capture.offline.judge import Embed


def supersessions(store: Store, capture_id: int, embed: Embed | None = None) -> list[NewChange]:
    """The earlier decisions this capture's current decisions replace: one each at most, and
    each earlier decision replaced once. The learned linker chooses them when the embedding
    model is here (`embed`), else the rules."""
    linked = {c.new_decision_id for c in store.changes.all() if c.kind == "supersedes"}
    fresh = [
        d
        for d in store.changes.decisions_of(capture_id)
        if d.status == "current" and d.id not in linked
    ]
    earlier = store.changes.earlier_current(capture_id, fresh[0].day) if fresh else []
    if not earlier:
        return []
    context = _context(store)
    if embed is not None:
        from memo_tui.core.history import linking_model

        if (linker := linking_model.shipped()) is not None:
            return linking_model.links(linker, capture_id, fresh, earlier, context, embed)
    rarity, people, common = context
    found: list[NewChange] = []
    taken: set[int] = set()
    for new in fresh:
        links = [link(new, old, rarity, people, common) for old in earlier if old.id not in taken]
        best = max(
            (x for x in links if x), key=lambda x: (x.strength == "strong", x.weight), default=None
        )
        if best is None:
            continue
        taken.add(best.old.id)
        found.append(
            NewChange(
                kind="supersedes",
                capture_id=capture_id,
                evidence=new.quote or new.description,
                reason=best.reason,
                strength=best.strength if threads.APPLY_STRONG else "weak",  # (read when called)
                old_decision_id=best.old.id,
                new_decision_id=new.id,
            )
        )
    return found


def _context(store: Store) -> Context:
    """What linking reads from the store: its decisions' subjects, the names it knows."""
    directory = store.people.directory()
    names = [p.name for p in directory.people] + [
        a.alias for a in directory.aliases if a.entity_type == "person"
    ]
    return context_of(store.changes.decision_subjects(), names)


def context_of(subjects: Sequence[str], names: Iterable[str]) -> Context:
    """How rare a word is among `subjects` (calls' subject words, space-separated), the words
    of the people's `names`, and whether the calls are commonly about a word."""
    people = frozenset(w.lower() for name in names for w in re.findall(r"\w+", name))
    counts = Counter(w for subject in subjects for w in set(subject.split()))
    total = len(subjects) + 1
    rarest = math.log(total / 0.5)
    known = {word: math.log(total / (n + 0.5)) for word, n in counts.items()}

    def rarity(word: str) -> float:
        return known.get(word, rarest)

    def common(word: str) -> bool:
        return counts[word] >= COMMON_CALLS and counts[word] >= COMMON_SHARE * len(subjects)

    return rarity, people, common
