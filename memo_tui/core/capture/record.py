"""From a transcript and its extraction to the rows the store writes, evidence verified."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from memo_tui.core.capture.evidence import SpeechEvidence, Verdict
from memo_tui.core.capture.excerpts import excerpts
from memo_tui.core.capture.formats.base import Turn, is_bot
from memo_tui.core.capture.grounding import Anchored, Grounding
from memo_tui.core.capture.sources import Transcript
from memo_tui.core.capture.subject import decision_subject
from memo_tui.core.capture.untrusted import not_the_meetings
from store import NewActionItem, NewCapture, NewDecision, Provenance, utc_now

if TYPE_CHECKING:
    from memo_tui.core.llm.schemas import ExtractedActionItem, ExtractedDecision, Extraction


class Outcome(Protocol):
    """What an LLM extractor returns besides the record: how it read the transcript."""

    @property
    def extraction(self) -> Extraction: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def chunks(self) -> int: ...
    @property
    def llm_calls(self) -> tuple[int, ...]: ...


def _replaced_by(decision: ExtractedDecision, number: int, count: int) -> int | None:
    """For a replaced decision, the number of the one that replaced it. A replaced decision
    must point at another decision of the meeting; one that does not is kept as current
    (a model's word alone does not retire a call)."""
    later = decision.superseded_by
    if decision.status == "superseded" and later and 0 < later <= count and later != number:
        return later
    return None


def _without_cycles(links: list[int | None]) -> list[int | None]:
    """Replacement links that end at a current decision: a chain that comes back on itself
    (A replaced by B, B by A: a model's slip) leaves every decision on it current."""
    kept = list(links)
    for start in range(len(links)):
        seen, at = {start + 1}, links[start]
        while at is not None and at not in seen:
            seen.add(at)
            at = links[at - 1]
        if at is not None:  # came back round
            for number in seen:
                kept[number - 1] = None
    return kept


def asked_by(turns: Sequence[Turn], line: int | None, owner: str | None) -> str | None:
    """Who asked for an action item: the speaker of the turn it was said in, when the item
    has an owner and the speaker shares no name with them ("Raj, quotes." said by Libby)."""
    if line is None or not owner:
        return None
    turn = next((t for t in turns if t.line <= line <= t.end), None)
    if turn is None or not turn.speaker:
        return None
    words = {w.lower() for w in re.findall(r"\w+", owner)}
    return None if words & {w.lower() for w in re.findall(r"\w+", turn.speaker)} else turn.speaker


def _checked(
    label: str, verdict: Verdict, unverified: list[dict[str, str]]
) -> tuple[int | None, int | None]:
    """The verdict's lines, its reason noted under `label` when the quote did not verify."""
    if verdict.lines is None:
        unverified.append({"item": label, "why": verdict.why or "unverified"})
        return None, None
    return verdict.lines


def _decisions(
    transcript: Transcript,
    extraction: Extraction,
    grounding: Grounding,
    speakers: set[str],
    unverified: list[dict[str, str]],
) -> list[NewDecision]:
    count = len(extraction.decisions)
    links = _without_cycles(
        [_replaced_by(d, n, count) for n, d in enumerate(extraction.decisions, start=1)]
    )
    decisions = []
    for number, (d, later) in enumerate(zip(extraction.decisions, links, strict=True), start=1):
        held = _held(d, grounding, d.reasoning)
        start, end = _checked(f"decision {number}", held.verdict, unverified)
        said = d.description
        if d.confidence is None:  # a model's: it must say what was chosen
            said = grounding.stating_the_choice(d.description, held.quote)
        own = (said, held.quote, d.reasoning or "")
        decisions.append(
            NewDecision(
                description=said,
                reasoning=d.reasoning,
                decided_by=d.decided_by,
                line_start=start,
                line_end=end,
                evidence_quote=held.quote,
                verified=start is not None,
                status="current" if later is None else "superseded",
                superseded_by=later,
                subject=decision_subject(transcript.turns, start, own, speakers),
                **_judged(d, "decision", extraction, held, grounding),
            )
        )
    return decisions


def _actions(
    transcript: Transcript,
    extraction: Extraction,
    grounding: Grounding,
    unverified: list[dict[str, str]],
) -> list[NewActionItem]:
    actions = []
    for number, a in enumerate(extraction.action_items, start=1):
        held = _held(a, grounding)
        start, end = _checked(f"action item {number}", held.verdict, unverified)
        status = a.status
        if (
            status == "done"
            and a.confidence is None
            and not grounding.said_done(held.verdict.lines)
        ):
            status = "open"  # a model's word alone does not close a task: the meeting must say so
        actions.append(
            NewActionItem(
                description=a.description,
                assignee_raw=a.assignee,
                due_date=a.due_date.isoformat() if a.due_date else None,
                line_start=start,
                line_end=end,
                evidence_quote=held.quote,
                verified=start is not None,
                status=status,
                asked_by=asked_by(transcript.turns, start, a.assignee),
                **_judged(a, "action", extraction, held, grounding),
            )
        )
    return actions


def _held(
    item: ExtractedDecision | ExtractedActionItem,
    grounding: Grounding,
    reasoning: str | None = None,
) -> Anchored:
    """Where an item was said: its quote checked, and a model's re-anchored when it is no
    span of speech about the item (the offline extractor quotes verbatim)."""
    if item.confidence is not None:
        verdict = grounding.evidence.check(item.evidence_quote, item.description, reasoning)
        return Anchored(item.evidence_quote, verdict)
    return grounding.anchored(item.evidence_quote, item.description, reasoning)


def _judged(
    item: ExtractedDecision | ExtractedActionItem,
    kind: str,
    extraction: Extraction,
    held: Anchored,
    grounding: Grounding,
) -> dict[str, Any]:
    """How sure memo is of an item, and so its state. The offline extractor's judge rated
    its own items; a model's are rated by the same judge on the sentences they rest on. An
    item with no verified quote is never asserted (nobody can check it)."""
    lines = held.verdict.lines
    if item.confidence is None:  # a model's item
        chance = grounding.rating(kind, lines, held.quote)
        judge = grounding.judge
        sure = chance is not None and chance >= judge.thresholds(kind, False).assert_at
        return {
            "confidence": chance,
            "state": "asserted" if sure else "proposed",
            "model_version": f"{judge.version}/{judge.variant(False)}",
        }
    state = item.state or "asserted"
    if state == "asserted" and lines is None:
        state = "proposed"
    return {
        "confidence": item.confidence,
        "state": state,
        "model_version": extraction.model_version,
    }


def _the_meetings_own(
    transcript: Transcript, decisions: list[NewDecision], actions: list[NewActionItem]
) -> tuple[list[NewDecision], list[NewActionItem]]:
    """Only what the meeting said or wrote as its own (whichever extractor found it): an
    item quoted from a tool's post, a guest's, a forged or read-out line is left out, and
    a tool is never a decider or an owner."""
    foreign = {
        line
        for index, turn in enumerate(transcript.turns)
        if not_the_meetings(transcript, index)
        for line in range(turn.line, turn.end + 1)
    }
    kept = [n for n, d in enumerate(decisions, start=1) if d.line_start not in foreign]
    number = {old: new for new, old in enumerate(kept, start=1)}  # (a replacement's number)
    kept_decisions = []
    for old in kept:
        d = decisions[old - 1]
        later = number.get(d.superseded_by) if d.superseded_by else None
        kept_decisions.append(
            replace(
                d,
                decided_by=None if is_bot(d.decided_by) else d.decided_by,
                superseded_by=later,
                status=d.status if later else "current",
            )
        )
    kept_actions = [
        replace(a, assignee_raw=None if is_bot(a.assignee_raw) else a.assignee_raw)
        for a in actions
        if a.line_start not in foreign
    ]
    return kept_decisions, kept_actions


def build_capture(
    transcript: Transcript,
    result: Extraction | Outcome,
    *,
    content_hash: str,
    signature: bytes,
    source_path: str | None,
    source_kind: str,
    extractor: str,
    user: str,
    source_type: str = "meeting",
) -> NewCapture:
    """The capture row and its facts from what an extractor returned (the record, or an
    outcome holding it, the model calls made and whether the text was cut); an item whose
    quote is no real span of speech about it is kept unverified, and why is kept in the
    capture's meta."""
    from memo_tui.core.llm.schemas import Extraction  # loaded by every extractor

    extraction = result if isinstance(result, Extraction) else result.extraction
    speakers = {t.speaker for t in transcript.turns if t.speaker} | set(transcript.attendees)
    evidence = SpeechEvidence(
        transcript.lines, transcript.turns, transcript.title, [*speakers, *transcript.guests]
    )
    unverified: list[dict[str, str]] = []
    grounding = Grounding(transcript, evidence)
    decisions = _decisions(transcript, extraction, grounding, speakers, unverified)
    actions = _actions(transcript, extraction, grounding, unverified)
    decisions, actions = _the_meetings_own(transcript, decisions, actions)
    kind = source_kind if source_path else "text"
    return NewCapture(
        source_kind=kind,
        source_path=source_path,
        source_format=transcript.source_format,
        content_hash=content_hash,
        signature=signature,
        title=transcript.title or transcript.name,
        occurred_at=transcript.occurred_at.isoformat() if transcript.occurred_at else None,
        raw_text=transcript.raw_text,
        text=transcript.text,
        line_count=len(transcript.lines),
        summary=extraction.summary,
        meta=_meta(transcript, extraction, unverified),
        extractor=extractor,
        truncated=bool(getattr(result, "truncated", False)),
        provenance=Provenance(
            source_type=source_type,
            source_id=f"{kind}:{source_path or content_hash[:16]}",
            captured_at=utc_now(),
            triggered_by_user=user,
            triggered_by_agent=extractor,
        ),
        decisions=decisions,
        action_items=actions,
        excerpts=excerpts(transcript),
        llm_call_ids=tuple(getattr(result, "llm_calls", ())),
    )


def _meta(
    transcript: Transcript, extraction: Extraction, unverified: list[dict[str, str]]
) -> dict[str, object]:
    """What the capture keeps about how it was read, beside its rows."""
    meta: dict[str, object] = extraction.meta.model_dump()
    if not transcript.as_written:
        # Line N of an export's capture is turn N; this maps it back to the file's lines.
        meta["source_lines"] = [list(turn.source_lines) for turn in transcript.turns]
    if transcript.skipped:
        meta["skipped"] = transcript.skipped
    if unverified:
        meta["unverified"] = unverified
    if extraction.model_version:
        meta["judge"] = {"model_version": extraction.model_version, "note": extraction.judge_note}
    return meta
