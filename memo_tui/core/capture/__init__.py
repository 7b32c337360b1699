"""The write path: sources, guards, dedup, extraction, one transaction per capture."""

from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.files import iter_sources
from memo_tui.core.capture.result import CaptureResult
from memo_tui.core.capture.service import (
    CaptureOptions,
    CaptureService,
    Replacement,
)

__all__ = [
    "CaptureOptions",
    "CaptureRejected",
    "CaptureResult",
    "CaptureService",
    "Replacement",
    "iter_sources",
]
