"""The changes review: what memo applied on its own, what it proposes, and the user's word on
each. Shared by `memo changes` and the app's Changes review."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from store import ChangeRecord, Store

if TYPE_CHECKING:
    from memo_tui.core.capture.offline.judge import Embed

STATUSES = ("applied", "proposed", "rejected", "undone")
VERBS = {"accept": "applied", "reject": "rejected", "undo": "undone"}


@dataclass(frozen=True)
class Scanned:
    captures: int
    found: list[ChangeRecord]
    subjects: int = 0  # decisions of older captures given what they are about


class ChangesService:
    def __init__(
        self,
        store: Store,
        user: str,
        refreshed: Callable[[], object] | None = None,
        embed: Callable[[], Embed | None] | None = None,
    ):
        self.store = store
        self.user = user
        self.refreshed = refreshed  # e.g. embed the facts whose text a change re-worded
        self.embed = embed  # the embedding model's `embed` when here (the closer's, the linker's)

    def review(self) -> list[ChangeRecord]:
        """What waits for the user: proposals, then what memo applied on its own and nobody
        has kept or undone yet, each oldest first."""
        waiting = self.store.changes.all(("proposed", "applied"))
        proposed = [c for c in waiting if c.status == "proposed"]
        applied = [c for c in waiting if c.applied_by_memo]
        return sorted(proposed, key=lambda c: c.id) + sorted(applied, key=lambda c: c.id)

    def listed(self, everything: bool = False) -> list[ChangeRecord]:
        """Proposed and applied changes (every one, with `everything`), newest first."""
        return self.store.changes.all(() if everything else ("proposed", "applied"))

    def decide(self, change_id: int, verb: str) -> ChangeRecord:
        """`accept` a proposal (it takes effect), `reject` it, or `undo` an applied change (the
        old decision holds again, the item is open again). Of a change memo applied on its
        own, `accept` keeps it and `reject` undoes it."""
        status = VERBS[verb]
        change = self.store.changes.get(change_id)
        if verb == "reject" and change is not None and change.applied_by_memo:
            status = "undone"
        done = self.store.changes.decide(change_id, status, self.user)
        if self.refreshed is not None:
            self.refreshed()
        return done

    def scan(self, progress: Callable[[int, int], None] | None = None) -> Scanned:
        """Look again, meeting by meeting in date order, for decisions later ones replaced (for
        captures made before memo looked, or after a rejected change was undone)."""
        from memo_tui.core.history.closing import closings
        from memo_tui.core.history.replacing import supersessions

        ids = self.store.captures.ids_by_date()
        filled = fill_subjects(self.store, ids)
        before = {c.id for c in self.store.changes.all()}
        embed = self.embed() if self.embed else None
        for n, capture_id in enumerate(ids, 1):
            here = supersessions(self.store, capture_id, embed) + closings(
                self.store, capture_id, embed
            )
            self.store.changes.add(here)
            if progress is not None:
                progress(n, len(ids))
        found = [c for c in self.store.changes.all() if c.id not in before]
        if (found or filled) and self.refreshed is not None:
            self.refreshed()  # a decision given its subject is searched by it: embedded again
        return Scanned(len(ids), sorted(found, key=lambda c: c.id), filled)


def fill_subjects(store: Store, capture_ids: list[int]) -> int:
    """Decisions captured before memo kept what each is about (schema 15) get their subject
    from their meeting's stored text, as capture would have given it, so a scan can link
    them; how many were filled."""
    from memo_tui.core.capture.sources import parse, stored_format
    from memo_tui.core.capture.subject import decision_subject

    filled: dict[int, str] = {}
    for capture_id in capture_ids:
        missing = [d for d in store.captures.decisions([capture_id]) if not d.subject]
        summary = store.captures.get(capture_id) if missing else None
        if summary is None:
            continue
        text = store.captures.text(capture_id)
        transcript = parse(text, summary.title, "txt", stored_format(summary.source_format))
        speakers = {t.speaker for t in transcript.turns if t.speaker} | set(transcript.attendees)
        for d in missing:
            own = (d.description, d.evidence_quote or "", d.reasoning or "")
            subject = decision_subject(transcript.turns, d.line_start, own, speakers)
            if subject:
                filled[d.id] = subject
    if filled:
        store.changes.set_decision_subjects(filled)
    return len(filled)
