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
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memo_tui.core.capture.dates import find_absolute_date
from memo_tui.core.capture.errors import CaptureRejected
from memo_tui.core.capture.formats.base import (
    Reading,
    Turn,
    describe_skipped,
    is_bot,
    keep_speech,
    speaker_name,
    withhold,
)
from memo_tui.core.capture.formats.chat import direct_messages, read_chat
from memo_tui.core.capture.formats.detect import detect
from memo_tui.core.capture.formats.lines import (
    header_facts,
    line_turns,
    read_timestamped,
    short_forms,
)
from memo_tui.core.capture.formats.meet import read_meet
from memo_tui.core.capture.formats.names import is_label, split_speaker
from memo_tui.core.capture.formats.otter import docx_kind, read_headed
from memo_tui.core.capture.formats.subtitles import read_subtitles
from memo_tui.core.capture.senders import bots

__all__ = ["ALLOWED_FORMATS", "FORMATS", "Transcript", "Turn", "is_label", "parse", "split_speaker"]

ALLOWED_FORMATS = ("txt", "md", "vtt", "srt", "docx")  # the extensions memo captures
_EXPORTS: dict[str, Callable[[str], Reading]] = {
    "teams_vtt": lambda text: read_subtitles(text, "teams_vtt"),
    "zoom_vtt": lambda text: read_subtitles(text, "zoom_vtt"),
    "webvtt": lambda text: read_subtitles(text, "webvtt"),
    "srt": lambda text: read_subtitles(text, "srt"),
    "otter_txt": lambda text: read_headed(text, "otter_txt"),
    "zoom_cc_txt": lambda text: read_headed(text, "zoom_cc_txt"),
    "google_meet_txt": read_meet,
    "zoom_chat": read_chat,
    "timestamped_txt": read_timestamped,
}
# Inside a Word document: a header transcript is Teams', Otter's or Word's download (see
# otter.docx_kind); a document of notes is read as notes.
_IN_DOCX = {"plain_txt": "docx_notes", "markdown_notes": "docx_notes"}
AS_WRITTEN = ("plain_txt", "markdown_notes", "docx_notes")  # stored as the file is
FORMATS = (*_EXPORTS, "teams_docx", "otter_docx", "word_docx", *AS_WRITTEN)
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
    guests: frozenset[str] = frozenset()  # speakers the export marks as guests, by name
    bots: frozenset[str] = frozenset()  # senders that are tools, not people (senders.bots)
    known_as: dict[str, str] = field(default_factory=dict)  # "MT": the roster's Maggie Thornton

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    @property
    def speakers(self) -> list[str]:
        """Distinct speakers in order of first appearance (tools that post are not)."""
        return list(
            dict.fromkeys(t.speaker for t in self.turns if t.speaker and t.speaker not in self.bots)
        )


_FILENAME_DATE = re.compile(r"(\d{4})[-_.](\d{2})[-_.](\d{2})")
# What recording tools append to a meeting's file name ("..._Recording.transcript.vtt",
# "..._meeting_saved_chat.txt", "GMT20260331-100012_RecordingnewChat.txt").
_TOOL_SUFFIX = re.compile(
    r"(?:[-_ .]+(?:recording(?:new)?(?:chat)?|transcript(?:ion)?|meeting[-_ ]saved[-_ ]chat|"
    r"saved[-_ ]chat|new[-_ ]?chat|chat|closed[-_ ]captions?|captions?|cc|"
    r"auto[-_ ]?transcript|otter(?:[-_ ]ai)?))+$",
    re.I,
)
# Zoom's cloud stamp (GMT20260331-100012), and a local recording folder's time and id
# ("2026-03-31 10.00.12 Q2 planning 85512345678").
_ZOOM_STAMP = re.compile(r"^GMT(\d{4})(\d{2})(\d{2})-(?P<hour>\d{2})(?P<minute>\d{2})\d{2}", re.I)
_CLOCK = re.compile(r"\b\d{2}\.\d{2}\.\d{2}\b|\s\d{9,11}$")


def meeting_key(name: str) -> str:
    """The meeting a file is of, as recording tools name its files: the name without
    extension or tool suffix (dates and Zoom's stamp kept: they tell meetings apart)."""
    return _TOOL_SUFFIX.sub("", f"_{Path(name).stem}").strip(" -_.").casefold()


def _stem(name: str) -> str:
    """A file's name as the meeting's title: no date, stamp, clock or tool suffix; a file
    named only by its tool ("meeting_saved_chat.txt") takes its folder's name, one named
    only by Zoom's stamp the time it gives."""
    stamp = _ZOOM_STAMP.match(Path(name).name)
    if stamp and not _TOOL_SUFFIX.sub("", f"_{Path(name).stem[stamp.end() :]}").strip(" -_."):
        return f"Zoom meeting {stamp['hour']}:{stamp['minute']} GMT"
    for part in (Path(name).stem, Path(name).parent.name):
        stem = _CLOCK.sub("", _FILENAME_DATE.sub("", _ZOOM_STAMP.sub("", part)))
        stem = _TOOL_SUFFIX.sub("", f"_{stem.strip(' -_.')}").strip(" -_.")
        if stem:
            return stem
    return ""


def captured_name(path: Path) -> str:
    """The name a file is captured under: its own, or with its folder's when a recording
    tool named it only for itself (`2026-03-31 10.00.12 Q2 planning/meeting_saved_chat.txt`)."""
    return path.name if _stem(path.name) else f"{path.parent.name}/{path.name}"


def title_from_name(name: str) -> str:
    """ "2026-03-31_q2-planning_Recording.transcript.vtt" -> "Q2 planning"."""
    title = " ".join(re.split(r"[-_\s]+", _stem(name))).strip()
    return title[:1].upper() + title[1:] or Path(name).stem


def _filename_date(name: str) -> dt.date | None:
    """A date in the file's name, or its folder's (a Zoom recording folder)."""
    match = _FILENAME_DATE.search(name) or _ZOOM_STAMP.search(Path(name).name)
    if match is None:
        return None
    try:
        return dt.date(*(int(g) for g in match.groups()[:3]))
    except ValueError:
        return None


def _format(text: str, hint: str) -> str:
    """The format of `text` by its content; `hint` is the file's extension."""
    found = detect(text, hint)
    if hint != "docx":
        return found
    return docx_kind(text) if found == "otter_txt" else _IN_DOCX.get(found, found)


def _read(text: str, fmt: str) -> Reading:
    if fmt in _EXPORTS:
        return _EXPORTS[fmt](text)
    return read_headed(text, fmt)  # a Word download of a header transcript


def parse(text: str, name: str, hint: str, fmt: str | None = None) -> Transcript:
    """Decoded text as a Transcript, in the format its content shows (`hint`, the file's
    extension, only breaks ties), or in `fmt` when the caller knows it. The meeting date
    comes from the text or the file name, never from file times."""
    if fmt is not None and fmt not in FORMATS:
        raise ValueError(f"no format {fmt!r}: one of {', '.join(FORMATS)}")
    fmt = fmt or _format(text, hint)
    private = [] if fmt in CHAT_FORMATS else direct_messages(text)
    text = withhold(text, private)  # a chat pasted into notes keeps no direct message
    if fmt in AS_WRITTEN:
        title, occurred, attendees = header_facts(text)
        reading = Reading(fmt, [], title, occurred, attendees)
        turns = line_turns(text, fmt == "markdown_notes", attendees)
        normalized = text
    else:
        reading = keep_speech(_read(text, fmt))
        if not reading.turns:
            raise CaptureRejected("unreadable", _nothing_read(name, fmt, reading))
        turns = [
            Turn(number, t.speaker, t.text, (t.first, t.last))
            for number, t in enumerate(reading.turns, start=1)
        ]
        normalized = "\n".join(f"{t.speaker}: {t.text}" if t.speaker else t.text for t in turns)
    occurred = reading.occurred_at or _filename_date(name) or _said_date(turns)
    title = reading.title or title_from_name(name)
    tools = bots(turns, reading.attendees)
    skipped = Counter(reading.skipped) + Counter({"direct_message": len(private)})
    return Transcript(
        name=name,
        source_format=fmt,
        raw_text=withhold(text, reading.withheld),
        text=normalized,
        turns=turns,
        title=f"{title} (chat)" if fmt in CHAT_FORMATS else title,
        occurred_at=occurred,
        attendees=[a for a in reading.attendees if not is_bot(a)],
        skipped=dict(skipped),
        as_written=fmt in AS_WRITTEN,
        guests=guests(text),
        bots=tools,
        known_as=short_forms(text),
    )


# "<v Jane Doe (Guest)>", "Jane Doe (Unverified):": the export says who joined as a guest.
_GUEST = re.compile(
    r"(?:<v\s+|^|\[|\bFrom\s+)(?P<name>[^\n<>\[\]():]{2,60}?)\s*[\[(](?:guest|unverified)[\])]",
    re.I | re.M,
)


def guests(text: str) -> frozenset[str]:
    """Who the export marks as a guest (a heuristic: Teams and Zoom write "(Guest)")."""
    found = (speaker_name(match["name"]) for match in _GUEST.finditer(text))
    return frozenset(name for name in found if name)


def stored_format(source_format: str) -> str | None:
    """The format a stored capture's text reads as: an export's one `Speaker: text` line
    a turn as a plain transcript, notes as they were; None for a capture of an older memo
    (named by its extension, stored as the file was): read it by its content."""
    if source_format in ALLOWED_FORMATS:
        return None
    return source_format if source_format in AS_WRITTEN else "plain_txt"


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
