"""Turning results into the CLI's JSON contract and its plain-text output."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from memo_tui.core.safety import sanitize, sanitize_line

if TYPE_CHECKING:
    from memo_tui.core.capture import CaptureResult
    from store import (
        ActionItemRecord,
        CaptureSummary,
        ChangeRecord,
        DecisionRecord,
        FactPeople,
        FactRecord,
        PersonReport,
        PersonSummary,
        StoreStats,
    )


def warn(message: str) -> None:
    """A message for the user on stderr, with any control characters made visible."""
    print(sanitize_line(message), file=sys.stderr)


def emit_json(payload: dict[str, Any]) -> None:
    """JSON on stdout; ASCII-escaped so no raw control or bidi character reaches a terminal."""
    json.dump(payload, sys.stdout, ensure_ascii=True, indent=2)
    sys.stdout.write("\n")


def _evidence(record: DecisionRecord | ActionItemRecord) -> dict[str, Any]:
    lines = [record.line_start, record.line_end] if record.line_start is not None else None
    return {"lines": lines, "quote": record.evidence_quote, "verified": record.verified}


def decision_json(record: DecisionRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "description": record.description,
        "reasoning": record.reasoning,
        "decided_by": record.decider,
        "decided_by_person_id": record.person_id,
        "decided_by_said": record.decided_by,  # as the meeting said it
        "person_id": record.person_id,
        "pending": record.pending,
        "status": record.status,
        "superseded_by": record.superseded_by,
        "confidence": record.confidence and round(record.confidence, 3),  # null: no judge
        "state": record.state,  # asserted, proposed (waits for a yes or no) or rejected
        "model_version": record.model_version,
        "reviewed_by": record.reviewed_by,  # who accepted, edited or rejected it
        "evidence": _evidence(record),
    }


def action_json(record: ActionItemRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "description": record.description,
        "owner": record.owner,
        "owner_person_id": record.person_id,
        "assignee": record.assignee_raw,  # as the meeting said it
        "person_id": record.person_id,
        "pending": record.pending,
        "due_date": record.due_date,
        "status": record.status,
        "asked_by": record.asked_by,  # who asked for it, as said, when not its owner
        "confidence": record.confidence and round(record.confidence, 3),  # null: no judge
        "state": record.state,  # asserted, proposed (waits for a yes or no) or rejected
        "model_version": record.model_version,
        "reviewed_by": record.reviewed_by,  # who accepted, edited or rejected it
        "evidence": _evidence(record),
    }


def capture_json(result: CaptureResult) -> dict[str, Any]:
    return {
        "path": result.path,
        "status": result.status,
        "capture_id": result.capture_id,
        "title": result.title,
        "error": result.error,
        "format": result.format,
        "skipped": result.skipped,
        "channel_of": result.channel_of,
        "truncated": result.truncated,
        "extractor": result.extractor,
        "chunks": result.chunks,
        "llm_calls": result.llm_calls,
        "pending_names": result.pending_names,
        "decisions": [decision_json(d) for d in result.decisions],
        "action_items": [action_json(a) for a in result.action_items],
        "changes": [change_json(c) for c in result.changes],
        "judge": result.judge,
    }


def fact_json(fact: FactRecord, people: FactPeople | None = None) -> dict[str, Any]:
    """A fact for a script; a decision or action item with who it is about (`people`)."""
    lines = [fact.line_start, fact.line_end] if fact.line_start is not None else None
    about = vars(people) if people is not None else {}
    return {
        "fact_type": fact.fact_type,
        "fact_id": fact.fact_id,
        "text": fact.text,
        "capture_id": fact.capture_id,
        "title": fact.capture_title,
        "occurred_at": fact.occurred_at,
        "captured_at": fact.captured_at,
        "source_type": fact.source_type,
        "source_id": fact.source_id,
        "lines": lines,
        **about,
    }


def line_range(start: int | None, end: int | None) -> str:
    """The lines a fact was read from ("L12", "L12-14"), or "unverified" when none."""
    return "unverified" if start is None else f"L{start}" + (f"-{end}" if end != start else "")


# A proposed item's label: memo is not sure of it (memo review settles it).
UNSURE = " (unconfirmed)"


def print_items(decisions: list[DecisionRecord], actions: list[ActionItemRecord]) -> None:
    """Decisions with their why and who, then action items with owner and due date."""
    holds = {d.id: d for d in decisions}
    for d in sorted(decisions, key=lambda d: not d.current):
        by = f" ({sanitize_line(d.decider)})" if d.decider else ""
        span = line_range(d.line_start, d.line_end)
        label = "decision" if d.current else "replaced"
        unsure = UNSURE if d.state == "proposed" else ""
        print(f"  {label:<9} {span:<9} {sanitize_line(d.description)}{by}{unsure}")
        if d.reasoning and d.current:
            print(f"            {'':<9} why: {sanitize_line(d.reasoning)}")
        later = holds.get(d.superseded_by or 0)
        if later is not None:
            print(f"            {'':<9} by: {sanitize_line(later.description)}")
    for a in actions:
        owner = sanitize_line(a.owner) if a.owner else "no owner"
        owner += " (which one?)" if a.pending else ""
        due = f", due {a.due_date}" if a.due_date else ""
        done = {"done": ", done", "dropped": ", turned down"}.get(a.status, "")
        span = line_range(a.line_start, a.line_end)
        unsure = UNSURE if a.state == "proposed" else ""
        print(f"  action    {span:<9} {sanitize_line(a.description)} -> {owner}{due}{done}{unsure}")


def change_json(change: ChangeRecord) -> dict[str, Any]:
    return {
        "id": change.id,
        "kind": change.kind,
        "status": change.status,
        "strength": change.strength,
        "reason": change.reason,
        "confidence": None if change.confidence is None else round(change.confidence, 3),
        "model_version": change.model_version,
        "old": {
            "id": change.old_id,
            "text": change.old_text,
            "quote": change.old_quote,
            "date": change.old_day,
            "title": change.old_title,
            "valid_to": change.new_day if change.status == "applied" else None,
        },
        "new": {
            "id": change.new_decision_id,
            "text": change.new_text,
            "date": change.new_day,
            "title": change.new_title,
            "capture_id": change.capture_id,
            "lines": [change.line_start, change.line_end] if change.line_start else None,
            "evidence": change.evidence,
        },
        "decided_at": change.decided_at,
        "decided_by": change.decided_by,
    }


def print_capture(result: CaptureResult) -> None:
    if result.status in ("rejected", "needs_replace"):
        warn(f"{result.status:<13} {result.path}")
        warn(f"  {result.error or ''}")
        return
    via = f", {result.format}" if result.format else ""
    via += f", {result.extractor}" if result.extractor else ""
    if result.llm_calls:
        via += f", {result.llm_calls} model call{'s' if result.llm_calls != 1 else ''}"
    if result.truncated:
        via += ", TRUNCATED: part of the middle was not read"
    title = sanitize_line(result.title or "")
    print(f"{result.status:<13} {title}  (capture {result.capture_id}{via})")
    if result.channel_of is not None:
        print(f"  the chat of capture {result.channel_of}, saved beside its transcript")
    if result.skipped:
        from memo_tui.core.capture.formats.base import describe_skipped

        print(f"  left out: {describe_skipped(result.skipped)}")
    if result.judge and result.judge.get("note"):
        print(f"  confidence {sanitize_line(result.judge['note'] or '')}")
    print_items(result.decisions, result.action_items)
    for change in result.changes:
        sure = "" if change.confidence is None else f", {change.confidence:.0%} sure"
        old = f"{sanitize_line(change.old_text)} ({change.old_day}{sure})"
        if change.kind == "closes":
            print(f"  done?     {old}: memo changes accept|reject {change.id}")
        elif change.status == "applied":
            print(f"  replaces  {old}: memo changes undo {change.id}")
        else:
            print(f"  may replace {old}? memo changes accept|reject {change.id}")
    if result.pending_names:
        names = ", ".join(sanitize_line(n) for n in result.pending_names)
        print(f"  who is {names}? several people fit: memo pending, then memo confirm")


def print_meeting(
    capture: CaptureSummary, decisions: list[DecisionRecord], actions: list[ActionItemRecord]
) -> None:
    when = capture.occurred_at or capture.captured_at[:10]
    chat = f", the chat of capture {capture.channel_of}" if capture.channel_of else ""
    print(
        f"\n{sanitize_line(capture.title)} - {when}  "
        f"(capture {capture.id}, {capture.extractor}{chat})"
    )
    print_items(decisions, actions)
    if not decisions and not actions:
        print("  (no decisions or action items found)")


def print_facts(facts: list[FactRecord], filtered: bool = False) -> None:
    if not facts:
        if filtered:
            print("No facts match these filters.")
        else:
            print("No facts yet. Capture a transcript: memo capture PATH")
        return
    for fact in facts:
        lines = line_range(fact.line_start, fact.line_end)
        where = f"{sanitize_line(fact.capture_title or '')} {lines}"
        when = fact.occurred_at or fact.captured_at[:10]
        print(f"{fact.fact_type:<12} #{fact.fact_id:<5} {when}  {where.strip()}")
        for line in sanitize(fact.text).split("\n"):
            print(f"    {sanitize_line(line)}")


def stats_json(stats: StoreStats) -> dict[str, Any]:
    return {
        "path": stats.path,
        "schema_version": stats.schema_version,
        "sqlite_version": stats.sqlite_version,
        "sqlite_vec_version": stats.vec_version,
        "captures": stats.captures,
        "facts": stats.facts_by_type,
        "fts_rows": stats.fts_rows,
        "vectors": stats.vectors,
        "embedding_model_in_store": stats.embedding_model,
        "embedding_dim": stats.embedding_dim,
    }


def extract_bench_report(result: dict[str, Any]) -> str:
    rows = [
        f"{result['extractor']} on {result['meetings']} meetings ({result['chars']:,} chars)",
        f"matching: {result['matching']}",
    ]
    for key, score in result["scores"].items():
        rows.append(
            f"  {key:<16} precision {score['precision']:.3f} ({score['ours_matched']}/"
            f"{score['ours']})  recall {score['recall']:.3f} ({score['human_matched']}/"
            f"{score['human']})  F1 {score['f1']:.3f}"
        )
    rows.append(
        f"throughput: {result['transcripts_per_second']} transcripts/s, "
        f"{result['chars_per_second']:,} chars/s (parse + extract + write, {result['seconds']} s); "
        f"extractor alone {result['extractor_chars_per_second']:,} chars/s"
    )
    return "\n".join(rows)


def dollars(microdollars: int) -> str:
    return f"${microdollars / 1_000_000:,.4f}"


def print_costs(total: dict[str, int], report: dict[str, list[dict[str, Any]]]) -> None:
    if not total["calls"]:
        print("No model calls recorded yet (offline extraction costs nothing).")
        return
    failed = f", {total['failed']} failed" if total["failed"] else ""
    print(f"{total['calls']} model calls{failed}, {dollars(total['cost_microdollars'])} in all")
    for group in ("day", "trigger", "model"):
        print(f"\nby {group}")
        for line in report[group]:
            tokens = f"{line['input_tokens']:,} in / {line['output_tokens']:,} out"
            print(
                f"  {sanitize_line(line['key']):<32} {line['calls']:>5} calls  {tokens:<24} "
                f"{dollars(line['cost_microdollars'])}"
            )


def person_json(
    person: PersonSummary, mail: PersonReport | None = None, owed: int = 0
) -> dict[str, Any]:
    """A person; with their rollup row, their email addresses and mail counts too."""
    return {
        "id": person.id,
        "name": person.name,
        "aliases": person.aliases,
        "open_action_items": person.open_action_items,
        "owed_action_items": owed,  # open items others owe them: ones they asked for
        "decisions": person.decisions,
        "meetings": person.meetings,
        "emails": mail.emails if mail else [],
        "messages_sent": mail.messages_sent if mail else 0,
        "messages_received": mail.messages_received if mail else 0,
        "first_contact": mail.first_contact if mail else None,
        "last_contact": mail.last_contact if mail else None,
        "correspondents": mail.correspondents if mail else [],
    }


def print_people(people: list[PersonSummary], owed: dict[int, int]) -> None:
    if not people:
        print("No people yet: they come from the speakers of captured meetings.")
        return
    for p in people:
        aliases = f" (also: {sanitize_line(', '.join(p.aliases))})" if p.aliases else ""
        print(
            f"{p.id:>4}  {sanitize_line(p.name)}{aliases}: owes {p.open_action_items}, "
            f"is owed {owed.get(p.id, 0)}, {p.decisions} decisions, {p.meetings} meetings"
        )


def _candidates(candidates: Any) -> list[dict[str, Any]]:
    return [{"name": c.name, "id": c.id, "score": c.score} for c in candidates]


def resolution_json(found: Any) -> dict[str, Any]:
    person = found.entity if found.status == "resolved" else None
    return {
        "mention": found.mention,
        "status": found.status,
        "person": person.name if person else None,
        "person_id": person.id if person else None,
        "reason": getattr(found, "reason", None) or getattr(found, "via", None),
        "candidates": _candidates(found.candidates),
    }


def print_resolution(found: Any) -> None:
    mention = sanitize_line(found.mention)
    if found.status == "resolved":
        print(f"{mention} = {sanitize_line(found.entity.name)} ({found.via}, {found.entity.score})")
    elif found.status == "ambiguous":
        print(f"{mention} could be:")
        for c in found.candidates:
            print(f"  {sanitize_line(c.name)} (id {c.id}, {c.score})")
        print(f'Say which: memo confirm "{mention}" "NAME"   (or --none)')
    elif found.reason == "declined":
        print(f"{mention}: you said this is none of the people memo knows")
    else:
        print(f"{mention}: nobody memo knows")


def pending_json(waiting: Any) -> dict[str, Any]:
    return {
        "mention": waiting.mention.mention,
        "action_items": waiting.mention.action_items,
        "decisions": waiting.mention.decisions,
        "capture_ids": waiting.mention.capture_ids,
        "candidates": _candidates(waiting.resolution.candidates),
    }


def print_pending(waiting: list[Any]) -> None:
    if not waiting:
        print("No names waiting: every owner and decider is settled.")
        return
    for w in waiting:
        names = ", ".join(sanitize_line(c.name) for c in w.resolution.candidates) or "nobody"
        print(
            f"{sanitize_line(w.mention.mention)}: {w.mention.action_items} action items, "
            f"{w.mention.decisions} decisions waiting; could be {names}"
        )
