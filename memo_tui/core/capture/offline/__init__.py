"""The offline extractor: deterministic, rule-based, no model."""

from memo_tui.core.capture.offline.extractor import NAME, extract

__all__ = ["NAME", "extract"]
