"""The AMI and ICSI meeting corpora's annotations as labelled dialogue acts, for training.

Their abstractive summaries list what each meeting decided (`decisions`) and, in AMI, what
it handed out (`actions`); the extractive links (`*.summlink.xml`) tie each summary sentence
to the dialogue acts that carry it. Those dialogue acts are the positives; every other
dialogue act of an annotated meeting is a negative. The layout is that of the
ELITR/minuting-experimentation repository (`data/raw_ami`, `data/raw_icsi`), which holds
the corpora's NXT annotations (CC BY 4.0).

No meeting in the exclusion list (QMSum's validation and test splits: memo's measure and
its hidden score) is ever read: `meetings()` skips them, and `assert_trainable` refuses any
that reaches a training set by another way.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

NITE = "{http://nite.sourceforge.net/}"
_HREF = re.compile(r"(?P<file>[^#]+)#id\((?P<first>[^)]+)\)(?:\.\.id\((?P<last>[^)]+)\))?")
LABELS = ("decision", "action")
_SECTIONS = {"decisions": "decision", "actions": "action"}


class ExcludedMeeting(ValueError):
    """A meeting no trained model may learn from reached a training set."""


@dataclass(frozen=True)
class Act:
    """One dialogue act: who said it, when, its words, and what the summaries made of it."""

    speaker: str
    start: float
    text: str
    labels: frozenset[str] = frozenset()


@dataclass
class Meeting:
    """A meeting's dialogue acts in the order they were said."""

    id: str
    corpus: str  # "ami" or "icsi"
    acts: list[Act] = field(default_factory=list)


def exclusions(path: Path) -> frozenset[str]:
    """The meeting ids of the exclusion list (one id a line, then its split; # comments)."""
    ids = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            ids.add(line.split()[0])
    return frozenset(ids)


def assert_trainable(meeting_ids: list[str] | set[str], excluded: frozenset[str]) -> None:
    """Refuse a training set holding any excluded meeting (ExcludedMeeting names them)."""
    found = sorted(set(meeting_ids) & excluded)
    if found:
        raise ExcludedMeeting(f"meetings no model may learn from: {', '.join(found)}")


def meetings(root: Path, excluded: frozenset[str]) -> Iterator[Meeting]:
    """Every annotated AMI and ICSI meeting under `root` (the repository's `data` folder),
    excluded ones left unread."""
    for corpus, folder in (("ami", root / "raw_ami"), ("icsi", root / "raw_icsi")):
        abstractive = folder / "abstractive"
        if not abstractive.is_dir():
            continue
        for summary in sorted(abstractive.glob("*.abssumm.xml")):
            meeting_id = summary.name.split(".")[0]
            if meeting_id in excluded:
                continue
            found = _meeting(folder, corpus, meeting_id)
            if found is not None:
                yield found


def _meeting(folder: Path, corpus: str, meeting_id: str) -> Meeting | None:
    kinds = _sentence_kinds(folder / "abstractive" / f"{meeting_id}.abssumm.xml")
    links = folder / "extractive" / f"{meeting_id}.summlink.xml"
    if not links.is_file():
        return None
    labelled: dict[str, set[str]] = {}
    for act_id, sentence_id in _links(links):
        if sentence_id in kinds:
            labelled.setdefault(act_id, set()).add(kinds[sentence_id])
    acts_folder, words_folder = _folders(folder, corpus)
    acts = []
    for acts_file in sorted(acts_folder.glob(f"{meeting_id}.*.xml")):
        speaker = acts_file.name.split(".")[1]
        words = _words(words_folder, acts_file)
        for act_id, start, text in _acts(acts_file, words):
            if text:
                labels = frozenset(labelled.get(act_id, ()))
                acts.append(Act(speaker, start, text, labels))
    acts.sort(key=lambda act: act.start)
    return Meeting(meeting_id, corpus, acts)


def _folders(folder: Path, corpus: str) -> tuple[Path, Path]:
    if corpus == "ami":
        return folder / "dialogueActs", folder / "words"
    return folder / "DialogueActs", folder / "Words"


def _sentence_kinds(path: Path) -> dict[str, str]:
    """Summary sentence id -> "decision" or "action", for the sentences under those heads."""
    kinds = {}
    for section in ElementTree.parse(path).getroot():
        kind = _SECTIONS.get(section.tag)
        if kind is None:
            continue
        for sentence in section.iter("sentence"):
            kinds[sentence.get(f"{NITE}id", "")] = kind
    return kinds


def _links(path: Path) -> Iterator[tuple[str, str]]:
    """(dialogue act id, summary sentence id) for each extractive link."""
    for link in ElementTree.parse(path).getroot():
        ends = {}
        for pointer in link:
            match = _HREF.match(pointer.get("href", ""))
            if match:
                ends[pointer.get("role")] = match["first"]
        if "extractive" in ends and "abstractive" in ends:
            yield ends["extractive"], ends["abstractive"]


@dataclass
class _Words:
    """A speaker's words file: each element's id, position and text (empty for a sound)."""

    order: dict[str, int]
    tokens: list[tuple[str, bool, float | None]]  # text, punctuation, start time


def _words(folder: Path, acts_file: Path) -> _Words:
    meeting_id, speaker = acts_file.name.split(".")[:2]
    path = folder / f"{meeting_id}.{speaker}.words.xml"
    order: dict[str, int] = {}
    tokens: list[tuple[str, bool, float | None]] = []
    if path.is_file():
        for element in ElementTree.parse(path).getroot():
            order[element.get(f"{NITE}id", "")] = len(tokens)
            text = (element.text or "").strip() if element.tag == "w" else ""
            punctuation = element.get("punc") == "true" or element.get("c") == "CM"
            started = element.get("starttime") or ""
            tokens.append((text, punctuation, float(started) if started else None))
    return _Words(order, tokens)


def _acts(path: Path, words: _Words) -> Iterator[tuple[str, float, str]]:
    """(id, start time, text) of each dialogue act in a speaker's file."""
    for act in ElementTree.parse(path).getroot():
        child = next((c for c in act if c.tag == f"{NITE}child"), None)
        match = _HREF.match(child.get("href", "")) if child is not None else None
        if match is None or match["first"] not in words.order:
            continue
        first = words.order[match["first"]]
        last = words.order.get(match["last"] or match["first"], first)
        span = words.tokens[first : last + 1]
        starts = [s for _, _, s in span if s is not None]
        start = float(act.get("starttime") or (starts[0] if starts else 0.0))
        yield act.get(f"{NITE}id", ""), start, _joined(span)


_ATTACHED = re.compile(r"^(?:'|n't$|[.,;:?!])", re.I)  # ICSI writes "I 'll", "do n't", "here ."


def _joined(span: list[tuple[str, bool, float | None]]) -> str:
    """Words as a line of text: punctuation and a contraction's end against the word before."""
    text = ""
    for word, punctuation, _ in span:
        if not word:
            continue
        attached = punctuation or _ATTACHED.match(word)
        text += word if attached or not text else f" {word}"
    return text
