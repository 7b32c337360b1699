"""What the Who is it? dialog shows of an item waiting on a name: what it says, with its
meeting, and the transcript lines it came from with one on each side."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from store import ActionItemRecord, DecisionRecord, PersonRow, Store

AROUND = 1  # lines shown on each side of an item's own
MOST_LINES = 5  # an item's lines shown at most, with those around them


def described(store: Store, facts: Sequence[ActionItemRecord | DecisionRecord]) -> list[str]:
    """Each item as "owes: …" or "decided: …", with its meeting's title and date."""
    from store import ActionItemRecord

    meetings = {c: found for c in {f.capture_id for f in facts} if (found := store.captures.get(c))}
    said = []
    for fact in facts:
        kind = "owes" if isinstance(fact, ActionItemRecord) else "decided"
        text = f"{kind}: {fact.description}"
        meeting = meetings.get(fact.capture_id)
        if meeting is not None:
            text += f" ({meeting.title}, {meeting.occurred_at or 'no date'})"
        said.append(text)
    return said


def lines_around(store: Store, fact: ActionItemRecord | DecisionRecord) -> list[tuple[str, bool]]:
    """The transcript lines an item came from (True), and `AROUND` on each side."""
    if fact.line_start is None:
        return []
    body = store.captures.source(fact.capture_id)[1].split("\n")
    start = fact.line_start
    end = fact.line_end if fact.line_end is not None else start
    first = max(1, start - AROUND)
    last = min(len(body), end + AROUND, start + MOST_LINES - 1)
    return [(f"L{n}  {body[n - 1]}", start <= n <= end) for n in range(first, last + 1)]


def person(store: Store, person_id: int) -> PersonRow | None:
    """The person a choice names (0: none of them)."""
    people = store.people.directory().people
    return next((p for p in people if p.id == person_id), None) if person_id else None
