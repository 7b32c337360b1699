"""Counting words for messages and documents: "1 meeting", "3 meetings"."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """The count and the noun, plural unless the count is one ("1 write", "2 writes",
    "2 summaries")."""
    if count == 1:
        return f"{count:,} {noun}"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return f"{count:,} {noun[:-1]}ies"
    return f"{count:,} {noun}s"
