"""Prices and the store-backed ledger every provider writes to."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

from memo_tui.core.llm.types import CallRecord
from store import LLMCallRow, Store, utc_now

# US dollars per million tokens (input, output), which is microdollars per token.
# The longest matching prefix wins, so "claude-opus-4-6" is not priced as "claude-opus-4".
DEFAULT_PRICES: dict[str, tuple[float, float]] = {
    "claude-opus-4": (15.0, 75.0),
    "claude-opus-4-5": (5.0, 25.0),
    "claude-opus-4-6": (5.0, 25.0),
    "claude-sonnet-4": (3.0, 15.0),
    "claude-haiku-4": (1.0, 5.0),
    "claude-3-7-sonnet": (3.0, 15.0),
    "claude-3-5-sonnet": (3.0, 15.0),
    "claude-3-5-haiku": (0.8, 4.0),
    "claude-3-haiku": (0.25, 1.25),
}


def price_of(model: str, prices: Mapping[str, tuple[float, float]]) -> tuple[float, float]:
    """The longest price-table key that `model` starts with; local models cost nothing."""
    matches = [key for key in prices if model.startswith(key)]
    return prices[max(matches, key=len)] if matches else (0.0, 0.0)


def cost_microdollars(
    model: str, input_tokens: int, output_tokens: int, prices: Mapping[str, tuple[float, float]]
) -> int:
    per_input, per_output = price_of(model, prices)
    return round(input_tokens * per_input + output_tokens * per_output)


_collecting: ContextVar[list[int] | None] = ContextVar("memo_llm_calls", default=None)


class StoreLedger:
    """Writes each call to `llm_calls`, priced; can collect the ids written in a scope."""

    def __init__(self, store: Store, prices: Mapping[str, tuple[float, float]] | None = None):
        self.store = store
        self.prices = dict(DEFAULT_PRICES if prices is None else prices)

    def record(self, call: CallRecord) -> int:
        usage = call.usage
        row_id = self.store.ledger.record(
            LLMCallRow(
                provider=call.provider,
                model=call.model,
                trigger=call.trigger,
                status=call.status,
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                cost_microdollars=cost_microdollars(
                    call.model, usage.input_tokens, usage.output_tokens, self.prices
                ),
                latency_ms=call.latency_ms,
                error=call.error,
                capture_id=call.capture_id,
                run_id=call.run_id,
                created_at=utc_now(),
            )
        )
        collected = _collecting.get()
        if collected is not None:
            collected.append(row_id)
        return row_id


@contextmanager
def collect_calls() -> Iterator[list[int]]:
    """The ledger row ids written inside this block (asyncio.run carries the context along)."""
    ids: list[int] = []
    token = _collecting.set(ids)
    try:
        yield ids
    finally:
        _collecting.reset(token)
