"""Argument types the `memo` commands share: what a number on the command line may be."""

from __future__ import annotations

import argparse

LARGEST_ID = 2**63 - 1  # the store's ids are 64-bit integers


def _whole(value: str, what: str) -> int:
    """A whole number from 1 up to 2^63-1, or argparse's error saying what it should be."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not {what} (a whole number)") from None
    if not 1 <= number <= LARGEST_ID:
        raise argparse.ArgumentTypeError(f"{value} is not {what} (1 to {LARGEST_ID})")
    return number


def record_id(value: str) -> int:
    """An id memo gave a capture, change, note or run."""
    return _whole(value, "an id memo gives")


def count(value: str) -> int:
    """How many."""
    return _whole(value, "a number")
