"""A Google Meet transcript (the Docs file, saved as text).

`<title> - Transcript`, a date line, `Attendees` and their list, `Transcript`, then
`Name: text` lines under `HH:MM:SS` markers every few minutes; it closes with "Meeting
ended after ..." (or "Transcription ended ...") and a note that the transcript was computer
generated. Only the `Name: text` lines are speech.
"""

from __future__ import annotations

import re

from memo_tui.core.capture.dates import find_absolute_date
from memo_tui.core.capture.formats.base import Reading, Spoken, speaker_name
from memo_tui.core.capture.formats.names import name_prefix, recurring_names

MAX_TITLE = 200
TITLE = re.compile(r"^(?P<title>.+?)\s+[-\u2013\u2014]\s+Transcript\s*$", re.I)
MARKER = re.compile(r"^\s*\d{1,2}:\d{2}:\d{2}\s*$")
CLOSING = re.compile(
    r"^\s*(?:meeting ended after|transcription ended after|transcription ended\b)|"
    r"\btranscript was computer generated\b|\bcomputer[- ]generated and might contain errors\b",
    re.I,
)


def read_meet(text: str) -> Reading:
    lines = text.split("\n")
    title: str | None = None
    occurred = None
    attendees: list[str] = []
    start = 0
    section = "head"
    for number, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            continue
        titled = TITLE.match(line) if len(line) <= MAX_TITLE else None
        if section == "head" and title is None and titled:
            title = titled["title"]
        elif line.lower() == "attendees":
            section = "attendees"
        elif line.lower().endswith("transcript") or MARKER.match(line):
            start = number + (line.lower() == "transcript")
            break
        elif section == "attendees":
            attendees += [a.strip() for a in re.split(r",|;", line) if a.strip()]
        elif occurred is None:
            occurred = find_absolute_date(line)
    known = recurring_names(lines[start:]) | set(attendees)
    turns: list[Spoken] = []
    for number, raw in enumerate(lines[start:], start=start + 1):
        line = raw.strip()
        if not line or MARKER.match(line) or CLOSING.search(line):
            continue
        speaker, said = name_prefix(line, known)
        if speaker is None and turns:  # a paragraph of the speaker above
            speaker = turns[-1].speaker
        turns.append(Spoken(speaker_name(speaker), said, number, number))
    return Reading("google_meet_txt", turns, title, occurred, attendees)
