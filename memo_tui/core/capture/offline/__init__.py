"""The offline extractor: deterministic, rule-based, no model.

The rules load on the first extraction, so starting the app (which extracts nothing) skips them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memo_tui.core.capture.sources import Transcript
    from memo_tui.core.llm.schemas import Extraction

NAME = "offline extractor"


def extract(transcript: Transcript) -> Extraction:
    """The structured record of a meeting, from rules alone."""
    from memo_tui.core.capture.offline.extractor import extract as by_rules

    return by_rules(transcript)


__all__ = ["NAME", "extract"]
