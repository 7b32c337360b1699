"""From a transcript and its extraction to the rows the store writes, evidence verified."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memo_tui.core.capture.evidence import EvidenceIndex
from memo_tui.core.capture.excerpts import excerpts
from memo_tui.core.capture.formats.base import Turn
from memo_tui.core.capture.sources import Transcript
from memo_tui.core.capture.subject import decision_subject
from store import NewActionItem, NewCapture, NewDecision, Provenance, utc_now

if TYPE_CHECKING:
    from memo_tui.core.llm.schemas import ExtractedDecision, Extraction

# Reasoning said within this many lines of the quote widens the evidence range to include it.
REASONING_REACH = 12


def evidence_lines(
    index: EvidenceIndex, quote: str, reasoning: str | None = None
) -> tuple[int, int] | None:
    """The quote's lines, widened to the reasoning when that was said close by."""
    found = index.locate(quote)
    if found is None:
        return None
    start, end = found.line_start, found.line_end
    reason = index.locate(reasoning) if reasoning else None
    if reason is not None and abs(reason.line_start - start) <= REASONING_REACH:
        start, end = min(start, reason.line_start), max(end, reason.line_end)
    return start, end


def _span(lines: tuple[int, int] | None) -> dict[str, int | None | bool]:
    return {
        "line_start": lines[0] if lines else None,
        "line_end": lines[1] if lines else None,
        "verified": lines is not None,
    }


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


def build_capture(
    transcript: Transcript,
    extraction: Extraction,
    *,
    content_hash: str,
    signature: bytes,
    source_path: str | None,
    source_kind: str,
    extractor: str,
    user: str,
    truncated: bool = False,
    llm_call_ids: tuple[int, ...] = (),
    source_type: str = "meeting",
) -> NewCapture:
    """The capture row and its facts; an item whose quote is not in the text is unverified."""
    index = EvidenceIndex(transcript.lines)
    count = len(extraction.decisions)
    links = _without_cycles(
        [_replaced_by(d, n, count) for n, d in enumerate(extraction.decisions, start=1)]
    )
    speakers = {t.speaker for t in transcript.turns if t.speaker} | set(transcript.attendees)
    decisions = []
    for d, later in zip(extraction.decisions, links, strict=True):
        span = _span(evidence_lines(index, d.evidence_quote, d.reasoning))
        own = (d.description, d.evidence_quote, d.reasoning or "")
        line = span["line_start"] if isinstance(span["line_start"], int) else None
        decisions.append(
            NewDecision(
                description=d.description,
                reasoning=d.reasoning,
                decided_by=d.decided_by,
                evidence_quote=d.evidence_quote,
                status="current" if later is None else "superseded",
                superseded_by=later,
                subject=decision_subject(transcript.turns, line, own, speakers),
                **span,  # type: ignore[arg-type]
            )
        )
    actions = []
    for a in extraction.action_items:
        span = _span(evidence_lines(index, a.evidence_quote))
        line = span["line_start"] if isinstance(span["line_start"], int) else None
        actions.append(
            NewActionItem(
                description=a.description,
                assignee_raw=a.assignee,
                due_date=a.due_date.isoformat() if a.due_date else None,
                status=a.status,
                evidence_quote=a.evidence_quote,
                asked_by=asked_by(transcript.turns, line, a.assignee),
                **span,  # type: ignore[arg-type]
            )
        )
    meta = extraction.meta.model_dump()
    if not transcript.as_written:
        # Line N of an export's capture is turn N; this maps it back to the file's lines.
        meta["source_lines"] = [list(turn.source_lines) for turn in transcript.turns]
    if transcript.skipped:
        meta["skipped"] = transcript.skipped
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
        meta=meta,
        extractor=extractor,
        truncated=truncated,
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
        llm_call_ids=llm_call_ids,
    )
