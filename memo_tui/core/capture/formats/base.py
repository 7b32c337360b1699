"""What a format reader hands back, and the rules every reader shares: speaker names as
people write them, note-taking bots, and the markup that must never pass for speech."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, field, replace

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
    "outside_turn": ("line before the first turn", "lines before the first turn"),
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


# Whatever else a display name carries at its end: "(Marlow Fresh)", "(PM)", "| Acme".
_BRACKETED_END = re.compile(r"\s*(?:[\[(][^\[\]()]{1,40}[\])]|\|[^|]{1,40})$")
_COMMA = re.compile(r"^([^,@]+),\s*([^,@.\d]+)$")


def speaker_name(raw: str | None) -> str | None:
    """A display name as the person's name: export suffixes, pronouns and what else is
    bracketed at its end go; a directory's "Harcourt, Elizabeth" is Elizabeth Harcourt."""
    if raw is None:
        return None
    name = " ".join(raw.split())
    while True:
        trimmed = _NAME_SUFFIX.sub("", name)
        trimmed = _BRACKETED_END.sub("", trimmed) or trimmed
        if trimmed == name:
            break
        name = trimmed
    return _comma_name(name.strip(" :")) or None


def _comma_name(name: str) -> str:
    """A directory's "Harcourt, Elizabeth" is Elizabeth Harcourt; "Alice Smith, CFO" is
    Alice Smith (what follows a full name's comma is a title or a company)."""
    parts = _COMMA.match(name)
    if parts is None:
        return name
    before, after = parts[1].split(), parts[2].split()
    if len(before) >= 2 and len(after) <= 2:
        return " ".join(before)
    if len(before) == 1 and len(after) <= 2 and not any(w.isupper() and len(w) > 1 for w in after):
        return f"{' '.join(after)} {before[0]}"
    return name


# A heuristic: note-taking bots and AI assistants post in chats and sit in transcripts;
# what they write is not what anyone in the meeting said. Products' names found anywhere in
# a label, and names a person could have only as the whole label or with "AI" beside them.
_BOT = re.compile(
    r"\b(?:bot|notetaker|note[- ]taker|meeting notes|ai notes|ai (?:meeting )?assistant|"
    r"(?:zoom )?ai companion|read\.ai|read ai|otter\.ai|fireflies(?:\.ai)?|tl;? ?dv|"
    r"sembly|avoma|chat ?gpt|gpt-?\d[\w.-]*|openai|copilot|meetgeek|supernormal|tactiq|"
    r"circleback|krisp)\b",
    re.I,
)
_BOT_WHOLE = re.compile(
    r"^(?:otter|fathom|gemini|granola|notta|bluedot|airgram|assistant)"
    r"(?:\.ai|\s+ai|\s+notes?)?$",
    re.I,
)


_CAMEL_BOT = re.compile(r"(?<=[a-z])Bot\d*\b|\b[Bb]ot\d+\b")  # "MeetBot", "NotesBot2", not Talbot


def is_bot(speaker: str | None) -> bool:
    """Whether a speaker is a note-taker or an AI assistant (by its name: a heuristic)."""
    name = " ".join((speaker or "").split())
    return bool(name) and bool(
        _BOT.search(name) or _BOT_WHOLE.match(name) or _CAMEL_BOT.search(name)
    )


TIME = r"(?:\d{1,3}:)?\d{1,2}:\d{2}"  # 4:05, 1:02:03, 00:04:09
STAMP = rf"{TIME}(?:[.,]\d{{1,3}})?"  # and with milliseconds, as subtitles write them
# A cue's timing, with its fraction of a second (Teams' older exports write `0:0:5.23`);
# settings after it are `key:value` words.
_CUE_STAMP = r"(?:\d{1,3}:)?\d{1,2}:\d{1,2}[.,]\d{1,7}"
TIMING = re.compile(rf"^\s*{_CUE_STAMP}\s*-->\s*{_CUE_STAMP}(?:\s+[\w-]+:\S+)*\s*$")
CUE_ID_GUID = re.compile(
    r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:/\d+-\d+)?\b", re.I
)
_VOICE_TAG = re.compile(r"</?v(?:[\s.][^<>\n]{0,80})?>", re.I)
# What tools write into a transcript about the meeting rather than in it: someone (named,
# as a tool names them) joined or left, or started or stopped the transcription.
NOTICE = re.compile(
    r"^[A-Z\u00c0-\u024f](?:[\w'\u2019-]+|\.)(?: [A-Z\u00c0-\u024f](?:[\w'\u2019-]+|\.)){0,3}"
    r"(?: \([^()]{1,30}\))? (?:has )?(?:(?:joined|left) (?:the )?(?:meeting|call|conversation)|"
    r"(?:started|stopped|paused|resumed) (?:the )?(?:transcription|recording))\.?$"
)


def is_scaffolding(text: str) -> bool:
    """A whole turn that is an export's scaffolding: a timing line or a cue id."""
    return bool(TIMING.match(text) or CUE_ID_GUID.fullmatch(text.strip()))


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
    """ "Unknown Speaker", "Speaker 3": a label for someone unnamed."""
    return bool(_PLACEHOLDER.match(name.strip()))


def keep_speech(reading: Reading) -> Reading:
    """The reading's turns without bots' messages, tools' notices and scaffolding a
    reader let through (counted), a stray voice tag taken out of the words; its roster
    without bots and placeholders."""
    kept: list[Spoken] = []
    skipped = Counter(reading.skipped)
    for turn in reading.turns:
        said = " ".join(_VOICE_TAG.sub("", turn.text).split())
        if is_bot(turn.speaker):
            skipped["bot_message"] += 1
        elif is_scaffolding(said) or (turn.speaker and is_scaffolding(turn.speaker)):
            skipped["markup"] += 1
        elif turn.speaker is None and NOTICE.match(said):
            continue
        elif said:
            kept.append(Spoken(turn.speaker, said, turn.first, turn.last))
    listed = (speaker_name(a) for a in reading.attendees)
    roster = [a for a in listed if a and not is_bot(a) and not is_placeholder(a)]
    return replace(reading, turns=kept, attendees=roster, skipped=skipped)
