"""Recognizing a meeting seen before: the same text (hash) or a new version of it (MinHash)."""

from __future__ import annotations

import hashlib
import re
import struct

_PRIME = (1 << 61) - 1
_PERMUTATIONS = 64
# Fixed seeds: signatures must compare across runs and machines.
_A = [(i * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % _PRIME | 1 for i in range(1, 65)]
_B = [(i * 0xC2B2AE3D27D4EB4F + 0x165667B19E3779F9) % _PRIME for i in range(1, 65)]
_TIMESTAMP = re.compile(r"[\[(]?\b(?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d+)?\b[\])]?")

# Two captures whose line sets overlap this much are versions of one meeting.
NEAR_DUPLICATE = 0.8


def canonical(text: str) -> str:
    """The text that identity is judged on: trailing spaces and blank tail ignored."""
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def content_hash(text: str) -> str:
    return hashlib.sha256(canonical(text).encode("utf-8")).hexdigest()


def _shingles(text: str) -> set[int]:
    found = set()
    for line in text.split("\n"):
        key = " ".join(_TIMESTAMP.sub(" ", line).casefold().split())
        if len(key) > 3:
            digest = hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest()
            found.add(int.from_bytes(digest, "big") % _PRIME)
    return found


def signature(text: str) -> bytes:
    """A 64-value MinHash of the text's lines (timestamps and case ignored)."""
    shingles = _shingles(text) or {0}
    values = [
        min((a * s + b) % _PRIME for s in shingles) & 0xFFFFFFFF
        for a, b in zip(_A, _B, strict=True)
    ]
    return struct.pack(f"<{_PERMUTATIONS}I", *values)


def similarity(left: bytes | None, right: bytes | None) -> float:
    """Estimated Jaccard similarity of two signatures' line sets."""
    if not left or not right or len(left) != len(right):
        return 0.0
    a = struct.unpack(f"<{_PERMUTATIONS}I", left)
    b = struct.unpack(f"<{_PERMUTATIONS}I", right)
    return float(sum(x == y for x, y in zip(a, b, strict=True)) / _PERMUTATIONS)
