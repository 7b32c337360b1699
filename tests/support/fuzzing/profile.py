"""Hypothesis' settings for a fuzz test, by the run's profile.

MEMO_FUZZ_PROFILE picks the run: "ci" (the default: few examples, derandomized, so every run
tries the same inputs) or "long" (scripts/fuzz: many random examples, MEMO_FUZZ_EXAMPLES to a
test, failures kept in MEMO_FUZZ_DATABASE).
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

# An example slower than DEADLINE fails (a mail of a thousand nested parts takes a second of
# the standard library's parsing); one past HARD_LIMIT hangs, and is stopped.
DEADLINE = dt.timedelta(seconds=5)
HARD_LIMIT = 30
_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
PROFILE = os.environ.get("MEMO_FUZZ_PROFILE", "ci")


def fuzzed(examples: int) -> settings:
    """The profile's settings, with `examples` examples in CI (a long run's are many more)."""
    if PROFILE == "ci":
        return settings(
            max_examples=examples,
            derandomize=True,
            database=None,
            deadline=DEADLINE,
            suppress_health_check=_CHECKS,
            print_blob=True,
        )
    if PROFILE != "long":
        raise ValueError(f"MEMO_FUZZ_PROFILE is ci or long, not {PROFILE!r}")
    folder = os.environ.get("MEMO_FUZZ_DATABASE") or Path.home() / ".cache" / "memo-fuzz"
    return settings(
        max_examples=int(os.environ.get("MEMO_FUZZ_EXAMPLES", "2000")),
        derandomize=False,
        database=DirectoryBasedExampleDatabase(folder),
        deadline=DEADLINE,
        suppress_health_check=_CHECKS,
        print_blob=True,
    )
