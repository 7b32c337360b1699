"""The offline extractor: deterministic rules over the whole transcript, no model.

It reads every turn (no slice), scores sentences by decision and action cues, keeps the
reasoning said nearby, lets a later reversal replace an earlier decision on the same topic,
and quotes each item verbatim so its lines can be verified.

The steps, in order: `candidates` (what was said or written as a call or a task, scored by
`sentence_scores`), `decision_details` and `action_details` (what each item says, who owns
it, when it is due), then `merging` (restatements, `superseding`, `task_owners`,
`task_references`).
"""

from __future__ import annotations

from memo_tui.core.capture.offline.action_details import describe_action
from memo_tui.core.capture.offline.candidates import Verdicts, heard, note_items, spoken_items
from memo_tui.core.capture.offline.copies import without_copies
from memo_tui.core.capture.offline.decision_details import describe_decision
from memo_tui.core.capture.offline.items import Item
from memo_tui.core.capture.offline.judge import KINDS, NEVER, Embed, Judge, Thresholds, shipped
from memo_tui.core.capture.offline.merging import merge
from memo_tui.core.capture.offline.summary import summarize
from memo_tui.core.capture.offline.text import word_count
from memo_tui.core.capture.sources import Transcript
from memo_tui.core.llm.schemas import (
    ExtractedActionItem,
    ExtractedDecision,
    Extraction,
    State,
)


def extract(
    transcript: Transcript,
    embed: Embed | None = None,
    judge: Judge | None = None,
    decides: bool = False,
) -> Extraction:
    """The structured record of a meeting: the rules find and word the items, the learned
    judge (`judge`, the shipped one by default) says how sure it is of each, with the
    sentences' embeddings when `embed` is given; an item it is sure enough of is asserted,
    any other proposed. A sentence the rules pass over is an item when the judge is as
    sure as its `add_at`. With `decides`, the judge chooses which sentences are items (any
    at or above its `propose_at`). With `embed`, copies of an item said in other words go
    (`copies`). (`by_rules` is the rules alone.)"""
    judge = judge or shipped()
    items = merged_items(transcript, embed, judge, decides)
    if embed is not None:
        items = without_copies(items, transcript.turns, embed)
    extraction = _record(transcript, items)
    embedded = embed is not None
    for kind, found in (("decision", extraction.decisions), ("action", extraction.action_items)):
        sure = judge.thresholds(kind, embedded).assert_at
        for item in found:
            item.state = _state(item.confidence, sure)
    extraction.model_version = f"{judge.version}/{judge.variant(embedded)}"
    return extraction


def merged_items(
    transcript: Transcript,
    embed: Embed | None = None,
    judge: Judge | None = None,
    decides: bool = False,
) -> list[Item]:
    """A meeting's items as the rules find, word and merge them, judged (see `extract`)."""
    judge = judge or shipped()
    noted, used = note_items(transcript)
    said = [h for h in heard(transcript) if h.said.turn not in used]
    chances = judge.judge([h.said for h in said], embed)
    embedded = embed is not None
    cuts = {kind: judge.thresholds(kind, embedded) for kind in KINDS}
    # A meeting shorter than any it learned from is outside what it knows: the rules' items
    # stand there, rated, and the judge neither drops nor adds one.
    known = len(said) >= judge.meeting_sentences
    at = {
        kind: cut.propose_at if decides else cut.add_at if known else NEVER
        for kind, cut in cuts.items()
    }
    verdicts = Verdicts(said, chances, at["decision"], at["action"], decides)
    for item in noted:
        item.confidence = judge.notes_confidence(item.kind)
    spoken = spoken_items(transcript, verdicts)
    if not decides and known:
        spoken = _kept(spoken, cuts)
    return _merged(transcript, noted + spoken)


def _kept(items: list[Item], cuts: dict[str, Thresholds]) -> list[Item]:
    """The rules' items but those the judge is all but sure are none (below the kind's
    `drop_at`, where held-out sets lost 3% of their right items): a call given another
    value after an objection stays, and so does the value given, so the replacement is
    seen, unless the judge holds the value given for none at all (below `propose_at`:
    "Ask me in January." is no new date for a launch)."""
    given = [
        i
        for i in items
        if i.changes is not None
        and (i.confidence is None or i.confidence >= cuts[i.kind].propose_at)
    ]
    chained = {id(i) for i in given} | {id(i.changes) for i in given}
    return [
        i
        for i in items
        if i.confidence is None or i.confidence >= cuts[i.kind].drop_at or id(i) in chained
    ]


def _state(confidence: float | None, sure: float) -> State | None:
    if confidence is None:
        return None
    return "asserted" if confidence >= sure else "proposed"


def by_rules(transcript: Transcript) -> Extraction:
    """The structured record of a meeting from the rules alone (their own thresholds)."""
    noted, used = note_items(transcript)
    spoken = [i for i in spoken_items(transcript) if i.turn_index not in used]
    return _record(transcript, _merged(transcript, noted + spoken))


def _merged(transcript: Transcript, items: list[Item]) -> list[Item]:
    """The items worded (what each says, who owns it, by when) and merged."""
    turns = transcript.turns
    for item in items:
        if item.kind == "decision":
            describe_decision(item, turns)
        else:
            describe_action(item, turns, transcript)
    return merge([i for i in items if word_count(i.description) >= 2], turns)


def _record(transcript: Transcript, items: list[Item]) -> Extraction:
    said = [i for i in items if i.kind == "decision"]
    number = {id(item): n for n, item in enumerate(said, start=1)}
    decisions = [
        ExtractedDecision(
            description=i.description,
            reasoning=i.reasoning,
            decided_by=i.decided_by,
            evidence_quote=i.quote,
            status="superseded" if i.superseded_by else "current",
            superseded_by=_last(i, number),
            confidence=i.confidence,
        )
        for i in said
    ]
    actions = [
        ExtractedActionItem(
            description=i.description,
            assignee=i.assignee,
            due_date=i.due,
            status="done" if i.done else "dropped" if i.dropped else "open",
            evidence_quote=i.quote,
            confidence=i.confidence,
        )
        for i in items
        if i.kind == "action"
    ]
    return summarize(transcript, decisions, actions)


def _last(item: Item, number: dict[int, int]) -> int | None:
    """For a replaced decision, the number of the one that holds after the replacements."""
    if item.superseded_by is None:
        return None
    while item.superseded_by is not None:
        item = item.superseded_by
    return number.get(id(item))
