"""The review of what memo is not sure of: decisions and action items the extractor proposed
(below the confidence it asserts at), and the user's word on each: accept (a fact, with who
said so), reject (kept, never a fact, not proposed again when the meeting is captured again)
or edit (the words, owner or due date, then a fact). Shared by `memo review` and the app."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from store import ReviewItem, Store

VERBS = {"accept": "asserted", "reject": "rejected"}
KINDS = {"d": "decision", "a": "action_item"}
HANDLE = re.compile(r"(?i)^\s*([da])?\s*#?\s*(\d{1,18})\s*$")


class ReviewError(ValueError):
    """A review the store cannot take: no such item, a name nobody answers to, a bad date."""


@dataclass(frozen=True)
class Edit:
    """What the user changed; None: left as it was ("" for owner or due: cleared)."""

    text: str | None = None
    owner: str | None = None
    due: str | None = None


class ReviewService:
    def __init__(self, store: Store, user: str, refreshed: Callable[[], object] | None = None):
        self.store = store
        self.user = user
        self.refreshed = refreshed  # e.g. embed the facts whose text the review changed

    def listed(self, everything: bool = False) -> list[ReviewItem]:
        """The proposed decisions and action items, oldest meeting first; with `everything`,
        the rejected ones too."""
        return self.store.review.items(("proposed", "rejected") if everything else ("proposed",))

    def find(self, handle: str) -> ReviewItem:
        """The item a handle names: d12 (decision 12), a7 (action item 7), or a bare number
        when only one kind has it."""
        found = HANDLE.match(handle)
        if found is None:
            raise ReviewError(f"{handle!r} is not an item: say d12 (a decision) or a7 (an action)")
        letter, number = found.group(1), int(found.group(2))
        kinds = [KINDS[letter.lower()]] if letter else list(KINDS.values())
        items = [i for kind in kinds if (i := self._get(kind, number)) is not None]
        if not items:
            said = " or ".join(k.replace("_", " ") for k in kinds)
            raise ReviewError(f"no {said} {number}: see memo review")
        if len(items) > 1:
            raise ReviewError(f"{number} is both d{number} and a{number}: say which")
        return items[0]

    def _get(self, kind: str, number: int) -> ReviewItem | None:
        from store import NotFoundError

        try:
            return self.store.review.get(kind, number)
        except NotFoundError:
            return None

    def decide(self, handle: str, verb: str) -> ReviewItem:
        """`accept` an item (asserted, with who said so) or `reject` it (kept, never a fact).
        An asserted item can be rejected too, and a rejected one accepted again."""
        item = self.find(handle)
        return self._settle(item, {"state": VERBS[verb]})

    def edit(self, handle: str, edit: Edit) -> ReviewItem:
        """Change an item's words, owner or due date; the user vouches for it, so it is
        asserted."""
        item = self.find(handle)
        values: dict[str, Any] = {"state": "asserted"}
        if edit.text is not None:
            words = " ".join(edit.text.split())
            if not words:
                raise ReviewError("the text cannot be empty")
            values["description"] = words
        if edit.owner is not None:
            values.update(self._person(item, edit.owner))
        if edit.due is not None:
            if item.kind != "action_item":
                raise ReviewError("a decision has no due date")
            values["due_date"] = _due(edit.due)
        return self._settle(item, values)

    def _person(self, item: ReviewItem, name: str) -> dict[str, Any]:
        """The columns that say who owns (or decided) it: the person the name resolves to,
        or the name as said, waiting for `memo confirm` when nobody answers to it."""
        from memo_tui.core.entities.resolve import NeedsDisambiguation, Resolved
        from memo_tui.core.entities.service import EntityService

        said = "assignee_raw" if item.kind == "action_item" else "decided_by"
        name = " ".join(name.split())
        if not name:
            return {said: None, "person_id": None, "pending": 0}
        found = EntityService(self.store, self.user).resolve(name)
        if isinstance(found, NeedsDisambiguation):
            options = ", ".join(c.name for c in found.candidates)
            raise ReviewError(f"{name!r} could be {options}: say which")
        if isinstance(found, Resolved):
            return {
                said: name,
                "person_id": found.entity.id,
                "pending": 0,
                "settled_by": self.user,
            }
        return {said: name, "person_id": None, "pending": 1}

    def _settle(self, item: ReviewItem, values: dict[str, Any]) -> ReviewItem:
        done = self.store.review.settle(item.kind, item.id, {**values, "reviewed_by": self.user})
        if self.refreshed is not None:
            self.refreshed()
        return done

    def evidence(self, item: ReviewItem, around: int = 2) -> list[tuple[int, str]]:
        """The transcript lines an item was taken from, numbered, with `around` lines of
        context either side."""
        text = self.store.captures.text(item.record.capture_id)
        lines = text.splitlines()
        start = item.record.line_start or 1
        end = item.record.line_end or start
        first, last = max(1, start - around), min(len(lines), end + around)
        return [(n, lines[n - 1]) for n in range(first, last + 1)]


def _due(said: str) -> str | None:
    """A due date as YYYY-MM-DD ("" or "none" clears it)."""
    said = said.strip()
    if said.lower() in ("", "none", "-"):
        return None
    try:
        return dt.date.fromisoformat(said).isoformat()
    except ValueError:
        raise ReviewError(f"{said!r} is not a date: say YYYY-MM-DD, or none") from None
