"""Transcript passages for recall: what was discussed even when it never became a decision."""

from __future__ import annotations

from memo_tui.core.capture.sources import Transcript, Turn
from store import NewExcerpt

MAX_TURNS = 6
MAX_CHARS = 800


def _render(turn: Turn) -> str:
    return f"{turn.speaker}: {turn.text}" if turn.speaker else turn.text


def _split_long(turn: Turn) -> list[NewExcerpt]:
    text = _render(turn)
    pieces, current = [], ""
    for word in text.split(" "):
        if current and len(current) + len(word) + 1 > MAX_CHARS:
            pieces.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    pieces.append(current)
    return [NewExcerpt(turn.line, turn.end, piece) for piece in pieces if piece.strip()]


def excerpts(transcript: Transcript) -> list[NewExcerpt]:
    """Consecutive turns grouped into passages of up to 6 turns or about 800 characters."""
    found: list[NewExcerpt] = []
    group: list[Turn] = []

    def flush() -> None:
        if group:
            text = "\n".join(_render(t) for t in group)
            found.append(NewExcerpt(group[0].line, group[-1].end, text))
            group.clear()

    for turn in transcript.turns:
        if len(_render(turn)) > MAX_CHARS:
            flush()
            found.extend(_split_long(turn))
            continue
        size = sum(len(_render(t)) + 1 for t in group) + len(_render(turn))
        if len(group) >= MAX_TURNS or size > MAX_CHARS:
            flush()
        group.append(turn)
    flush()
    return found
