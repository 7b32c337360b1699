"""Checks that run before any extraction: what may be captured at all."""

from __future__ import annotations

from pathlib import Path

from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.sources import ALLOWED_FORMATS

ALLOWED_SUFFIXES = tuple(f".{fmt}" for fmt in ALLOWED_FORMATS)


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


def check_file_size(path: Path, size: int, max_chars: int) -> None:
    """Refuse early a file that cannot fit the character limit (UTF-16 uses 2-4 bytes a char)."""
    if size > max_chars * 4 + 16:
        raise CaptureRejected("too_large", _too_large(path.name, f"{size:,} bytes", max_chars))


def check_text(name: str, text: str, max_chars: int) -> None:
    """Refuse empty text and text over the limit."""
    if not text.strip():
        what = "empty" if not text else "only whitespace"
        raise CaptureRejected("empty", f"{name} is {what}: there is nothing to capture")
    if len(text) > max_chars:
        raise CaptureRejected("too_large", _too_large(name, f"{len(text):,} characters", max_chars))


def _too_large(name: str, size: str, max_chars: int) -> str:
    return (
        f"{name} is {size}, over the {max_chars:,}-character limit: split it into "
        "smaller files, or raise MEMO_MAX_CAPTURE_CHARS if you mean to capture it whole"
    )
