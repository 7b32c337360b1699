"""A Google Meet transcript (the Docs file, saved as text).

`<title> - Transcript`, a date line, `Attendees` and their list, `Transcript`, then
`Name: text` lines under `HH:MM:SS` markers every few minutes; it closes with "Meeting
ended after ..." (or "Transcription ended ...") and a note that the transcript was computer
generated. Only the `Name: text` lines are speech.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter

from memo_tui.core.capture.dates import find_absolute_date
from memo_tui.core.capture.formats.base import Reading, Spoken, speaker_name
from memo_tui.core.capture.formats.names import (
    name_prefix,
    people,
    recurring_names,
    split_speaker,
)

MAX_TITLE = 200
TITLE = re.compile(r"^(?P<title>.+?)\s+[-\u2013\u2014]\s+Transcript\s*$", re.I)
MARKER = re.compile(r"^\s*\d{1,2}:\d{2}:\d{2}\s*$")
CLOSING = re.compile(
    r"^\s*(?:meeting ended after|transcription ended after|transcription ended\b)|"
    r"\btranscript was computer generated\b|\bcomputer[- ]generated and might contain errors\b",
    re.I,
)


def is_heading(line: str) -> bool:
    """ "Transcript", or its tab's heading "\U0001f4d6 Transcript"."""
    return re.sub(r"[^a-z]", "", line.lower()) == "transcript"


def _head(lines: list[str]) -> tuple[str | None, dt.date | None, list[str], int, int]:
    """The title, date and attendees above the transcript; where it starts (its first time
    marker, else below its "Transcript" heading, else at its first `Name: text` line); and
    how many other lines come before it (Gemini's notes of a meeting, say)."""
    marker = next((i for i, line in enumerate(lines) if MARKER.match(line)), None)
    headings = [i for i, line in enumerate(lines[:marker]) if is_heading(line)]
    start = marker if marker is not None else (headings[-1] + 1 if headings else None)
    if start is None:
        start = next((i for i, line in enumerate(lines) if split_speaker(line)[0]), len(lines))
    title: str | None = None
    occurred: dt.date | None = None
    attendees: list[str] = []
    listing = False
    other = 0
    for raw in lines[:start]:
        line = raw.strip()
        titled = TITLE.match(line) if len(line) <= MAX_TITLE else None
        if not line:
            continue
        if is_heading(line):
            listing = False
        elif titled:
            title = title or titled["title"]
        elif line.lower() == "attendees":
            listing = True
        elif listing:
            attendees += people(line)
        elif occurred is None and len(line) <= MAX_TITLE and find_absolute_date(line):
            occurred = find_absolute_date(line)
        else:
            other += 1
    return title, occurred, attendees, start, other


def read_meet(text: str) -> Reading:
    """The `Name: text` lines under the head; a line naming nobody is a paragraph of the
    speaker above."""
    lines = text.split("\n")
    title, occurred, attendees, start, other = _head(lines)
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
    skipped = Counter({"outside_turn": other} if other else {})
    return Reading("google_meet_txt", turns, title, occurred, attendees, skipped)
