"""WebVTT (Teams, Zoom, any other tool) and SubRip, read cue by cue.

A cue is an optional id, a timing line and its text. Teams writes `<v Full Name>text</v>`
(sometimes without the `</v>`), Zoom `Display Name: text`, SubRip exports `[Full Name] text`,
`Name: text` or `>> NAME: text`; a cue that names nobody carries on the speaker before it,
and a line inside a cue that names someone starts their turn. A cue that cannot be read (a
garbled timing line, no text, a voice tag never closed) is skipped and counted, never
stored half-read.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass

from memo_tui.core.capture.formats.base import (
    CUE_ID_GUID,
    NOTICE,
    TIMING,
    Reading,
    Spoken,
    merge_runs,
    speaker_name,
)
from memo_tui.core.capture.formats.names import NAME_LINE, is_label, name_prefix, recurring_names

# A line that means to be a timing line: it starts with a time and an arrow follows, even
# when the time or the arrow is garbled (`00:01:0x --> ...`, `00:01:02.000 -> ...`).
TIMING_LIKE = re.compile(r"^\s*\d{1,3}:\S{0,20}\s*(?:-->|->\s*\d{1,3}:\d+[:.,]\d)")
_CUE_ID = re.compile(rf"^\s*(?:\d+|{CUE_ID_GUID.pattern})\s*$", re.I)
_NAMED_ID = re.compile(r"^\S{1,40}$")  # WebVTT lets a cue be named: "intro", "chapter-2"
VOICE = re.compile(r"<v(?:\.[\w.-]{1,40})?[ \t]+(?P<name>[^<>\n]{1,80})>")
_VOICE_OPEN = re.compile(r"<v[\s.]", re.I)
_TAG = re.compile(
    r"</?[a-z][\w.-]{0,20}(?:[ \t][^<>\n]{0,200})?>|<\d{1,2}:[\d:.]+>|\{\\[^{}\n]{0,40}\}", re.I
)
_BRACKETED = re.compile(r"^\[(?P<name>[^\[\]\n]{1,60})\]\s*(?P<text>.*)$")
_LEADER = re.compile(r"^(?:>>|-)\s*")  # ">> NAME: text", "- Name: text" in captions
# Bracketed sound descriptions, not speakers: [inaudible] we should...
_SOUNDS = frozenset(
    """inaudible crosstalk laughter laughs laughing music applause silence noise pause
    background unintelligible overlapping indistinct foreign coughs cough sighs static
    beep blank_audio""".split()
)
_HEADER_BLOCKS = ("NOTE", "STYLE", "REGION")
_SETTING = re.compile(r"^[\w-]{1,30}\s*:")  # NOTE duration:"00:10:17" is no title

Block = list[tuple[int, str]]


def _blocks(lines: list[str]) -> list[Block]:
    """Runs of non-blank lines, each line with its 1-based number (a line of spaces right
    under a timing line is the cue's: YouTube writes one there)."""
    blocks: list[Block] = []
    current: Block = []
    for number, line in enumerate(lines, start=1):
        if line.strip() or (line and current and TIMING_LIKE.match(current[-1][1])):
            current.append((number, line))
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _cues(block: Block, skipped: Counter[str]) -> list[Block]:
    """The payload lines of each readable cue in a block (a block may hold several cues
    when a file lost its blank lines); unreadable ones are counted."""
    starts = [k for k, (_, line) in enumerate(block) if TIMING_LIKE.search(line)]
    if not starts:
        if all(_CUE_ID.match(line) for _, line in block):
            skipped["empty_cue"] += 1
        else:
            skipped["outside_cue"] += len(block)
        return []
    stray = block[: starts[0]]
    if stray and (_CUE_ID.match(stray[-1][1]) or _NAMED_ID.match(stray[-1][1])):
        stray = stray[:-1]
    if stray:
        skipped["outside_cue"] += len(stray)
    payloads = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(block)
        payload = block[start + 1 : end]
        if index + 1 < len(starts) and payload and _CUE_ID.match(payload[-1][1]):
            payload = payload[:-1]  # the next cue's id
        if not TIMING.match(block[start][1]):
            skipped["garbled_timing"] += 1
        elif not payload:
            skipped["empty_cue"] += 1
        else:
            payloads.append(payload)
    return payloads


def _plain(text: str) -> str:
    return " ".join(html.unescape(_TAG.sub("", text)).split())


@dataclass(frozen=True)
class _Names:
    """What the whole file says about who speaks: names written before a colon in two
    cues or more, names alone on the first line of most cues of several lines (Teams'
    older Word download), and whether every cue's `X: ` is its speaker (Zoom's are)."""

    prefixed: set[str]
    alone: set[str]
    trusted: bool


def _file_names(payloads: list[Block], source_format: str) -> _Names:
    firsts = [_LEADER.sub("", _plain(p[0][1])) for p in payloads]
    longer = [f for f, p in zip(firsts, payloads, strict=True) if len(p) > 1]
    alone = [f for f in longer if NAME_LINE.match(f)]
    bracketed = Counter(m["name"].strip() for f in firsts if (m := _BRACKETED.match(f)))
    return _Names(
        recurring_names(firsts) | {name for name, n in bracketed.items() if n >= 2},
        set(alone) if len(set(alone)) >= 2 and len(alone) >= len(longer) / 2 else set(),
        source_format == "zoom_vtt",
    )


def _sound(name: str) -> bool:
    """ "[PHONE RINGING]", "[Speaking Spanish]", "[inaudible]": a description, no one
    (a heuristic; a name in brackets before two cues or more is a speaker whatever it is)."""
    first = name.split()[0].lower() if name.split() else ""
    return (
        name.lower() in _SOUNDS
        or (name.isupper() and len(name.split()) > 1)
        or (len(first) >= 7 and first.endswith("ing"))
    )


def _named(text: str, names: _Names, opening: bool) -> tuple[str | None, str]:
    """A line of a cue: (the speaker it names, what was said). Inside a cue, a line
    names someone only with a caption's dash or chevrons, a `[Name]`, or a name the file
    writes before other cues too ("Right: ..." carries the sentence on)."""
    led = bool(_LEADER.match(text))
    text = _LEADER.sub("", text)
    bracketed = _BRACKETED.match(text)
    if bracketed:
        name = bracketed["name"].strip()
        if name in names.prefixed or (NAME_LINE.match(name) and not _sound(name)):
            return name, bracketed["text"]
    head, colon, rest = text.partition(": ")
    if opening and names.trusted and colon and 0 < len(head.split()) <= 6 and len(head) <= 60:
        return (None, text) if is_label(head) else (head.strip(), rest.strip())
    speaker, said = name_prefix(text, names.prefixed)
    if speaker is not None and not (opening or led or speaker in names.prefixed):
        return None, text
    return speaker, said


def _voices(joined: str) -> list[tuple[str | None, str]] | None:
    """Each voice's words in a cue; None when a voice tag is never closed."""
    found = list(VOICE.finditer(joined))
    if len(found) != len(_VOICE_OPEN.findall(joined)):
        return None
    before = _LEADER.sub("", joined[: found[0].start()].strip()) if found else ""
    pieces: list[tuple[str | None, str]] = [(None, before)] if before else []
    for index, voice in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(joined)
        pieces.append((voice["name"], _LEADER.sub("", joined[voice.end() : end].strip())))
    return pieces


def _lines(payload: Block, names: _Names, repeated: str) -> list[tuple[str | None, str]]:
    """A cue's lines as (speaker, words): a line naming someone starts their piece, the
    lines after it that name nobody carry it on. A first line that repeats the cue
    before's last (rolling captions) is said once; a name alone on the first line of a
    cue of several lines is its speaker."""
    texts = [_plain(line) for _, line in payload]
    if texts and texts[0] == repeated:
        texts = texts[1:]
    if len(texts) > 1 and texts[0] in names.alone:
        return [(texts[0], " ".join(texts[1:]))]
    pieces: list[tuple[str | None, str]] = []
    for text in texts:
        speaker, said = _named(text, names, opening=not pieces)
        if speaker is None and pieces:
            pieces[-1] = (pieces[-1][0], f"{pieces[-1][1]} {said}")
        else:
            pieces.append((speaker, said))
    return pieces


def _title(head: str, title: str | None) -> str | None:
    if head.startswith("WEBVTT"):
        found = head.removeprefix("WEBVTT").strip(" -:\t")
    elif head.startswith("NOTE"):
        found = head.removeprefix("NOTE").strip(" :")
    else:
        return title
    return title or (found if found and not _SETTING.match(found) else None)


def read_subtitles(text: str, source_format: str) -> Reading:
    """Cues to turns; `source_format` is what the file was detected as (teams_vtt, ...)."""
    skipped: Counter[str] = Counter()
    title: str | None = None
    payloads: list[Block] = []
    for block in _blocks(text.split("\n")):
        head = block[0][1].strip()
        timed = any(TIMING_LIKE.search(line) for _, line in block)
        if (head.startswith("WEBVTT") or head.startswith(_HEADER_BLOCKS)) and not timed:
            title = _title(head, title)
            continue
        payloads.extend(_cues(block, skipped))
    names = _file_names(payloads, source_format)
    said: list[Spoken] = []
    repeated = ""
    for payload in payloads:
        joined = " ".join(line.strip() for _, line in payload)
        if _VOICE_OPEN.search(joined):
            pieces = _voices(joined)
        else:
            pieces, repeated = _lines(payload, names, repeated), _plain(payload[-1][1])
        if pieces is None:
            skipped["unclosed_voice"] += 1
            continue
        first, last = payload[0][0], payload[-1][0]
        for speaker, words in pieces:
            body = _plain(words)
            if not body:
                skipped["empty_cue"] += 1
                continue
            if speaker is None and NOTICE.match(body):  # "Raj joined the meeting"
                continue
            # A cue that names nobody carries on the speaker before it.
            speaker = speaker or (said[-1].speaker if said else None)
            said.append(Spoken(speaker_name(speaker), body, first, last))
    return Reading(source_format, merge_runs(said), title=title, skipped=skipped)
