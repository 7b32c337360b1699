"""A meeting's saved chat beside its transcript: the chat is the meeting's side channel.

Recording tools save both into one folder under one meeting name
(`2026-03-31_q2-planning_Recording.transcript.vtt` and `..._meeting_saved_chat.txt`,
`GMT20260331-100012_Recording.transcript.vtt` and `GMT20260331-100012_RecordingnewChat.txt`),
or into a folder of the meeting's own (`meeting_saved_chat.txt` beside
`closed_caption.txt`). Files pair when they share the folder and the meeting name left once
the tool's suffixes are gone; with no name left, the folder is the meeting. A chat pairs
with a transcript only when exactly one fits (of Zoom's transcript and its captions, the
one named a transcript): notes beside them are no transcript.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memo_tui.core.capture.sources import AS_WRITTEN, CHAT_FORMATS, meeting_key
from store import CaptureCandidate


@dataclass(frozen=True)
class Pairing:
    """The links a new capture makes: the meeting it is the chat of, or its chats."""

    chat_of: int | None = None
    chats: tuple[int, ...] = ()


@dataclass(frozen=True)
class _File:
    id: int
    path: str
    source_format: str
    occurred_at: str | None
    channel_of: int | None = None


def _same_meeting(a: _File, b: _File) -> bool:
    if Path(a.path).parent != Path(b.path).parent:
        return False
    if a.occurred_at and b.occurred_at and a.occurred_at != b.occurred_at:
        return False
    return meeting_key(a.path) == meeting_key(b.path)


def _transcripts(chat: _File, files: list[_File]) -> list[_File]:
    """The transcripts a chat could belong to: exports first, plain ones only if no
    export fits; notes never."""
    fits = [f for f in files if f.source_format not in CHAT_FORMATS and _same_meeting(chat, f)]
    exports = [f for f in fits if f.source_format not in AS_WRITTEN]
    named = [f for f in exports if "transcript" in Path(f.path).name.lower()]
    if len(exports) > 1 and named:  # Zoom's cloud folder: the transcript and its captions
        return named
    return exports or [f for f in fits if f.source_format == "plain_txt"]


def pairing(
    path: str | None, source_format: str, day: str | None, stored: list[CaptureCandidate]
) -> Pairing:
    """How a capture from `path` pairs with what is stored (itself excluded by the caller):
    a chat with the one transcript that fits it, a transcript with each chat it is the one
    fit for."""
    if path is None:
        return Pairing()
    new = _File(0, path, source_format, day)
    files = [
        _File(c.id, c.source_path, c.source_format, c.occurred_at, c.channel_of)
        for c in stored
        if c.source_path is not None and c.source_path != path
    ]
    if source_format in CHAT_FORMATS:
        fits = _transcripts(new, files)
        return Pairing(chat_of=fits[0].id) if len(fits) == 1 else Pairing()
    if source_format in AS_WRITTEN and source_format != "plain_txt":
        return Pairing()
    chats = [f for f in files if f.source_format in CHAT_FORMATS and f.channel_of is None]
    return Pairing(chats=tuple(c.id for c in chats if _transcripts(c, [*files, new]) == [new]))
