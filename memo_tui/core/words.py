"""Counting words for messages and documents: "1 meeting", "3 meetings"."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """The count and the noun, plural unless the count is one ("1 write", "2 writes")."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
