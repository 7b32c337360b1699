"""Work for capture.ahead's worker process in tests: importable by name, as a spawned
process needs it to be."""

from __future__ import annotations

import os
import time


def square_or_fail(n: int) -> int:
    """n squared; 13 raises, as one item's own failure would."""
    if n == 13:
        raise ValueError("thirteen")
    return n * n


def die_at_five(n: int) -> int:
    """n squared, except that the worker process dies outright at 5."""
    if n == 5:
        os._exit(3)
    return n * n


def slow_pid(n: int) -> int:
    """The worker's pid, slowly (so the worker is busy when the parent goes)."""
    time.sleep(0.5)
    return os.getpid()
