"""Train the closer (memo_tui/core/history/models/closes.npz): which sentence of a later
meeting says an earlier open task is done.

For each meeting of each labelled set memo may learn from, in date order, the tasks of the
set's earlier meetings still open then (not closed in their own meeting nor in one between)
are paired with the meeting's sentences that share one of their key words (`candidates`); a
pair is right when the sentence holds the quote of the set's `updates` entry that `closes`
that task; a close is right when the task is closed in that meeting. The model is measured,
calibrated and given its thresholds as `training.pairs` says: a close is proposed where 85% of
the held-out ones were right, applied where none of at least 30 was wrong.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memo_tui.core.capture.offline.judge import Embed
from memo_tui.core.history import closing_model as model
from training import pairs
from training.labelled import _overlaps, flat, labelled_meetings
from training.pairs import Collector

MODEL = pairs.Model("closes", model.FEATURES, strength=1.0, precision=0.85, sure=30)


@dataclass
class Meeting:
    """A later meeting of a set: its sentences, the tasks open before it, the answers."""

    set_name: str
    tasks: list[model.Task]
    said: list[model.Sentence]
    others: list[str]  # the earlier meetings' decisions
    closed: list[bool]  # per task: this meeting closes it
    quotes: list[str | None]  # per task: the words that close it here


def meetings(folder: Path) -> list[Meeting]:
    rows = [json.loads(line) for line in (folder / "truth.jsonl").read_text().splitlines() if line]
    heard = {m.file: m for m in labelled_meetings(folder)}
    order = sorted(rows, key=lambda r: (r["date"], r["file"]))
    place = {r["file"]: k for k, r in enumerate(order)}
    found = []
    for k, row in enumerate(order):
        updates = {u["id"]: u.get("quote") for u in row.get("updates") or []}
        tasks, closed, quotes = [], [], []
        for earlier in order[:k]:
            for action in earlier["actions"]:
                by, _, update = (action.get("closed_by") or "").partition("#")
                if by == earlier["file"] or (by in place and place[by] < k):
                    continue  # closed in its own meeting, or before this one
                tasks.append(model.Task(action["quote"], action.get("owner")))
                closed.append(by == row["file"])
                quotes.append(updates.get(update) if by == row["file"] else None)
        said = [model.Sentence(s.speaker, s.text) for s in heard[row["file"]].said]
        others = [d["text"] for earlier in order[:k] for d in earlier["decisions"]]
        found.append(Meeting(folder.name, tasks, said, others, closed, quotes))
    return found


def collect(folders: Sequence[Path], embed: Embed) -> Collector:
    """Every candidate pair, meeting by meeting."""
    found = Collector()
    for folder in folders:
        for meeting in meetings(folder):
            found.wanted += sum(meeting.closed)
            if not meeting.tasks or not meeting.said:
                continue
            chosen, x = model.candidates(meeting.tasks, meeting.said, meeting.others, embed)
            labels = [
                bool(quote) and _overlaps(flat(meeting.said[p.later].text), flat(quote or ""))
                for p in chosen
                for quote in [meeting.quotes[p.earlier]]
            ]
            hits = [meeting.closed[p.earlier] for p in chosen]
            found.add(folder.name, chosen, x, labels, hits)
    return found


def train(folders: Sequence[Path], out: Path, embed: Embed) -> dict[str, object]:
    found = collect(folders, embed)
    data, read = found.done(), found.meetings
    print(
        f"closer: {read} meetings, {data.wanted} tasks closed by a later one, "
        f"{len(data.pairs):,} pairs, {int(data.labels.sum())} right"
    )
    return pairs.train(data, MODEL, out) | {"meetings": read}


ABOUT = f"""A logistic model (NumPy inference, `memo_tui/core/history/closing_model.py`) of
whether a sentence of a later meeting says an earlier open task is done. Its inputs, for each
task and sentence sharing one of the task's key words: how alike they are (the embeddings the
search uses), how much of the task's rarer words the sentence says, whether the task's owner
says it or is named, the rules' done and not-done cues and their verdict, the sentence's
hashed words ({model.HASHED} buckets), and how the pair ranks among the others. A sentence
the rules read as not done is no candidate. The links learned from are the sets' `updates`
(a later meeting's words that close a task). Without the embedding model memo closes by the
rules alone (`closing.py`)."""


def main(argv: Sequence[str] | None = None) -> int:
    return pairs.main(argv, MODEL, model.WEIGHTS, train, ABOUT)


if __name__ == "__main__":
    import sys

    sys.exit(main())
