"""What holds now: a replaced decision found by search brings its replacement along.

Search ranks by words and meaning, so "when is the launch?" can rank the first date above the
one that replaced it. Here each superseded decision among the hits is followed along its
`superseded_by` links to the decision that holds now; that one takes the old one's place
(fetched when search did not find it) and the old one follows it, so an answer states the
current decision first and the history after it.
"""

from __future__ import annotations

from dataclasses import dataclass

from memo_tui.core.recall.search import Hit
from store import FactPeople, Store

DECISION = 1 << 32  # a decision's fact key is this | its id (see the facts view)
MOST_LINKS = 20  # a chain longer than this is a loop or a bug; stop following it


@dataclass(frozen=True)
class Change:
    """Hit `old` (0-based) was replaced, in the end, by hit `new`."""

    new: int
    old: int


def _holds_now(store: Store, decision_id: int, states: dict[int, FactPeople]) -> int:
    """The fact key of the decision that holds at the end of `decision_id`'s chain."""
    key = DECISION | decision_id
    for _ in range(MOST_LINKS):
        state = states.get(key)
        if state is None:
            fact = store.fact(key)
            if fact is None:
                return key
            states.update(store.fact_people([fact]))
            state = states.get(key)
        if state is None or state.status != "superseded" or state.superseded_by is None:
            return key
        key = DECISION | state.superseded_by
    return key


def lead_with_current(store: Store, hits: list[Hit]) -> tuple[list[Hit], list[Change]]:
    """The hits with each replaced decision's current one put first, and the changes."""
    states = store.fact_people([hit.fact for hit in hits])
    ordered: list[Hit] = []
    placed: dict[int, int] = {}  # fact key -> index in `ordered`
    changes: list[Change] = []
    by_key = {hit.fact.fact_key: hit for hit in hits}
    for hit in hits:
        key = hit.fact.fact_key
        if key in placed:
            continue
        state = states.get(key)
        replaced = state is not None and state.status == "superseded" and state.superseded_by
        now = _holds_now(store, hit.fact.fact_id, states) if replaced else key
        if now != key:
            if now not in placed:
                current = by_key.get(now)
                if current is None:
                    fact = store.fact(now)
                    current = Hit(fact, hit.score, None, None, None) if fact else None
                if current is not None:
                    placed[now] = len(ordered)
                    ordered.append(current)
            if now in placed:
                changes.append(Change(placed[now], len(ordered)))
        placed[key] = len(ordered)
        ordered.append(hit)
    return ordered, changes
