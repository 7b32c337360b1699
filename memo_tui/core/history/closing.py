"""Action items closed by later evidence: "Marta finished the burn-in plan", "thanks for
sending the API docs", a ticked `- [x]` line in the next meeting's notes.

With the embedding model memo's learned closer decides (`closing_model`: measured on sets
it never learned from, it finds about twice the closes the rules do at the same precision);
without it, the rules below. By the rules, a sentence of a later meeting closes an earlier
open item when it says something is done (not that it will be, nor that it is not: "came
back", "went fine", "thanks for the plan", "I did all twelve when I was up there") and
shares the item's rare words, and it names the owner or is said by them. Either way a close
is proposed for review, never applied on its own: status notes are terse ("one-pager v1
(SD) circulated 27/1") and a wrong close hides work still owed."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memo_tui.core.capture.subject import subject_words
from store import NewChange, OpenItem, Store

if TYPE_CHECKING:
    from memo_tui.core.capture.offline.judge import Embed
    from memo_tui.core.capture.offline.pairs import Logistic

DONE = re.compile(
    r"\b(?:finished|done|completed|sent|shipped|delivered|signed off|signed|merged|fixed|"
    r"wrapped up|went (?:out|back|live|in|to)|is (?:in|live|merged|up)|are (?:in|live|up)|"
    r"submitted|uploaded|published|installed|migrated|landed|arrived|booked|ordered|"
    r"circulated|shared|chased|ran|running since|came (?:in|through)|"
    r"came back (?:from|signed|with|last|yesterday)|"
    r"went (?:fine|well|smoothly|ok(?:ay)?)|"
    r"(?:I|we|he|she|they)\s+(?:just\s+|already\s+)?(?:set up|did|wrote|built|put)|"
    r"I\s+(?:just\s+|already\s+)?got (?:the|it|them|those|all)|"
    r"thank(?:s| you)(?: (?-i:[A-Z])[\w'-]+)? for (?:the|your|sending|doing|getting|setting up|"
    r"fixing|sorting)|sorted)\b|\u2714",
    re.IGNORECASE,
)
NOT_DONE = re.compile(
    r"n't\b|\b(?:not|never|yet|still|no(?:body| one)|will|going to|'ll|"
    r"tomorrow|next (?:week|month)|this week|"
    r"by (?:monday|tuesday|wednesday|thursday|friday|the(?! way))|"
    r"when(?! (?:I|we|he|she|they) (?:was|were)\b)|once|if|until|hopefully|should|almost|"
    r"nearly)\b|\?"
    r"|^\W*(?-i:(?:[A-Z][\w'.-]*\s+){1,3})to\s",  # "Sam Cheng to swap the Zebra": a task
    re.IGNORECASE,
)
TICKED = re.compile(r"^\s*[-*]\s*\[[xX]\]")
_SPEAKER = re.compile(r"^\s*(?:\[[\d:.]+\]\s*)?([^:\n]{2,60}):\s+(.*)$")
WEAK_SHARE = 0.35  # of the item's weight said again, with its owner, to propose closing it
SHARED_WEIGHT = 3.0  # and this much rarity-weighted overlap,
SHARED_WORDS = 4  # or this many words (in a small store, no word is rare)


@dataclass(frozen=True)
class Said:
    line: int
    speaker: str | None
    text: str


def done_sentences(text: str) -> list[Said]:
    """The lines of a capture that report something done, with who said them."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):  # as line numbers count
        speaker, said = None, line
        matched = _SPEAKER.match(line)
        if matched and not TICKED.match(line):
            speaker, said = matched.group(1).strip(), matched.group(2)
        for sentence in re.split(r"(?<=[.!?])\s+", said):
            ticked = bool(TICKED.match(sentence))
            if ticked or (DONE.search(sentence) and not NOT_DONE.search(sentence)):
                found.append(Said(number, speaker, sentence.strip()))
    return found


def names_of(owner: str | None, shared: frozenset[str] | set[str] = frozenset()) -> set[str]:
    """How notes name an owner: first name (unless another person has it: `shared`), last
    name, initials ("SD"), first name and an initial ("JohnP", "SamO")."""
    words = [w for w in re.findall(r"[^\W\d_]+", owner or "") if len(w) > 1]
    if not words:
        return set()
    forms = {w.lower() for w in words[1:]} | ({words[0].lower()} - shared)
    if len(words) > 1:
        forms.add("".join(w[0] for w in words).lower())
        forms.add((words[0] + words[-1][0]).lower())
    return forms


def enough_said(shared: float, words: int, share: float) -> bool:
    """Whether a sentence says enough of an item to close it: this much rarity-weighted
    overlap or this many words, and this share of the item's weight."""
    return (shared >= SHARED_WEIGHT or words >= SHARED_WORDS) and share >= WEAK_SHARE


def said_names(text: str) -> set[str]:
    """The words of a text that could be names, lower case."""
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text)}


def _rarity(store: Store, items: list[OpenItem]) -> Callable[[str], float]:
    """How rare a word is across what the store says: its open items and every decision's
    subject (over the open items alone, a store with one open item makes no word rare)."""
    subjects = [set(subject.split()) for subject in store.changes.decision_subjects()]
    counts = Counter(w for item in items for w in subject_words([item.description]))
    counts.update(w for subject in subjects for w in subject)
    documents = len(items) + len(subjects)
    return lambda word: math.log((documents + 1) / (counts[word] + 0.5))


def closings(store: Store, capture_id: int, embed: Embed | None = None) -> list[NewChange]:
    """Earlier open action items this capture reports done: one sentence closes one item.
    The learned closer decides when the embedding model is here (`embed`), else the rules."""
    asked = {c.old_id for c in store.changes.all(("proposed", "applied")) if c.kind == "closes"}
    items = [i for i in store.changes.open_items_before(capture_id) if i.id not in asked]
    if not items:
        return []
    from memo_tui.core.history import closing_model

    closer = closing_model.shipped()
    if embed is not None and closer is not None:
        return _learned(store, capture_id, items, closer, embed)
    return _by_rules(store, capture_id, items)


def _learned(
    store: Store,
    capture_id: int,
    items: list[OpenItem],
    closer: Logistic,
    embed: Embed,
) -> list[NewChange]:
    from memo_tui.core.capture.offline.text import sentences
    from memo_tui.core.capture.sources import parse, stored_format
    from memo_tui.core.history.closing_model import Sentence, Task, closes

    summary = store.captures.get(capture_id)
    if summary is None:
        return []
    text = store.captures.text(capture_id)
    turns = parse(text, summary.title, "txt", stored_format(summary.source_format)).turns
    said = [
        (turn.line + turn.text[: s.start].count("\n"), Sentence(turn.speaker, s.text))
        for turn in turns
        for s in sentences(turn.text)
    ]
    tasks = [Task(i.description, i.owner) for i in items]
    others = store.changes.decision_subjects()
    found = []
    for pair in closes(closer, tasks, [s for _, s in said], others, embed):
        item, (line, sentence) = items[pair.earlier], said[pair.later]
        found.append(
            NewChange(
                kind="closes",
                capture_id=capture_id,
                evidence=sentence.text,
                reason=f"{item.owner or 'its owner'}'s item, judged done ({pair.probability:.0%})",
                strength="strong" if pair.probability >= closer.apply_at else "weak",
                old_item_id=item.id,
                line_start=line,
                line_end=line,
                confidence=pair.probability,
                model_version=closer.version,
            )
        )
    return found


def _by_rules(store: Store, capture_id: int, items: list[OpenItem]) -> list[NewChange]:
    """The rules' closes: a done sentence naming the owner or said by them, saying enough of
    the item's rarer words."""
    said = done_sentences(store.captures.text(capture_id))
    if not said:
        return []
    rarity = _rarity(store, items)
    firsts = Counter(
        p.name.split()[0].lower() for p in store.people.directory().people if p.name.split()
    )
    common = {name for name, n in firsts.items() if n > 1}  # two Sams: "Sam" names neither

    owns = {item.id: subject_words([item.description]) for item in items}
    weights = {i: sum(rarity(w) for w in own) or 1.0 for i, own in owns.items()}
    found: list[NewChange] = []
    taken: set[int] = set()
    for sentence in said:
        best: tuple[float, OpenItem, str] | None = None
        words = subject_words([sentence.text])
        for item in items:
            own = owns[item.id]
            if item.id in taken or not own & words:
                continue
            weight = weights[item.id]
            shared = sum(rarity(w) for w in own & words)
            share = shared / weight
            names = names_of(item.owner, common)
            # said by its owner: a shared first name counts here ("Alex" owes it, an Alex says it)
            by_owner = bool(names_of(item.owner) & said_names(sentence.speaker or ""))
            named = bool(names & said_names(sentence.text))
            if not (named or by_owner) or not enough_said(shared, len(own & words), share):
                continue
            if best is None or share > best[0]:
                best = (share, item, "weak")
        if best is None:
            continue
        share, item, strength = best
        taken.add(item.id)
        owner = item.owner or "its owner"
        found.append(
            NewChange(
                kind="closes",
                capture_id=capture_id,
                evidence=sentence.text,
                reason=f"{owner}'s item, {share:.0%} of it said done",
                strength=strength,
                old_item_id=item.id,
                line_start=sentence.line,
                line_end=sentence.line,
            )
        )
    return found
