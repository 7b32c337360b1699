"""A ledger for provider tests without a store."""

from __future__ import annotations


class ListLedger:
    """A ledger that keeps call records in a list (provider tests without a store)."""

    def __init__(self) -> None:
        from memo_tui.core.llm.types import CallRecord

        self.calls: list[CallRecord] = []

    def record(self, call: object) -> int:
        self.calls.append(call)  # type: ignore[arg-type]
        return len(self.calls)
