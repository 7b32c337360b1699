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
from memo_tui.core.capture.offline.candidates import note_items, spoken_items
from memo_tui.core.capture.offline.decision_details import describe_decision
from memo_tui.core.capture.offline.items import Item
from memo_tui.core.capture.offline.merging import merge
from memo_tui.core.capture.offline.summary import summarize
from memo_tui.core.capture.offline.text import word_count
from memo_tui.core.capture.sources import Transcript
from memo_tui.core.llm.schemas import ExtractedActionItem, ExtractedDecision, Extraction


def extract(transcript: Transcript) -> Extraction:
    """The structured record of a meeting, from rules alone."""
    turns = transcript.turns
    noted, used = note_items(transcript)
    spoken = [i for i in spoken_items(transcript) if i.turn_index not in used]
    items = noted + spoken
    for item in items:
        if item.kind == "decision":
            describe_decision(item, turns)
        else:
            describe_action(item, turns, transcript)
    items = merge([i for i in items if word_count(i.description) >= 2], turns)
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
