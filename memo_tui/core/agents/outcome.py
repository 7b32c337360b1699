"""What a run did: its status and counts, and the writes that changed something (a write
that left the store as it was, or that the user turned down, is no change)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from memo_tui.core.words import plural
from store import RunStatus

# What a write tool answers when it changed nothing: an unchanged section, a section the user
# edited (left alone), "nothing to do", or a proposal the user rejected or let lapse.
UNCHANGED = frozenset({"unchanged", "skipped_user_edit", "no_change", "rejected", "skipped"})


@dataclass
class Outcome:
    run_id: int
    status: RunStatus
    steps: int = 0
    tool_calls: int = 0
    writes: list[dict[str, str]] = field(default_factory=list)
    failed_writes: int = 0
    repair_turns: int = 0
    missing: list[str] = field(default_factory=list)
    error: str | None = None

    def count(self, tool: str, arguments: dict[str, Any], result: dict[str, Any]) -> None:
        """A write tool's result, made now or replayed from before an interruption."""
        if "error" in result:
            self.failed_writes += 1
        elif result.get("outcome") not in UNCHANGED:
            self.writes.append({"tool": tool, "key": _written_key(arguments)})


def what_changed(outcome: Outcome) -> str:
    """How much a run changed, in words: "3 writes", "no change" (every section as it was, a
    user's edit left alone), and how many writes failed."""
    said = plural(len(outcome.writes), "write") if outcome.writes else "no change"
    failed = outcome.failed_writes
    return f"{said}; {plural(failed, 'write')} failed" if failed else said


def _written_key(arguments: dict[str, Any]) -> str:
    """What a write was about, for the run's summary."""
    for name in ("key", "facet", "period_start"):
        if arguments.get(name):
            return str(arguments[name])
    return ""
