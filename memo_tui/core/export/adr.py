"""Decisions as architecture decision records (`memo export adr DIR`), in the MADR style:
one file per decision, named by memo's id so a re-export finds it again, with its status
(accepted; superseded by the record that replaced it; retracted), where and by whom it was
decided, the words it was decided in, and its reasons as consequences."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memo_tui.core.export.markdown import line_span, meeting_day
from memo_tui.core.export.vault import Note, safe_name
from memo_tui.core.safety import sanitize_line

if TYPE_CHECKING:
    from store import CaptureSummary, DecisionRecord, Store

TITLE_WORDS = 10  # a record's title: the decision's first words


def records(store: Store) -> list[Note]:
    """A record per decision, oldest meeting first."""
    captures = {c.id: c for c in store.captures.all()}
    decisions = store.captures.decisions(list(captures))
    names = {d.id: _name(d) for d in decisions}
    return [_record(d, captures[d.capture_id], names) for d in decisions]


def _name(decision: DecisionRecord) -> str:
    words = re.findall(r"[\w'’-]+", decision.description)[:TITLE_WORDS]
    return f"{decision.id:04d}-" + safe_name(" ".join(words) or "decision").replace(" ", "-")


def _record(decision: DecisionRecord, capture: CaptureSummary, names: dict[int, str]) -> Note:
    day = meeting_day(capture)
    title = " ".join(decision.description.split()[:TITLE_WORDS])
    lines = [f"# {title}", "", f"* Status: {_status(decision, names)}", f"* Date: {day}"]
    who = decision.person_name or decision.decided_by
    if who:
        lines.append(f"* Deciders: {who}")
    where = line_span(decision.line_start, decision.line_end) or "its text"
    lines += [
        "",
        "## Context and Problem Statement",
        "",
        f"Decided in {capture.title} ({day}, capture {capture.id}, {where}).",
    ]
    if decision.evidence_quote:
        lines += ["", f"> {decision.evidence_quote}"]
    lines += ["", "## Decision Outcome", "", decision.description, "", "## Consequences", ""]
    lines.append(decision.reasoning or "No reasons were recorded with it.")
    text = "\n".join(sanitize_line(line) for line in lines) + "\n"
    return Note(f"{names[decision.id]}.md", text)


NO_LONGER_HELD = (
    "deprecated (memo no longer holds this decision: its meeting was deleted or captured again)"
)


def retired(text: str) -> str:
    """A record memo wrote whose decision is gone: its status says so (and what it said
    before, a "superseded by" link included); the rest stays."""
    found = re.search(r"(?m)^\* Status: (.*)$", text)
    if found is None or found.group(1).startswith(NO_LONGER_HELD):
        return text
    was = found.group(1)
    status = NO_LONGER_HELD + ("" if was == "accepted" else f"; it was {was}")
    return text[: found.start(1)] + status + text[found.end(1) :]


def _status(decision: DecisionRecord, names: dict[int, str]) -> str:
    if decision.status == "superseded":
        later = names.get(decision.superseded_by or 0)
        return f"superseded by [{later}]({later}.md)" if later else "superseded"
    if decision.status == "retracted":
        return "rejected (retracted)"
    # Not sure it was decided: the user has not said yes (memo review), so not accepted.
    return "proposed (unconfirmed)" if decision.state == "proposed" else "accepted"
