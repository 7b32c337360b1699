"""A meeting's saved chat beside its transcript: the chat is the meeting's side channel.

Recording tools save both into one folder under one meeting name
(`2026-03-31_q2-planning_Recording.transcript.vtt` and `..._meeting_saved_chat.txt`), or
into a folder of their own for the meeting (`meeting_saved_chat.txt` beside
`closed_caption.txt`). Files pair when they share the folder, the meeting name left once
the tool's suffixes are gone, and the date; with no name left, the folder and date decide.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memo_tui.core.capture.sources import CHAT_FORMATS, name_stem
from store import CaptureCandidate


@dataclass(frozen=True)
class Pairing:
    """The links a new capture makes: the meeting it is the chat of, or its chats."""

    chat_of: int | None = None
    chats: tuple[int, ...] = ()


def _same_meeting(path: str, day: str | None, other: CaptureCandidate) -> bool:
    if other.source_path is None or Path(other.source_path).parent != Path(path).parent:
        return False
    if day and other.occurred_at and day != other.occurred_at:
        return False
    stem, theirs = name_stem(Path(path).name).casefold(), name_stem(other.source_path).casefold()
    if stem or theirs:
        return stem == theirs
    return bool(day and other.occurred_at)


def pairing(
    path: str | None, source_format: str, day: str | None, stored: list[CaptureCandidate]
) -> Pairing:
    """How a capture from `path` pairs with what is stored (itself excluded by the caller)."""
    if path is None:
        return Pairing()
    others = [c for c in stored if c.source_path != path and _same_meeting(path, day, c)]
    if source_format in CHAT_FORMATS:
        meetings = [c for c in others if c.source_format not in CHAT_FORMATS]
        return Pairing(chat_of=meetings[0].id) if len(meetings) == 1 else Pairing()
    chats = [c.id for c in others if c.source_format in CHAT_FORMATS and c.channel_of is None]
    return Pairing(chats=tuple(chats))
