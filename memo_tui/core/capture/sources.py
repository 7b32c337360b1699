"""Transcript sources read into memo's form: turns with stable line numbers.

The format is read from the content; the file's extension is only a hint (see
`formats.detect`). Notes and plain `Name: text` transcripts are stored as written: line N
is line N of the file. Exports (WebVTT, SubRip, Otter, Google Meet, Zoom chat, timestamped
lines, Word transcripts) are stored one `Speaker: text` line per turn with none of their
scaffolding, and every turn remembers the file lines it came from.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memo_tui.core.capture.dates import find_absolute_date
from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.formats.base import (
    Reading,
    Turn,
    describe_skipped,
    keep_speech,
    withhold,
)
from memo_tui.core.capture.formats.chat import read_chat
from memo_tui.core.capture.formats.detect import detect
from memo_tui.core.capture.formats.lines import header_facts, line_turns, read_timestamped
from memo_tui.core.capture.formats.meet import read_meet
from memo_tui.core.capture.formats.names import is_label, split_speaker
from memo_tui.core.capture.formats.otter import read_headed
from memo_tui.core.capture.formats.subtitles import read_subtitles

__all__ = ["ALLOWED_FORMATS", "FORMATS", "Transcript", "Turn", "is_label", "parse", "split_speaker"]

ALLOWED_FORMATS = ("txt", "md", "vtt", "srt", "docx")  # the extensions memo captures
_EXPORTS: dict[str, Callable[[str], Reading]] = {
    "teams_vtt": lambda text: read_subtitles(text, "teams_vtt"),
    "zoom_vtt": lambda text: read_subtitles(text, "zoom_vtt"),
    "webvtt": lambda text: read_subtitles(text, "webvtt"),
    "srt": lambda text: read_subtitles(text, "srt"),
    "otter_txt": lambda text: read_headed(text, "otter_txt"),
    "google_meet_txt": read_meet,
    "zoom_chat": read_chat,
    "timestamped_txt": read_timestamped,
}
# Inside a Word document: a speaker-header transcript is Teams' (or Word's) download; a
# document of notes is read as notes.
_IN_DOCX = {"otter_txt": "teams_docx", "plain_txt": "docx_notes", "markdown_notes": "docx_notes"}
FORMATS = (*_EXPORTS, "teams_docx", "markdown_notes", "plain_txt", "docx_notes")
CHAT_FORMATS = ("zoom_chat",)


@dataclass(frozen=True)
class Transcript:
    """A source read into memo's form. `text` is what line numbers refer to."""

    name: str
    source_format: str
    raw_text: str
    text: str
    turns: list[Turn]
    title: str | None = None
    occurred_at: dt.date | None = None
    attendees: list[str] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)
    as_written: bool = True  # stored as the file is; else `turns` map lines back to it

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    @property
    def speakers(self) -> list[str]:
        """Distinct speakers in order of first appearance."""
        return list(dict.fromkeys(t.speaker for t in self.turns if t.speaker))


_FILENAME_DATE = re.compile(r"(\d{4})[-_.](\d{2})[-_.](\d{2})")
# What recording tools append to a meeting's file name ("..._Recording.transcript.vtt",
# "..._meeting_saved_chat.txt", "GMT20260331-100012_RecordingnewChat.txt").
_TOOL_SUFFIX = re.compile(
    r"(?:[-_ .]+(?:recording(?:new)?(?:chat)?|transcript(?:ion)?|meeting[-_ ]saved[-_ ]chat|"
    r"saved[-_ ]chat|new[-_ ]?chat|chat|closed[-_ ]captions?|captions?|cc|"
    r"auto[-_ ]?transcript|otter(?:[-_ ]ai)?))+$",
    re.I,
)
_ZOOM_STAMP = re.compile(r"^GMT\d{8}-\d{6}", re.I)


def name_stem(name: str) -> str:
    """The meeting a file name stands for: no extension, date or recording tool suffix."""
    stem = _ZOOM_STAMP.sub("", Path(name).stem)
    stem = _FILENAME_DATE.sub("", stem).strip(" -_.")
    return _TOOL_SUFFIX.sub("", f"_{stem}").strip(" -_.")


def title_from_name(name: str) -> str:
    words = re.split(r"[-_\s]+", name_stem(name))
    return " ".join(words).strip().capitalize() or Path(name).stem


def _filename_date(name: str) -> dt.date | None:
    match = _FILENAME_DATE.search(Path(name).name) or re.search(
        r"GMT(\d{4})(\d{2})(\d{2})", Path(name).name
    )
    if match is None:
        return None
    try:
        return dt.date(*(int(g) for g in match.groups()))
    except ValueError:
        return None


def _format(text: str, hint: str) -> str:
    if hint in FORMATS:
        return hint
    found = detect(text, hint)
    return _IN_DOCX.get(found, found) if hint == "docx" else found


def parse(text: str, name: str, source_format: str) -> Transcript:
    """Decoded text as a Transcript. `source_format` is a hint (the file's extension) or
    the name of a format to read it as. The meeting date comes from the text or the file
    name, never from file times."""
    fmt = _format(text, source_format)
    if fmt in ("plain_txt", "markdown_notes", "docx_notes"):
        title, occurred, attendees = header_facts(text)
        reading = Reading(fmt, [], title, occurred, attendees)
        turns = line_turns(text, fmt == "markdown_notes", attendees)
        normalized, written = text, True
    else:
        reading = keep_speech(_EXPORTS["otter_txt" if fmt == "teams_docx" else fmt](text))
        if not reading.turns:
            raise CaptureRejected("unreadable", _nothing_read(name, fmt, reading))
        turns = [
            Turn(number, t.speaker, t.text, (t.first, t.last))
            for number, t in enumerate(reading.turns, start=1)
        ]
        normalized = "\n".join(f"{t.speaker}: {t.text}" if t.speaker else t.text for t in turns)
        written = False
    occurred = reading.occurred_at or _filename_date(name) or _said_date(turns)
    title = reading.title or title_from_name(name)
    if fmt in CHAT_FORMATS:
        title = f"{title} (chat)"
    return Transcript(
        name=name,
        source_format=fmt,
        raw_text=withhold(text, reading.withheld),
        text=normalized,
        turns=turns,
        title=title,
        occurred_at=occurred,
        attendees=reading.attendees,
        skipped=dict(reading.skipped),
        as_written=written,
    )


def stored_format(source_format: str) -> str:
    """The format a stored capture's text reads as: notes and plain transcripts as they
    were written (extensions name them in captures of older memos), an export's one
    `Speaker: text` line per turn as a plain transcript."""
    written = {"md": "markdown_notes", "markdown_notes": "markdown_notes"}
    return written.get(source_format, "plain_txt")


def _said_date(turns: list[Turn]) -> dt.date | None:
    """A full date (with its year) said or written in the first lines."""
    return next((d for d in (find_absolute_date(t.text) for t in turns[:5]) if d), None)


def _nothing_read(name: str, fmt: str, reading: Reading) -> str:
    why = describe_skipped(reading.skipped)
    return (
        f"{name} reads as {fmt} but nothing in it could be read as speech"
        + (f" ({why})" if why else "")
        + ": export the transcript again, or save it as plain text"
    )
