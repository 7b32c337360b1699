"""Transcripts where each turn opens with a header line naming its speaker and time:
Otter (`Name  0:04`, two spaces), Teams' Word download (`Name   0:03`), Word's own
transcription (`00:00:05 Speaker 1`). The words follow on the next lines, up to a blank
line or the next header.

Otter's `SUMMARY KEYWORDS` / `SPEAKERS` blocks and its "Transcribed by" footer are not
speech: the speakers block is the meeting's roster.
"""

from __future__ import annotations

import re
from collections import Counter

from memo_tui.core.capture.dates import find_absolute_date
from memo_tui.core.capture.formats.base import Reading, Spoken, speaker_name

_TIME = r"(?:\d{1,2}:)?\d{1,2}:\d{2}"
_NAMED = r"[^\W\d_][^\n:]{0,60}?"
NAME_THEN_TIME = re.compile(rf"^(?P<name>{_NAMED})(?:[ \t]{{2,}}|\t)(?P<time>{_TIME})\s*$")
TIME_THEN_NAME = re.compile(rf"^(?P<time>{_TIME})[ \t]+(?P<name>{_NAMED})\s*$")
FOOTER = re.compile(r"^\s*transcribed by\b.*\b(?:otter\.ai|otter)\b", re.I)
MAX_HEADER = 90  # a name, a few spaces and a time
# Teams names its download after the recording, and notes who turned transcription on.
_RECORDING = re.compile(r"[-_ ]*(?:\d{8}_\d{6}[-_ ]*)?Meeting Recording\s*$", re.I)
NOTICE = re.compile(r"^.{1,80}\s(?:started|stopped|paused|resumed) transcription\.?$", re.I)
_BLOCKS = {"summary keywords": "keywords", "speakers": "speakers"}


def header(line: str) -> str | None:
    """The speaker a turn's header line names, or None when the line is no header."""
    line = line.strip()
    if len(line) > MAX_HEADER:
        return None
    found = NAME_THEN_TIME.match(line) or TIME_THEN_NAME.match(line)
    return found["name"].strip() if found else None


def read_headed(text: str, source_format: str) -> Reading:
    lines = text.split("\n")
    skipped: Counter[str] = Counter()
    preamble: list[str] = []
    attendees: list[str] = []
    turns: list[Spoken] = []
    speaker: str | None = None
    words: list[tuple[int, str]] = []
    block: str | None = None

    def close() -> None:
        if speaker is None:
            return
        if words:
            said = " ".join(w for _, w in words)
            turns.append(Spoken(speaker_name(speaker), said, words[0][0], words[-1][0]))
        else:
            skipped["empty_turn"] += 1

    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        named = header(line) if line else None
        if named is not None and not FOOTER.match(line):
            close()
            speaker, words, block = named, [], None
        elif FOOTER.match(line):
            close()
            speaker, words = None, []
        elif NOTICE.match(line):
            continue
        elif speaker is not None:
            if line:
                words.append((number, line))
            elif words:
                close()
                speaker, words = None, []
        elif line.lower() in _BLOCKS:
            block = _BLOCKS[line.lower()]
        elif block == "speakers" and line:
            attendees = [name.strip() for name in re.split(r",|;", line) if name.strip()]
            block = None
        elif block == "keywords":
            block = None if not line else block
        elif line and not turns:
            preamble.append(line)
        elif line:  # a paragraph after a blank line: the last speaker goes on
            speaker, words = turns[-1].speaker, [(number, line)]
    close()
    title = preamble[0] if preamble and not find_absolute_date(preamble[0]) else None
    title = _RECORDING.sub("", title).strip() or None if title else None
    dated = next((d for d in map(find_absolute_date, preamble[:3]) if d), None)
    return Reading(source_format, turns, title, dated, attendees, skipped)
