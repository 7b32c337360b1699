"""A Google Meet transcript (the Docs file, saved as text).

`<title> - Transcript`, a date line, `Attendees` and their list, `Transcript`, then
`Name: text` lines under `HH:MM:SS` markers every few minutes; it closes with "Meeting
ended after ..." (or "Transcription ended ...") and a note that the transcript was computer
generated. Only the `Name: text` lines are speech.
"""

from __future__ import annotations

import datetime as dt
import re

from memo_tui.core.capture.dates import find_absolute_date
from memo_tui.core.capture.formats.base import TIME, Reading, Spoken, speaker_name
from memo_tui.core.capture.formats.names import (
    name_prefix,
    people,
    recurring_names,
    split_speaker,
)

MAX_TITLE = 200
TITLE = re.compile(r"^(?P<title>.+?)\s+[-\u2013\u2014]\s+Transcript\s*$", re.I)
MARKER = re.compile(rf"^\s*{TIME}\s*$")
CLOSING = re.compile(
    r"^\s*(?:meeting ended after|transcription ended after|transcription ended\b)|"
    r"\btranscript was computer generated\b|\bcomputer[- ]generated and might contain errors\b",
    re.I,
)


def _head(lines: list[str]) -> tuple[str | None, dt.date | None, list[str], int]:
    """The title, date and attendees above the transcript, and where it starts: after a
    `Transcript` line, or at the first time marker or `Name: text` line."""
    title: str | None = None
    occurred: dt.date | None = None
    attendees: list[str] = []
    listing = False
    for number, raw in enumerate(lines):
        line = raw.strip()
        titled = TITLE.match(line) if len(line) <= MAX_TITLE else None
        if not line:
            continue
        if line.lower() == "transcript":
            return title, occurred, attendees, number + 1
        if MARKER.match(line) or (split_speaker(line)[0] and not titled and not listing):
            return title, occurred, attendees, number
        if titled or line.lower().endswith("transcript"):  # the doc's or its tab's heading
            title = title or (titled["title"] if titled else None)
        elif line.lower() == "attendees":
            listing = True
        elif listing:
            attendees += people(line)
        elif occurred is None:
            occurred = find_absolute_date(line)
    return title, occurred, attendees, len(lines)


def read_meet(text: str) -> Reading:
    """The `Name: text` lines under the head; a line naming nobody is a paragraph of the
    speaker above."""
    lines = text.split("\n")
    title, occurred, attendees, start = _head(lines)
    known = recurring_names(lines[start:]) | set(attendees)
    turns: list[Spoken] = []
    for number, raw in enumerate(lines[start:], start=start + 1):
        line = raw.strip()
        if not line or MARKER.match(line) or CLOSING.search(line):
            continue
        speaker, said = name_prefix(line, known)
        if speaker is None and turns:
            speaker = turns[-1].speaker
        turns.append(Spoken(speaker_name(speaker), said, number, number))
    return Reading("google_meet_txt", turns, title, occurred, attendees)
