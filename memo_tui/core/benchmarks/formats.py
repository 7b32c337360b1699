"""`memo bench formats`: how transcripts read, as exported by the tools people use.

For each file: the format detected (against the truth's, where a truth.jsonl gives one),
turns, the attendees found among its speaker labels and roster, lines of export markup
stored (must be 0), what was skipped, whether every stored turn maps back to file lines
that hold its words, and whether a chat log was linked to its meeting.

The markup check here is the bench's own, stricter than the readers' guard, so a reader
cannot pass it by agreeing with itself.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.capture.files import read_file
from memo_tui.core.capture.formats.base import describe_skipped, is_placeholder
from memo_tui.core.capture.guards import ALLOWED_SUFFIXES
from memo_tui.core.capture.sources import Transcript, parse
from memo_tui.core.entities.names import normalize
from store import Store

_MARKUP = re.compile(
    r"-->|</?v[\s.>]|^\s*WEBVTT\b"
    r"|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
    r"|^\s*[\[(]?(?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?[\])]?(?:\s|$)"
    r"|^\S.{0,60}?\s{2,}(?:\d{1,2}:)?\d{1,2}:\d{2}\s*$"
    r"|^\d{1,2}:\d{2}(?::\d{2})?\s+From\s"
    r"|transcribed by https?://otter|computer generated and might contain errors"
    r"|^meeting ended after|^transcription ended|^reacted to \"|^replying to \"",
    re.I,
)
_CUE_NUMBER = re.compile(r"^\s*\d+\s*$")
_TRUTH_FORMATS = {"teams_vtt_txt": "teams_vtt", "auto_transcript_messy": "timestamped_txt"}


def markup_lines(transcript: Transcript) -> list[str]:
    """Stored text that is an export's scaffolding, not speech: of an export, every turn
    (its words and its speaker label); of notes stored as written, every line."""
    if transcript.as_written:
        return [line for line in transcript.lines if _MARKUP.search(line)]
    found = []
    for turn in transcript.turns:
        if _MARKUP.search(turn.text) or _CUE_NUMBER.match(turn.text):
            found.append(turn.text)
        if turn.speaker and _MARKUP.search(turn.speaker):
            found.append(turn.speaker)
    return found


def lines_hold(transcript: Transcript) -> int:
    """How many turns' words are in the file lines their `source_lines` name."""
    raw = transcript.raw_text.split("\n")
    held = 0
    for turn in transcript.turns:
        first, last = turn.source_lines
        there = " ".join(raw[first - 1 : last])
        words = normalize(turn.text).split()
        if words:  # the first and last words, whatever the spacing and accents
            held += all(word in normalize(there) for word in words[:3] + words[-3:])
        else:  # an emoji
            held += turn.text in there
    return held


@dataclass
class FileFigures:
    file: str
    format: str = ""
    expected_format: str | None = None
    turns: int = 0
    speakers: list[str] = field(default_factory=list)
    attendees_found: list[str] = field(default_factory=list)  # by speaker label or roster
    speakers_found: list[str] = field(default_factory=list)  # by speaker label alone
    attendees_missing: list[str] = field(default_factory=list)
    markup: list[str] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)
    lines_held: int = 0
    companion: str | None = None  # the meeting file a chat should be linked to
    companion_linked: bool | None = None
    error: str | None = None

    @property
    def format_right(self) -> bool | None:
        if self.expected_format is None:
            return None
        return _TRUTH_FORMATS.get(self.expected_format, self.expected_format) == self.format


@dataclass
class FormatsBench:
    files: list[FileFigures] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        known = [f for f in self.files if f.format_right is not None]
        return {
            "files": [{**asdict(f), "format_right": f.format_right} for f in self.files],
            "formats_right": sum(bool(f.format_right) for f in known),
            "formats_known": len(known),
            "attendees_found": sum(len(f.attendees_found) for f in self.files),
            "speakers_found": sum(len(f.speakers_found) for f in self.files),
            "attendees": sum(len(f.attendees_found) + len(f.attendees_missing) for f in self.files),
            "markup_lines": sum(len(f.markup) for f in self.files),
            "turns": sum(f.turns for f in self.files),
            "lines_held": sum(f.lines_held for f in self.files),
            "skipped": sum(sum(f.skipped.values()) for f in self.files),
            "errors": sum(f.error is not None for f in self.files),
            "seconds": round(self.seconds, 3),
        }


def _jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _names_of(people: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Each cast member's spellings (full name, aliases, nicknames), normalized; a
    placeholder such as "Speaker 3" is the truth's knowledge, not a name a file gives."""
    names: dict[str, set[str]] = {}
    for person in people:
        if person.get("kind") != "person":
            continue
        spelled = [person["name"], *person.get("aliases", []), *person.get("nicknames", [])]
        names[person["name"]] = {normalize(n) for n in spelled if not is_placeholder(n)}
    return names


def _found(names: list[str], attendee: str, cast: dict[str, set[str]], room: list[str]) -> bool:
    """An attendee is found when one of `names` (speaker labels, roster entries) is their
    name or one of their spellings that fits nobody else in the room (a "Sam" with two
    Sams finds neither)."""
    labels = {normalize(n) for n in names}
    mine = cast.get(attendee, set()) | {normalize(attendee)}
    others = set().union(*(cast.get(a, {normalize(a)}) for a in room if a != attendee))
    return bool((mine - others) & labels) or normalize(attendee) in labels


def run(data: Path) -> FormatsBench:
    """Read every file (those truth.jsonl lists, else every capturable one) and capture
    them all into a scratch store, which links chat logs to their meetings."""
    truth = {str(row["file"]): row for row in _jsonl(data / "truth.jsonl")}
    cast = _names_of(_jsonl(data / "people.jsonl"))
    paths = [data / name for name in truth] or sorted(
        p for p in data.iterdir() if p.suffix.lower() in ALLOWED_SUFFIXES and p.is_file()
    )
    bench = FormatsBench()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch, Store(Path(scratch) / "bench.db") as store:
        service = CaptureService(store, CaptureOptions(max_chars=10_000_000, user="bench"))
        captured: dict[str, int] = {}
        for path in paths:
            row = truth.get(path.name, {})
            figures = FileFigures(path.name, expected_format=row.get("format"))
            figures.companion = row.get("companion") if "chat" in str(row.get("format")) else None
            bench.files.append(figures)
            try:
                text, hint = read_file(path, 10_000_000)
                transcript = parse(text, path.name, hint)
            except Exception as error:  # noqa: BLE001 - a file that fails is a figure
                figures.error = str(getattr(error, "message", error))
                continue
            room = [str(a) for a in row.get("attendees", [])]
            figures.format, figures.turns = transcript.source_format, len(transcript.turns)
            figures.speakers, figures.skipped = transcript.speakers, transcript.skipped
            figures.markup = markup_lines(transcript)
            figures.lines_held = lines_hold(transcript)
            named = [*transcript.speakers, *transcript.attendees]
            for attendee in room:
                found = _found(named, attendee, cast, room)
                (figures.attendees_found if found else figures.attendees_missing).append(attendee)
                if _found(transcript.speakers, attendee, cast, room):
                    figures.speakers_found.append(attendee)
            result = service.capture_file(path)
            if result.capture_id is not None:
                captured[path.name] = result.capture_id
        for figures in bench.files:
            if figures.companion and figures.file in captured:
                chat = store.captures.get(captured[figures.file])
                figures.companion_linked = chat is not None and chat.channel_of == captured.get(
                    figures.companion
                )
    bench.seconds = time.perf_counter() - started
    return bench


def format_report(bench: FormatsBench) -> str:
    """A line per file, then the totals. `labels` counts the attendees a speaker label
    names; `found` those a label or the file's roster names."""
    rows = [
        f"{'file':<44} {'format':<16} {'turns':>5} {'labels':>6} {'found':>6} {'markup':>6} "
        f"{'held':>9} skipped / notes"
    ]
    for f in bench.files:
        if f.error:
            rows.append(f"{f.file[:44]:<44} ERROR {f.error}")
            continue
        mark = "" if f.format_right in (None, True) else f" (truth {f.expected_format})"
        room = len(f.attendees_found) + len(f.attendees_missing)
        notes = [describe_skipped(f.skipped)] if f.skipped else []
        if f.attendees_missing:
            notes.append("missing " + ", ".join(f.attendees_missing))
        if f.companion_linked is not None:
            notes.append("chat linked to its meeting" if f.companion_linked else "chat NOT linked")
        rows.append(
            f"{f.file[:44]:<44} {f.format:<16} {f.turns:>5} "
            f"{len(f.speakers_found):>2}/{room:<3} {len(f.attendees_found):>2}/{room:<3} "
            f"{len(f.markup):>6} {f.lines_held:>4}/{f.turns:<4} {'; '.join(notes)}{mark}"
        )
    totals = bench.as_dict()
    rows.append(
        f"formats right {totals['formats_right']}/{totals['formats_known']}, attendees named "
        f"by a speaker label {totals['speakers_found']}/{totals['attendees']}, by a label or "
        f"the roster {totals['attendees_found']}/{totals['attendees']}, markup lines stored "
        f"{totals['markup_lines']}, turns whose file lines hold their words "
        f"{totals['lines_held']}/{totals['turns']}, skipped {totals['skipped']}, "
        f"errors {totals['errors']} ({totals['seconds']} s)"
    )
    return "\n".join(rows)
