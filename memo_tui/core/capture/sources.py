"""Transcript sources (.txt, .md, .vtt, .srt) normalized to turns with stable line numbers.

For .txt and .md the normalized text is the file itself (line N is line N of the file).
Subtitle formats (.vtt, .srt) become one "Speaker: text" line per turn: consecutive cues
by one speaker merge, and every turn remembers the file lines it came from.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from memo_tui.core.capture.dates import find_absolute_date

ALLOWED_FORMATS = ("txt", "md", "vtt", "srt")

_NAME_WORD = r"[A-Z\u00c0-\u024f][\w.'\u2019\-]{0,30}"
_PARTICLE = r"de|van|von|der|da|di|del|le|la|al|bin|ibn"
_SPEAKER = (
    rf"(?:{_NAME_WORD}|Dr\.|Mr\.|Ms\.|Mrs\.)"
    rf"(?:[ \t](?:[A-Z0-9\u00c0-\u024f][\w.'\u2019\-]{{0,30}}|{_PARTICLE})){{0,4}}"
)
_TIMESTAMP = r"(?:\d{1,2}:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?"
_TS_PREFIX = re.compile(rf"^\s*[\[(]?{_TIMESTAMP}[\])]?\s*[-\u2013\u2014]?\s*")
_SPEAKER_LINE = re.compile(
    rf"^(?:\*\*)?(?P<name>{_SPEAKER})(?:\*\*)?(?:\s*[\[(]{_TIMESTAMP}[\])])?"
    rf"\s*(?:\*\*)?:(?:\*\*)?\s+(?P<text>\S.*)$"
)
_OTTER_HEADER = re.compile(rf"^(?P<name>{_SPEAKER})\s+{_TIMESTAMP}\s*$")
_VOICE = re.compile(r"<v(?:\.[\w.-]{1,40})?\s+(?P<name>[^>\n]{1,80})>(?P<text>.*?)(?:</v>|$)", re.S)
_TAG = re.compile(r"</?[a-z][^>]{0,200}>|<\d{2}:[\d:.]+>", re.I)
_CUE_TIMING = re.compile(r"-->")

# Words that end in a colon at the start of a line but are labels, not people.
LABELS = frozenset(
    """
    date time when where location attendees attendee participants present absent apologies
    agenda title subject topic topics meeting note notes agreed agreement decision decisions
    decided action actions todo summary re fyi update updates status owner owners due project
    client q a question answer warning error example outcome outcomes risk risks blocker
    blockers goal goals context background problem solution result results purpose next
    follow followup followups reminder important tl;dr tldr ps p.s nb n.b step steps edit
    http https file link url parking lot open questions minutes chair facilitator scribe
    """.split()
)


_MULTIWORD_LABELS = frozenset(
    [
        "action item",
        "action items",
        "next step",
        "next steps",
        "open questions",
        "parking lot",
        "follow up",
        "key decisions",
        "key points",
        "meeting notes",
        "to do",
        "due date",
    ]
)


def _is_label(name: str) -> bool:
    """ "Agenda:", "Next steps:", "Decision 2:" are labels; "Project Manager:" is a speaker."""
    words = name.lower().replace("*", "").split()
    if " ".join(w.strip() for w in words) in _MULTIWORD_LABELS:
        return True
    return words[0] in LABELS and all(w.isdigit() for w in words[1:])


@dataclass(frozen=True)
class Turn:
    """One utterance (or one line of notes, with no speaker)."""

    line: int
    speaker: str | None
    text: str
    source_lines: tuple[int, int]
    last_line: int = 0  # the turn's last line of `text`, when it spans several

    @property
    def end(self) -> int:
        return max(self.line, self.last_line)


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

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")

    @property
    def speakers(self) -> list[str]:
        """Distinct speakers in order of first appearance."""
        return list(dict.fromkeys(t.speaker for t in self.turns if t.speaker))


def split_speaker(line: str) -> tuple[str | None, str]:
    """`Name: text` (optionally after a timestamp or in **bold**) → (name, text)."""
    stripped = _TS_PREFIX.sub("", line, count=1) if _TS_PREFIX.match(line) else line
    match = _SPEAKER_LINE.match(stripped.strip())
    if match and not _is_label(match["name"]) and len(match["name"]) <= 40:
        return match["name"].strip(), match["text"].strip()
    return None, stripped.strip()


def _line_turns(text: str, markdown: bool, attendees: list[str]) -> list[Turn]:
    turns: list[Turn] = []
    otter_speaker: str | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            otter_speaker = None
            continue
        header = _OTTER_HEADER.match(line.strip())
        if header and not _is_label(header["name"]):
            otter_speaker = header["name"]
            continue
        if otter_speaker is not None:
            turns.append(Turn(number, otter_speaker, line.strip(), (number, number)))
            continue
        is_bullet = markdown and re.match(r"^\s*(?:[-*+]|\d+[.)])\s", line)
        speaker, body = (None, line.strip()) if is_bullet else split_speaker(line)
        turns.append(Turn(number, speaker, body, (number, number)))
    lines = text.split("\n")
    return _join_wrapped(_drop_label_speakers(turns, lines, attendees), lines)


_HEADER_LINES = 5
# A hard-wrapped line (notes, mail at 72 columns) is at least this long; a turn grows by
# joining wrapped lines up to MAX_JOINED characters.
WRAP_WIDTH = 40
MAX_JOINED = 1_200
_ENDS_SENTENCE = re.compile(r"[.!?:;][\"'\u2019\u201d)\]]*$")
_NOT_PROSE = re.compile(r"^\s*(?:>|```|\|)")
_CARRIES_ON = re.compile(r"^\s*(?:[a-z\u00df-\u00ff]|\()")


def _wrapped(above: str, line: str, turn_so_far: str) -> bool:
    """Whether `line` carries on the sentence of the line above, hard-wrapped: the line
    above is long, ends mid-sentence, and is prose with punctuation (an unpunctuated
    speech-to-text export is one utterance a line); this line goes on in lower case."""
    return (
        len(above.strip()) >= WRAP_WIDTH
        and not _ENDS_SENTENCE.search(above.rstrip())
        and not _NOT_PROSE.match(above)
        and bool(re.search(r"[.,;:!?]", f"{turn_so_far} {line}"))
        and bool(_CARRIES_ON.match(line))
    )


def _join_wrapped(turns: list[Turn], lines: list[str]) -> list[Turn]:
    """A line with no speaker that carries on the sentence above it is the same turn, so a
    sentence wrapped over two lines is read as one (notes and mail are wrapped)."""
    joined: list[Turn] = []
    for turn in turns:
        previous = joined[-1] if joined else None
        if (
            previous is not None
            and turn.speaker is None
            and turn.line == previous.end + 1
            and len(previous.text) + len(turn.text) < MAX_JOINED
            and _wrapped(lines[previous.end - 1], lines[turn.line - 1], previous.text)
        ):
            joined[-1] = Turn(
                previous.line,
                previous.speaker,
                f"{previous.text} {turn.text}",
                (previous.source_lines[0], turn.line),
                turn.line,
            )
        else:
            joined.append(turn)
    return joined


def _drop_label_speakers(turns: list[Turn], lines: list[str], attendees: list[str]) -> list[Turn]:
    """In notes where few lines have a speaker, a rare "Word:" is a label ("Atlas: on track").

    A name that the attendee list gives stays a speaker.
    """
    spoken = [t for t in turns if t.speaker]
    prose = [t for t in turns if not t.speaker and t.line > _HEADER_LINES]
    if len(prose) < 3 or len(spoken) >= 0.6 * len(turns):
        return turns
    known = {name.split()[0].casefold() for name in attendees if name.split()}
    counts: dict[str, int] = {}
    for turn in spoken:
        counts[turn.speaker or ""] = counts.get(turn.speaker or "", 0) + 1

    def is_label(speaker: str | None) -> bool:
        return (
            bool(speaker)
            and counts[speaker or ""] <= 2
            and ((speaker or "").split()[0].casefold() not in known)
        )

    return [
        Turn(t.line, None, lines[t.line - 1].strip(), t.source_lines) if is_label(t.speaker) else t
        for t in turns
    ]


@dataclass
class _Cue:
    speaker: str | None
    text: str
    first: int
    last: int


def _cue_text(lines: list[tuple[int, str]]) -> tuple[str | None, str]:
    joined = " ".join(text.strip() for _, text in lines)
    voice = _VOICE.search(joined)
    if voice:
        speaker: str | None = voice["name"].strip()
        body = _VOICE.sub(lambda m: m["text"], joined)
    else:
        speaker, body = split_speaker(_TAG.sub("", joined))
    body = html.unescape(_TAG.sub("", body)).strip()
    return speaker, re.sub(r"\s+", " ", body)


def _subtitle_cues(text: str) -> tuple[list[_Cue], str | None]:
    cues: list[_Cue] = []
    title: str | None = None
    block: list[tuple[int, str]] = []
    lines = text.split("\n") + [""]
    for number, line in enumerate(lines, start=1):
        if line.strip():
            block.append((number, line))
            continue
        if not block:
            continue
        first = block[0][1].strip()
        if first.startswith("NOTE") and title is None:
            title = first.removeprefix("NOTE").strip(" :") or None
        timing = next((i for i, (_, t) in enumerate(block) if _CUE_TIMING.search(t)), None)
        if timing is not None and timing + 1 < len(block):
            body = block[timing + 1 :]
            speaker, said = _cue_text(body)
            if said:
                cues.append(_Cue(speaker, said, body[0][0], body[-1][0]))
        block = []
    return cues, title


def _subtitle_turns(text: str) -> tuple[str, list[Turn], str | None]:
    cues, title = _subtitle_cues(text)
    merged: list[_Cue] = []
    for cue in cues:
        # Subtitles often name a speaker only when it changes: an unnamed cue continues.
        speaker = cue.speaker or (merged[-1].speaker if merged else None)
        if merged and merged[-1].speaker == speaker and speaker is not None:
            merged[-1].text += " " + cue.text
            merged[-1].last = cue.last
        else:
            merged.append(_Cue(speaker, cue.text, cue.first, cue.last))
    turns = [
        Turn(index, cue.speaker, cue.text, (cue.first, cue.last))
        for index, cue in enumerate(merged, start=1)
    ]
    normalized = "\n".join(f"{t.speaker}: {t.text}" if t.speaker else t.text for t in turns)
    return normalized, turns, title


_TITLE_LINE = re.compile(r"^(?:#+\s*|title:\s*|subject:\s*|meeting:\s*)(?P<title>.+)$", re.I)
_ATTENDEES = re.compile(r"^\W*(?:attendees|participants|present)\W*:\s*(?P<names>.+)$", re.I)
_FILENAME_DATE = re.compile(r"(\d{4})[-_.](\d{2})[-_.](\d{2})")


def _title_from_name(name: str) -> str:
    stem = Path(name).stem
    stem = _FILENAME_DATE.sub("", stem).strip(" -_.")
    words = re.split(r"[-_\s]+", stem)
    return " ".join(words).strip().capitalize() or Path(name).stem


def _header(text: str, name: str) -> tuple[str | None, dt.date | None, list[str]]:
    title: str | None = None
    occurred: dt.date | None = None
    attendees: list[str] = []
    head = [line.strip() for line in text.split("\n")[:15] if line.strip()]
    for line in head:
        titled = _TITLE_LINE.match(line)
        if title is None and titled:
            title = titled["title"].strip(" #*")
        people = _ATTENDEES.match(line)
        if people and not attendees:
            attendees = [p.strip(" .*") for p in re.split(r",|;|\band\b", people["names"])]
            attendees = [p for p in attendees if p]
        if occurred is None and re.match(r"^\W*(date|when)\W*:", line, re.I):
            occurred = find_absolute_date(line)
    if occurred is None:
        match = _FILENAME_DATE.search(Path(name).name)
        if match:
            try:
                occurred = dt.date(*(int(g) for g in match.groups()))
            except ValueError:
                occurred = None
    if occurred is None:
        occurred = next((d for d in (find_absolute_date(h) for h in head[:5]) if d), None)
    if title is None and head:
        first = head[0]
        looks_like_title = (
            len(first) <= 80
            and split_speaker(first)[0] is None
            and not _OTTER_HEADER.match(first)
            and not first.endswith(":")  # a bare "Grad B:" or "Agenda:" is no title
        )
        if looks_like_title and not _TS_PREFIX.match(first) and first.upper() != "WEBVTT":
            title = first.strip(" #*")
    return title, occurred, attendees


def parse(text: str, name: str, source_format: str) -> Transcript:
    """Turn decoded text into a Transcript. `source_format` is one of ALLOWED_FORMATS.

    The meeting date comes from the text or the file name, never from file times.
    """
    if source_format in ("vtt", "srt"):
        normalized, turns, title = _subtitle_turns(text)
        _, occurred, attendees = _header(text, name)
    else:
        normalized = text
        title, occurred, attendees = _header(text, name)
        turns = _line_turns(text, source_format == "md", attendees)
    return Transcript(
        name=name,
        source_format=source_format,
        raw_text=text,
        text=normalized,
        turns=turns,
        title=title or _title_from_name(name),
        occurred_at=occurred,
        attendees=attendees,
    )
