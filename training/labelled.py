"""memo's own labelled meeting sets (dev-meetings, benchdata's held-out sets) as training
examples: every sentence of every turn, read as memo reads the file, labelled by the set's
truth. A sentence that holds (or lies inside) a truth item's quote is that item's kind; one
that holds a `not_decisions` line is a near miss; every other sentence is neither.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from memo_tui.core.capture.files import read_file
from memo_tui.core.capture.offline.text import sentences
from memo_tui.core.capture.sources import Transcript, captured_name, parse

_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Said:
    """One sentence of a meeting, where it is, and what the truth makes of it."""

    turn: int  # the turn's index in the transcript
    start: int  # where the sentence starts in the turn's text
    speaker: str | None
    text: str
    labels: frozenset[str] = frozenset()  # "decision", "action", "near_miss"
    restates: frozenset[str] = frozenset()  # kinds of a truth item it says again, unquoted


@dataclass
class LabelledMeeting:
    """A file of a labelled set, read as memo reads it, its sentences labelled."""

    set_name: str
    file: str
    transcript: Transcript
    said: list[Said] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)  # quotes found in no sentence


def flat(text: str) -> str:
    """Text compared as words: case and runs of spaces (a cue's line break) ignored."""
    return _SPACES.sub(" ", text).strip().casefold()


def labelled_meetings(folder: Path) -> Iterator[LabelledMeeting]:
    """Each file of a labelled set (a folder with truth.jsonl), its sentences labelled."""
    for line in (folder / "truth.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield _labelled(folder, json.loads(line))


def _labelled(folder: Path, truth: dict[str, object]) -> LabelledMeeting:
    path = folder / str(truth["file"])
    text, hint = read_file(path, 400_000)
    transcript = parse(text, captured_name(path), hint)
    quotes = [
        *[(d["quote"], "decision") for d in _items(truth, "decisions")],
        *[(a["quote"], "action") for a in _items(truth, "actions")],
        *[(line, "near_miss") for line in truth.get("not_decisions", []) or []],  # type: ignore[union-attr]
    ]
    meeting = LabelledMeeting(folder.name, path.name, transcript)
    said = [
        (index, turn.speaker, sentence)
        for index, turn in enumerate(transcript.turns)
        for sentence in sentences(turn.text)
    ]
    labels: list[set[str]] = [set() for _ in said]
    for quote, kind in quotes:
        wanted = flat(str(quote))
        hits = [n for n, (_, _, s) in enumerate(said) if _overlaps(flat(s.text), wanted)]
        if not hits:
            meeting.unplaced.append(str(quote))
        for n in hits:
            labels[n].add(kind)
    keywords = [
        *[(d.get("keywords") or [], "decision") for d in _items(truth, "decisions")],
        *[(a.get("keywords") or [], "action") for a in _items(truth, "actions")],
    ]
    meeting.said = [
        Said(
            index,
            sentence.start,
            speaker,
            sentence.text,
            frozenset(labels[n]),
            frozenset(
                kind
                for groups, kind in keywords
                if kind not in labels[n] and groups and _says(sentence.text, groups)
            ),
        )
        for n, (index, speaker, sentence) in enumerate(said)
    ]
    return meeting


def _items(truth: dict[str, object], key: str) -> list[dict[str, str]]:
    found = truth.get(key) or []
    assert isinstance(found, list)
    return found


def _says(text: str, groups: list[list[str]]) -> bool:
    """Whether a sentence holds a word of every keyword group of an item (the sets' rule for
    an extracted item matching a truth item): it says that item again."""
    lower = text.lower()
    return all(any(word in lower for word in group) for group in groups)


def _overlaps(sentence: str, quote: str) -> bool:
    """Whether a sentence holds a quote, lies inside it, or shares most of a long one (a
    quote over two sentences labels both; an export's clean-up may shave a word)."""
    if not sentence or not quote:
        return False
    if quote in sentence or (len(sentence) >= 12 and sentence in quote):
        return True
    words = set(sentence.split())
    quoted = set(quote.split())
    return len(words) >= 4 and len(words & quoted) >= 0.8 * len(words)


def unseen(benchdata: Path) -> frozenset[str]:
    """The sets benchdata/unseen.txt keeps unseen: scores only, never read, never learned."""
    listed = benchdata / "unseen.txt"
    names = (line.split("#", 1)[0].strip() for line in listed.read_text().splitlines())
    return frozenset(name for name in names if name)


def training_sets(benchdata: Path, dev: Path) -> list[Path]:
    """The labelled sets a model may learn from: the dev set and every complete held-out
    set in benchdata/ (truth, people and questions written) that is not kept unseen."""
    hidden = unseen(benchdata)
    found = [dev] if (dev / "truth.jsonl").is_file() else []
    found += sorted(
        folder
        for folder in benchdata.iterdir()
        if all((folder / f).is_file() for f in ("truth.jsonl", "people.jsonl", "questions.jsonl"))
        and folder.name not in hidden
    )
    return found
