"""What workers share."""

from __future__ import annotations


def superseded() -> bool:
    """In a worker: a newer one of its group took over (its result would be stale)."""
    from textual.worker import get_current_worker

    return get_current_worker().is_cancelled
