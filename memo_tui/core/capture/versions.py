"""Two versions of a capture: what each holds, and where their transcripts differ."""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Version:
    """One side of a replace: what a capture holds."""

    title: str
    date: str | None
    decisions: int
    action_items: int
    lines: int


@dataclass(frozen=True)
class Change:
    """Where two versions of a transcript differ: how many lines, and the first of them."""

    lines: int
    first: int  # its number in the new version
    was: str
    now: str


def what_changed(stored: str, new: str) -> Change | None:
    """The lines `new` changes, adds or drops from `stored` (None: the same lines)."""
    old_lines, new_lines = stored.split("\n"), new.split("\n")
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    edits = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if not edits:
        return None
    _, i1, i2, j1, j2 = edits[0]
    count = sum(max(b - a, d - c) for _, a, b, c, d in edits)
    was = old_lines[i1] if i1 < i2 else "(nothing)"
    now = new_lines[j1] if j1 < j2 else "(nothing)"
    return Change(count, j1 + 1, *_from_the_difference(was, now))


def _from_the_difference(was: str, now: str, before: int = 12) -> tuple[str, str]:
    """Both lines from a little before where they first differ (a long shared start is
    cut to an ellipsis), so a cut cell still shows the change."""
    same = len(os.path.commonprefix([was, now]))
    if same <= before:
        return was, now
    start = same - before
    return "…" + was[start:], "…" + now[start:]
