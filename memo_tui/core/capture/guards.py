"""Checks that run before any extraction: what may be captured at all."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.sources import ALLOWED_FORMATS

ALLOWED_SUFFIXES = tuple(f".{fmt}" for fmt in ALLOWED_FORMATS)
# Control characters that never occur in a transcript (tab, newlines, form feed and ESC can).
_BINARY = frozenset(chr(c) for c in [*range(0, 9), 11, *range(14, 27), *range(28, 32), 127])


def source_format(path: Path) -> str:
    """The format from the extension, or a rejection naming the allowed ones."""
    suffix = path.suffix.lower()
    if suffix not in ALLOWED_SUFFIXES:
        raise CaptureRejected(
            "extension",
            f"{path.name}: {suffix or 'no extension'} files are not captured; memo reads "
            f"{', '.join(ALLOWED_SUFFIXES)} transcripts",
        )
    return suffix[1:]


# An export may carry this many times the speech it holds in cue ids, timings and tags.
SCAFFOLDING = 4
MAX_DOCX_BYTES = 64 * 1024 * 1024  # a Word document's pictures count too


def read_source(path: Path, max_chars: int) -> bytes:
    """A regular file's bytes, refusing pipes and devices and never reading past the cap."""
    limit = max_chars * SCAFFOLDING * 4 + 16  # UTF-16 and 4-byte UTF-8 characters
    if path.suffix.lower() == ".docx":
        limit = max(limit, MAX_DOCX_BYTES)
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not block us
    with os.fdopen(descriptor, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise CaptureRejected(
                "not_a_file",
                f"{path.name} is not a regular file (a pipe, device or socket): save the "
                "transcript to a file and capture that",
            )
        if info.st_size > limit:
            raise CaptureRejected(
                "too_large", _too_large(path.name, f"{info.st_size:,} bytes", max_chars)
            )
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise CaptureRejected(
            "too_large", _too_large(path.name, f"over {limit:,} bytes", max_chars)
        )
    return data


def check_text(name: str, text: str, max_chars: int) -> None:
    """Refuse empty text, binary-looking text and a file past what its speech may fill
    (the limit on the speech itself is `check_stored`'s)."""
    if not text.strip():
        what = "empty" if not text else "only whitespace"
        raise CaptureRejected("empty", f"{name} is {what}: there is nothing to capture")
    if len(text) > max_chars * SCAFFOLDING:
        raise CaptureRejected("too_large", _too_large(name, f"{len(text):,} characters", max_chars))
    if "\x00" in text:  # as decode refuses a file's (text handed over never passes there)
        raise CaptureRejected(
            "binary", f"{name} contains NUL characters and looks binary, not a transcript"
        )
    controls = sum(1 for char in text if char in _BINARY)
    if controls > max(8, len(text) // 100):
        raise CaptureRejected(
            "binary",
            f"{name} is full of control characters and looks like a binary file, not a "
            "transcript: export the meeting as plain text",
        )
    if not any(char.isalnum() for char in text):
        raise CaptureRejected("empty", f"{name} has no readable words: there is nothing to capture")


def check_stored(name: str, stored: str, max_chars: int) -> None:
    """Refuse a transcript whose text, as memo stores it, is over the limit (notes as
    written; an export without its scaffolding)."""
    if len(stored) > max_chars:
        raise CaptureRejected(
            "too_large", _too_large(name, f"{len(stored):,} characters", max_chars)
        )


def _too_large(name: str, size: str, max_chars: int) -> str:
    return (
        f"{name} is {size}, over the {max_chars:,}-character limit: split it into "
        "smaller files, or raise MEMO_MAX_CAPTURE_CHARS if you mean to capture it whole"
    )
