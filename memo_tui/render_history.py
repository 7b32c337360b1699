"""The CLI's plain text and JSON for what waits for the user's word: changes across meetings
(`memo changes`) and the review of proposed decisions and action items (`memo review`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memo_tui.core.safety import sanitize_line
from memo_tui.render import action_json, decision_json, line_range

if TYPE_CHECKING:
    from store import ChangeRecord, ReviewItem


def print_change(change: ChangeRecord) -> None:
    """A change with both sides: the old decision (or item) and what replaced (or closed) it."""
    closes = change.kind == "closes"
    verb = {
        "applied": "closed" if closes else "replaced",
        "proposed": "done?" if closes else "may replace?",
        "rejected": "rejected",
        "undone": "undone",
    }[change.status]
    print(f"[{change.id}] {verb} ({change.strength}: {sanitize_line(change.reason)})")
    old, new = change.old_text, (change.evidence if closes else change.new_text) or ""
    print(
        f"      {change.old_day}  {sanitize_line(old)}  ({sanitize_line(change.old_title or '')})"
    )
    print(
        f"   -> {change.new_day}  {sanitize_line(new)}  ({sanitize_line(change.new_title or '')})"
    )


def review_json(item: ReviewItem, lines: list[tuple[int, str]] | None = None) -> dict[str, Any]:
    """A reviewed (or waiting) item for a script: its record's JSON, its kind, its handle
    and its meeting; with `lines`, the transcript lines it was taken from."""
    from store import ActionItemRecord

    record = item.record
    body = action_json(record) if isinstance(record, ActionItemRecord) else decision_json(record)
    said = {"transcript": [{"line": n, "text": t} for n, t in lines]} if lines is not None else {}
    return {
        "item": item.handle,
        "kind": item.kind,
        **body,
        "capture_id": record.capture_id,
        "title": item.capture_title,
        "date": item.day or None,
        **said,
    }


def print_review_item(item: ReviewItem) -> None:
    """One item as the review lists it: handle, kind, confidence, state, meeting, lines; then
    its words (an action's owner and due date after them)."""
    record = item.record
    sure = "  -  " if record.confidence is None else f"{record.confidence:.2f}"
    kind = "decision" if item.kind == "decision" else "action"
    state = "" if record.state == "proposed" else f"  [{record.state}]"
    span = line_range(record.line_start, record.line_end)
    meeting = sanitize_line(item.capture_title) + (f", {item.day}" if item.day else "")
    print(f"{item.handle:<7} {kind:<8} {sure}  {meeting}  {span}{state}")
    print(f"        {sanitize_line(record.description)}{_about(item)}")


def _about(item: ReviewItem) -> str:
    if item.kind == "decision":
        return f" (decided by {sanitize_line(item.who)})" if item.who else ""
    owner = sanitize_line(item.who) if item.who else "no owner"
    due = f", due {item.due_date}" if item.due_date else ""
    return f" -> {owner}{due}"


def print_evidence(lines: list[tuple[int, str]], item: ReviewItem) -> None:
    """The transcript lines an item was read from, its own marked with '>'."""
    start = item.record.line_start or 0
    end = item.record.line_end or start
    for number, text in lines:
        mark = ">" if start <= number <= end else " "
        print(f"   {mark} {number:>5}  {sanitize_line(text)}")
