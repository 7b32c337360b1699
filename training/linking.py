"""Train the linker (memo_tui/core/history/models/links.npz): which decision of a later
meeting replaces one an earlier meeting made.

For each meeting of each labelled set memo may learn from, in date order, its calls that held
when it ended are paired with the calls of the set's earlier meetings that still held then
(`candidates`: those about a shared word); a pair is right when the set says the earlier call
is `superseded_by` the later one. Each call is read as memo stores it: its quote, and its
subject from its words and the turn before the one it was said in. The model is measured,
calibrated and given its thresholds as `training.pairs` says: a link is proposed where 80% of
the held-out ones were right, applied where none of at least 30 was wrong.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memo_tui.core.capture.offline.judge import Embed
from memo_tui.core.capture.subject import decision_subject
from memo_tui.core.history import linking_model as model
from memo_tui.core.history.replacing import context_of
from store import HistoryDecision
from training import pairs
from training.labelled import LabelledMeeting, _overlaps, flat, labelled_meetings
from training.pairs import Collector

MODEL = pairs.Model("links", model.FEATURES, strength=1.0, precision=0.8, sure=30)


@dataclass
class Meeting:
    """A later meeting of a set: its calls, the earlier ones still holding, the answers."""

    fresh: list[HistoryDecision]
    earlier: list[HistoryDecision]
    replaced: set[tuple[int, int]]  # (earlier, fresh) indices the set links
    subjects: list[str]  # the subjects of every call up to this meeting
    names: list[str]  # of the set's people


def meetings(folder: Path) -> list[Meeting]:
    rows = [json.loads(line) for line in (folder / "truth.jsonl").read_text().splitlines() if line]
    heard = {m.file: m for m in labelled_meetings(folder)}
    order = sorted(rows, key=lambda r: (r["date"], r["file"]))
    place = {r["file"]: k for k, r in enumerate(order)}
    names = {n for r in order for n in r.get("attendees") or []} | {
        t.speaker for m in heard.values() for t in m.transcript.turns if t.speaker
    }
    calls = {
        (row["file"], d["id"]): _stored(heard[row["file"]], d, k, row["date"], names)
        for k, row in enumerate(order)
        for d in row["decisions"]
    }
    found = []
    for k, row in enumerate(order[1:], 1):
        fresh = [d for d in row["decisions"] if d.get("final", True)]
        earlier = [
            (e["file"], d)
            for e in order[:k]
            for d in e["decisions"]
            if d.get("final", True) and not _replaced_before(d, e["file"], place, k)
        ]
        wanted = {
            (i, j)
            for i, (_, old) in enumerate(earlier)
            for j, new in enumerate(fresh)
            if old.get("superseded_by") == f"{row['file']}#{new['id']}"
        }
        found.append(
            Meeting(
                [calls[row["file"], d["id"]] for d in fresh],
                [calls[f, d["id"]] for f, d in earlier],
                wanted,
                [calls[r["file"], d["id"]].subject for r in order[: k + 1] for d in r["decisions"]],
                sorted(names),
            )
        )
    return found


def _replaced_before(call: dict[str, str], file: str, place: dict[str, int], k: int) -> bool:
    by = (call.get("superseded_by") or "").split("#")[0]
    return bool(by) and by != file and by in place and place[by] < k


def _stored(
    meeting: LabelledMeeting, call: dict[str, str], k: int, day: str, names: set[str]
) -> HistoryDecision:
    """A truth call as memo stores it: its quote, its subject (its words, its reason and those
    of the turn before the one it was said in)."""
    quote = flat(call["quote"])
    turn = next((s.turn for s in meeting.said if _overlaps(flat(s.text), quote)), None)
    line = meeting.transcript.turns[turn].line if turn is not None else None
    own = (call["quote"], call.get("reason") or "")
    subject = decision_subject(meeting.transcript.turns, line, own, names)
    return HistoryDecision(0, k, day, "", call["quote"], call["quote"], subject, "current")


def collect(folders: Sequence[Path], embed: Embed) -> Collector:
    """Every candidate pair, meeting by meeting."""
    found = Collector()
    for folder in folders:
        for meeting in meetings(folder):
            found.wanted += len(meeting.replaced)
            if not meeting.fresh or not meeting.earlier:
                continue
            context = context_of(meeting.subjects, meeting.names)
            chosen, _, x = model.candidates(meeting.fresh, meeting.earlier, context, embed)
            labels = [(p.earlier, p.later) in meeting.replaced for p in chosen]
            found.add(folder.name, chosen, x, labels, labels)
    return found


def train(folders: Sequence[Path], out: Path, embed: Embed) -> dict[str, object]:
    found = collect(folders, embed)
    data, read = found.done(), found.meetings
    print(
        f"linker: {read} meetings, {data.wanted} calls replaced by a later meeting, "
        f"{len(data.pairs):,} pairs, {int(data.labels.sum())} right"
    )
    return pairs.train(data, MODEL, out) | {"meetings": read}


ABOUT = """A logistic model (NumPy inference, `memo_tui/core/history/linking_model.py`) of
whether a decision of a later meeting replaces one an earlier meeting made. Its inputs, for
each pair of calls about a shared word: how alike they are (the embeddings the search uses)
and how the earlier call ranks among the others by it, the rules' verdict (`threads.link`:
none, weak or strong) and weight, how much of their subjects' rarer words they share, the
values each sets and whether they differ, whether the new call names the old value or says
it is a change. The links learned from are the sets' `superseded_by` across meetings.
Without the embedding model memo links by the rules alone (`threads.py`)."""


def main(argv: Sequence[str] | None = None) -> int:
    return pairs.main(argv, MODEL, model.WEIGHTS, train, ABOUT)


if __name__ == "__main__":
    import sys

    sys.exit(main())
