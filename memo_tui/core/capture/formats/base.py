"""What a format reader hands back, and the rules every reader shares: speaker names as
people write them, note-taking bots, and the markup that must never pass for speech."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, field

# A merged run of one speaker's cues starts a new turn past this many characters, so a
# citation points at a passage, not at five minutes of monologue.
MAX_TURN = 1_000


@dataclass(frozen=True)
class Turn:
    """One utterance (or one line of notes, with no speaker), as memo stores it: `line` is
    its line in the stored text, `source_lines` the lines of the file it came from."""

    line: int
    speaker: str | None
    text: str
    source_lines: tuple[int, int]
    last_line: int = 0  # the turn's last line of `text`, when it spans several

    @property
    def end(self) -> int:
        return max(self.line, self.last_line)


@dataclass(frozen=True)
class Spoken:
    """One turn as a reader found it: who, what, and the file lines it came from."""

    speaker: str | None
    text: str
    first: int
    last: int


# Why a reader left something out, as `Reading.skipped` counts it: (one, several).
SKIPPED = {
    "garbled_timing": ("cue with a garbled timing line", "cues with a garbled timing line"),
    "empty_cue": ("cue without text", "cues without text"),
    "unclosed_voice": ("cue with a voice tag never closed", "cues with a voice tag never closed"),
    "outside_cue": ("line outside any cue", "lines outside any cue"),
    "empty_turn": ("turn without text", "turns without text"),
    "outside_message": ("line outside any message", "lines outside any message"),
    "direct_message": ("direct message", "direct messages"),
    "bot_message": ("note-taking bot's message", "note-taking bots' messages"),
    "markup": ("line of export markup", "lines of export markup"),
}


def describe_skipped(skipped: dict[str, int]) -> str:
    """ "2 cues with a garbled timing line, 1 direct message"."""
    said = (f"{count} {SKIPPED.get(why, (why, why))[count != 1]}" for why, count in skipped.items())
    return ", ".join(said)


@dataclass
class Reading:
    """A file read in one format: its turns, what its header says, and what was left out
    (cues it could not read, direct messages, bots), counted by reason."""

    format: str
    turns: list[Spoken]
    title: str | None = None
    occurred_at: dt.date | None = None
    attendees: list[str] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    withheld: list[tuple[int, int]] = field(default_factory=list)  # file lines never kept


def withhold(text: str, spans: list[tuple[int, int]]) -> str:
    """The file's text with the lines of `spans` (first, last; 1-based) emptied: what is
    private (a direct message) is not kept even in the raw text, and lines still count."""
    if not spans:
        return text
    lines = text.split("\n")
    for first, last in spans:
        lines[first - 1 : last] = [""] * (last - first + 1)
    return "\n".join(lines)


# "(External)", "(Guest)", "(Unverified)" from Teams; pronouns people add to display names.
_NAME_SUFFIX = re.compile(
    r"\s*[\[(](?:external|guest|unverified|organi[sz]er|presenter|host|co-host|me|"
    r"(?:she|he|they|ze|xe)(?:\s*/\s*\w+){1,2})[\])]\s*$",
    re.I,
)


def speaker_name(raw: str | None) -> str | None:
    """A display name as the person's name: export suffixes and pronouns go."""
    if raw is None:
        return None
    name = " ".join(raw.split())
    while True:
        trimmed = _NAME_SUFFIX.sub("", name)
        if trimmed == name:
            break
        name = trimmed
    return name.strip(" :") or None


# A heuristic: note-taking bots post in chats and sit in transcripts; what they write is
# not what anyone in the meeting said.
_BOT = re.compile(
    r"\b(?:bot|notetaker|note[- ]taker|meeting notes|ai notes|assistant|copilot|"
    r"read\.ai|otter\.ai|fireflies(?:\.ai)?|fathom|tl;?dv|sembly|avoma|fellow\.app)\b|\.ai\b",
    re.I,
)


def is_bot(speaker: str | None) -> bool:
    return bool(speaker) and bool(_BOT.search(speaker or ""))


_TIMESTAMP = r"(?:\d{1,3}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?"
BARE_TIMESTAMP = re.compile(rf"^\s*[\[(]?{_TIMESTAMP}[\])]?\s*$")
CUE_ID_GUID = re.compile(
    r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:/\d+-\d+)?\b", re.I
)
_MARKUP = re.compile(r"-->|<v[\s.]|</v>|^\s*WEBVTT\b")


def is_markup(text: str) -> bool:
    """Export scaffolding left in a turn: a timing arrow, a voice tag, a cue id, a bare
    timestamp. A turn holding one is not stored as speech."""
    return bool(_MARKUP.search(text) or CUE_ID_GUID.search(text) or BARE_TIMESTAMP.match(text))


def merge_runs(turns: list[Spoken]) -> list[Spoken]:
    """Consecutive turns of one speaker become one turn (up to MAX_TURN characters)."""
    merged: list[Spoken] = []
    for turn in turns:
        last = merged[-1] if merged else None
        if (
            last is not None
            and turn.speaker is not None
            and last.speaker == turn.speaker
            and len(last.text) + len(turn.text) < MAX_TURN
        ):
            merged[-1] = Spoken(last.speaker, f"{last.text} {turn.text}", last.first, turn.last)
        else:
            merged.append(turn)
    return merged


# Labels that stand for nobody in particular: not people, not on the roster.
_PLACEHOLDER = re.compile(
    r"^(?:unknown(?: speaker)?|speaker(?: ?\d+)?|guest(?: ?\d+)?|participant(?: ?\d+)?)$", re.I
)


def is_placeholder(name: str) -> bool:
    return bool(_PLACEHOLDER.match(name.strip()))


def keep_speech(reading: Reading) -> Reading:
    """The reading without bots' messages and anything that is still markup, counted."""
    kept: list[Spoken] = []
    for turn in reading.turns:
        if is_bot(turn.speaker):
            reading.skipped["bot_message"] += 1
        elif is_markup(turn.text) or (turn.speaker and is_markup(turn.speaker)):
            reading.skipped["markup"] += 1
        elif turn.text.strip():
            kept.append(Spoken(turn.speaker, " ".join(turn.text.split()), turn.first, turn.last))
    reading.turns = kept
    listed = (speaker_name(a) for a in reading.attendees)
    reading.attendees = [a for a in listed if a and not is_bot(a) and not is_placeholder(a)]
    return reading
