"""Transcripts where each turn opens with a header line naming its speaker and time:
Otter (`Name  0:04`, two spaces), Teams' Word download (`Name   0:03`), Word's own
transcription (`00:00:05 Speaker 1`), Zoom's saved closed captions (`[Name] 10:02:15`).
The words follow on the next lines, up to a blank line or the next header.

Otter's `SUMMARY KEYWORDS` / `SPEAKERS` blocks and its "Transcribed by" footer are not
speech: the speakers block is the meeting's roster. A header written with one space
(`Name 0:04`) counts when the name is written as a name and words follow it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from memo_tui.core.capture.dates import find_absolute_date
from memo_tui.core.capture.formats.base import NOTICE, TIME, Reading, Spoken, speaker_name
from memo_tui.core.capture.formats.names import SPEAKER, people

_NAMED = r"[^\W\d_][^\n:]{0,60}?"
_NAME_THEN_TIME = re.compile(rf"^(?P<name>{_NAMED})(?:[ \t]{{2,}}|\t)(?P<time>{TIME})$")
_TIME_THEN_NAME = re.compile(rf"^(?P<time>{TIME})[ \t]+(?P<name>{_NAMED})$")
_ONE_SPACE = re.compile(rf"^(?P<name>{SPEAKER}) (?P<time>{TIME})$")
_BRACKETED = re.compile(rf"^\[(?P<name>[^\[\]\n]{{1,60}})\][ \t]+(?P<time>{TIME})$")
FOOTER = re.compile(r"^\s*transcribed by\b.*\b(?:otter\.ai|otter)\b", re.I)
MAX_HEADER = 90  # a name, a few spaces and a time
MAX_TITLE = 200
_BLOCKS = {"summary keywords": "keywords", "speakers": "speakers"}
_PREAMBLE = 3  # a title, a date line, a duration: more before the first turn is counted


def header(line: str, loose: bool = False) -> str | None:
    """The speaker a turn's header line names, or None when the line is no header.
    `loose` also takes `Name 0:04` with one space (the caller checks words follow)."""
    line = line.strip()
    if len(line) > MAX_HEADER:
        return None
    found = _NAME_THEN_TIME.match(line) or _TIME_THEN_NAME.match(line) or _BRACKETED.match(line)
    if found is None and loose:
        found = _ONE_SPACE.match(line)
    return found["name"].strip() if found else None


def headers(lines: list[str]) -> dict[int, str]:
    """Index -> speaker of each header line that words follow (a list of agenda items
    with times is no transcript)."""
    found: dict[int, str] = {}
    for index, line in enumerate(lines):
        name = header(line, loose=True)
        after = next((ln for ln in lines[index + 1 : index + 3] if ln.strip()), "")
        if name and after and not header(after, loose=True) and not FOOTER.match(after):
            found[index] = name
    return found


def headed_kind(lines: list[str]) -> str:
    """Otter's export, or Zoom's saved closed captions (`[Name] 10:02:15`)."""
    bracketed = sum(bool(_BRACKETED.match(line.strip())) for line in lines)
    return "zoom_cc_txt" if bracketed > len(headers(lines)) / 2 else "otter_txt"


def docx_kind(text: str) -> str:
    """Which tool's Word download a header transcript is."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if any(FOOTER.match(line) for line in lines[-3:]):
        return "otter_docx"
    if sum(bool(_TIME_THEN_NAME.match(line)) for line in lines) > len(lines) / 4:
        return "word_docx"
    return "teams_docx"


_RECORDING = re.compile(r"[-_ ]*(?:\d{8}_\d{6}[-_ ]*)?Meeting Recording$", re.I)


def _title(preamble: list[str]) -> str | None:
    """The first line of the preamble, unless it is the date; Teams names its download
    after the recording ("Review-20260324_100317-Meeting Recording")."""
    first = preamble[0] if preamble else ""
    if not first or len(first) > MAX_TITLE or find_absolute_date(first) or first == "Transcript":
        return None
    return _RECORDING.sub("", preamble[0]).strip(" -_") or None


def _preamble(lines: list[str]) -> tuple[list[str], list[str]]:
    """What comes before the first turn: its lines (title, date...) and the roster of a
    SPEAKERS block; the SUMMARY KEYWORDS block is neither."""
    preamble: list[str] = []
    roster: list[str] = []
    block: str | None = None
    for raw in lines:
        line = raw.strip()
        if not line:
            block = None
        elif line.lower() in _BLOCKS:
            block = _BLOCKS[line.lower()]
        elif block == "speakers":
            roster, block = people(line), None
        elif block is None and not NOTICE.match(line):
            preamble.append(line)
    return preamble, roster


def _turns(lines: list[str], opened: dict[int, str], start: int) -> Iterator[Spoken]:
    """Each header's words up to a blank line; a paragraph after a blank line is the
    same speaker's next turn. Footers and notices are not words."""
    speaker: str | None = None
    words: list[tuple[int, str]] = []
    for index in range(start, len(lines) + 1):
        line = lines[index].strip() if index < len(lines) else ""
        if index in opened or not line or FOOTER.match(line):
            if words and speaker is not None:
                said = " ".join(w for _, w in words)
                yield Spoken(speaker_name(speaker), said, words[0][0], words[-1][0])
            words, speaker = [], opened.get(index, speaker)
        elif not NOTICE.match(line):
            words.append((index + 1, line))


def read_headed(text: str, source_format: str) -> Reading:
    """Header transcripts to turns, with the roster from a SPEAKERS block."""
    lines = text.split("\n")
    opened = headers(lines)
    start = min(opened, default=len(lines))
    preamble, roster = _preamble(lines[:start])
    skipped = Counter({"outside_turn": max(0, len(preamble) - _PREAMBLE)})
    dated = next((d for d in map(find_absolute_date, preamble[:_PREAMBLE]) if d), None)
    turns = list(_turns(lines, opened, start))
    return Reading(source_format, turns, _title(preamble), dated, roster, +skipped)
