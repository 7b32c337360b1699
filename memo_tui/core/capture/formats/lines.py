"""Text written a line at a time: plain `Name: text` transcripts and notes (stored as the
file itself, line N is line N of the file), Markdown notes, and transcripts whose lines
open with a timestamp (`[00:03:12] Sam: ...`, stored one turn a line, without the times)."""

from __future__ import annotations

import datetime as dt
import re

from memo_tui.core.capture.dates import find_absolute_date
from memo_tui.core.capture.formats.base import Reading, Spoken, Turn, speaker_name
from memo_tui.core.capture.formats.names import (
    TS_PREFIX,
    listed_entries,
    person,
    short_form,
    split_speaker,
)
from memo_tui.core.capture.formats.otter import header as otter_header
from memo_tui.core.entities.names import INITIALS_ALONE

_HEADER_LINES = 5
# A hard-wrapped line (notes, mail at 72 columns) is at least this long; a turn grows by
# joining wrapped lines up to MAX_JOINED characters.
WRAP_WIDTH = 40
MAX_JOINED = 1_200
_ENDS_SENTENCE = re.compile(r"[.!?:;][\"'\u2019\u201d)\]]*$")
_NOT_PROSE = re.compile(r"^\s*(?:>|```|\|)")
_CARRIES_ON = re.compile(r"^\s*(?:[a-z\u00df-\u00ff]|\()")
_BULLET = re.compile(r"^\s*(?:[-*+\u2022]|\d+[.)])\s+")
# A line that is only a sound description: "[crosstalk]", "(laughter)".
_ANNOTATION = re.compile(r"^\s*[\[(][a-z][a-z _-]{1,30}[\])]\s*$", re.I)


def line_turns(text: str, markdown: bool, attendees: list[str]) -> list[Turn]:
    """One turn a line of the file (a hard-wrapped sentence joined), numbered as the file; a
    line of only a timestamp says nothing and is no turn."""
    turns: list[Turn] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        is_bullet = markdown and _BULLET.match(line)
        speaker, body = (None, line.strip()) if is_bullet else split_speaker(line)
        if body:
            turns.append(Turn(number, speaker, body, (number, number)))
    lines = text.split("\n")
    return _join_wrapped(_drop_label_speakers(turns, lines, attendees), lines)


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

    def rare_label(speaker: str | None) -> bool:
        return (
            bool(speaker)
            and counts[speaker or ""] <= 2
            and ((speaker or "").split()[0].casefold() not in known)
        )

    return [
        Turn(t.line, None, lines[t.line - 1].strip(), t.source_lines)
        if rare_label(t.speaker)
        else t
        for t in turns
    ]


def read_timestamped(text: str) -> Reading:
    """`[00:03:12] Sam: text` lines: the times go, a line with no time that names nobody
    carries on the turn above, and a line that is only a sound description ("[crosstalk]")
    is not a turn. The lines above the first time stay, as lines of notes; its title, date
    and roster are read from them too."""
    turns: list[Spoken] = []
    started = False
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        timed = bool(TS_PREFIX.match(line))
        started = started or timed
        rest = TS_PREFIX.sub("", line, count=1) if timed else line
        if not line or _ANNOTATION.match(rest):
            continue
        speaker, said = split_speaker(rest)
        if started and not timed and speaker is None and turns and turns[-1].speaker:
            last = turns[-1]
            turns[-1] = Spoken(last.speaker, f"{last.text} {rest}", last.first, number)
        else:
            turns.append(Spoken(speaker_name(speaker), said, number, number))
    title, occurred, attendees = header_facts(text)
    head = [t.text for t in turns[:4] if t.speaker is None]
    occurred = occurred or next((d for d in map(find_absolute_date, head) if d), None)
    return Reading("timestamped_txt", turns, title, occurred, attendees)


_TITLE_LINE = re.compile(r"^(?:#+\s*|title:\s*|subject:\s*|meeting:\s*)(?P<title>.+)$", re.I)
_ROSTER_LINE = re.compile(
    r"^\W*(?P<kind>attendees|attendance|participants|present|apologies|apols|absent|regrets)"
    r"[*_\s]*(?::[*_\s]*(?P<names>.*))?$",
    re.I,
)
_ABSENT = ("apologies", "apols", "absent", "regrets")
MAX_ROSTER_LINE = 1_000


def roster(lines: list[str]) -> list[str]:
    """Who attended, from `Attendees: A, B` lines or an `Attendees` heading's list (one
    person an item); people sending apologies are not attendees."""
    present: list[str] = []
    absent: set[str] = set()
    for kind, entries in _roster_entries(lines):
        names = [" ".join(person(e).split()) for e in entries]
        (absent.update if kind in _ABSENT else present.extend)(n for n in names if n)
    return [name for name in dict.fromkeys(present) if name not in absent]


def short_forms(text: str) -> dict[str, str]:
    """{short form: name} as a header's roster writes them ("Maggie Thornton (MT)"), so
    "@MT" in the notes is her."""
    lines = text.split("\n")[:60]
    given = (short_form(e) for _, entries in _roster_entries(lines) for e in entries)
    return dict(g for g in given if g is not None)


def _one_or_several(item: str) -> list[str]:
    """A roster item is one person ("Sam Okafor, Field") unless each of its parts is a
    person by initials or with them ("MT (chair), DA, AK"; "DW (Dominik Wróblewski), DF
    (Dominique Fairweather)")."""
    parts = listed_entries(item)
    several = len(parts) > 1 and all(
        short_form(p) or INITIALS_ALONE.fullmatch(person(p)) for p in parts
    )
    return parts if several else [item]


def _roster_entries(lines: list[str]) -> list[tuple[str | None, list[str]]]:
    """Each roster line's kind (attendees, apologies, ...) and the entries it lists."""
    found: list[tuple[str | None, list[str]]] = []
    listing: str | None = None  # the kind of list under a heading, while it is read
    for raw in (line for line in lines if len(line) <= MAX_ROSTER_LINE):
        bullet = bool(_BULLET.match(raw))
        text = _BULLET.sub("", raw).strip()
        labelled = _ROSTER_LINE.match(text)
        kind = labelled["kind"].lower() if labelled else None
        if labelled and (labelled["names"] or "").strip(" *_"):
            found.append((kind, listed_entries(labelled["names"])))
            listing = listing if bullet else None
        elif labelled and not bullet:
            listing = kind
        elif listing and bullet:
            found.append((listing, _one_or_several(text)))
        elif listing and text:
            listing = None
    return found


def header_facts(text: str) -> tuple[str | None, dt.date | None, list[str]]:
    """The title, meeting date and roster a note or transcript states at its top."""
    lines = text.split("\n")
    head = [line.strip() for line in lines[:15] if line.strip()]
    title: str | None = None
    occurred: dt.date | None = None
    for line in head:
        titled = _TITLE_LINE.match(line)
        if title is None and titled:
            title = titled["title"].strip(" #*")
        if occurred is None and re.match(r"^\W*(date|when)\W*:", line, re.I):
            occurred = find_absolute_date(line)
    if title is None and head:
        first = head[0]
        looks_like_title = (
            len(first) <= 80
            and split_speaker(first)[0] is None
            and not otter_header(first)
            and not first.endswith(":")  # a bare "Grad B:" or "Agenda:" is no title
            and not _ROSTER_LINE.match(first)  # nor "Attendees: Libby Harcourt, Omar Haddad"
            and not re.match(r"^\W*(?:date|when|time|location|where)\W*:", first, re.I)
        )
        if looks_like_title and not TS_PREFIX.match(first) and first.upper() != "WEBVTT":
            title = first.strip(" #*")
    return title, occurred, roster(lines[:60])
