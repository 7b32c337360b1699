"""WebVTT (Teams, Zoom, any other tool) and SubRip, read cue by cue.

A cue is an optional id, a timing line and its text. Teams writes `<v Full Name>text</v>`
(sometimes without the `</v>`), Zoom `Display Name: text`, SubRip exports `[Full Name] text`
or `Name: text`; a cue that names nobody carries on the speaker before it. A cue that
cannot be read (a garbled timing line, no text, a voice tag never closed) is skipped and
counted, never stored half-read.
"""

from __future__ import annotations

import html
import re
from collections import Counter

from memo_tui.core.capture.formats.base import (
    CUE_ID_GUID,
    Reading,
    Spoken,
    merge_runs,
    speaker_name,
)
from memo_tui.core.capture.formats.names import NAME_LINE, name_prefix, recurring_names

_STAMP = r"(?:\d{1,3}:)?\d{1,2}:\d{2}[.,]\d{1,3}"
TIMING = re.compile(rf"^\s*{_STAMP}\s*-->\s*{_STAMP}(?:\s+\S.*)?$")
# A line that means to be a timing line: an arrow, or two times with a dash between.
TIMING_LIKE = re.compile(r"-->|^\s*\d{1,3}:[\d:.,]{2,}\s*-+>?\s*\d{1,3}:")
_CUE_ID = re.compile(rf"^\s*(?:\d+|{CUE_ID_GUID.pattern})\s*$", re.I)
_VOICE = re.compile(r"<v(?:\.[\w.-]{1,40})?[ \t]+(?P<name>[^<>\n]{1,80})>")
_VOICE_OPEN = re.compile(r"<v[\s.]", re.I)
_TAG = re.compile(r"</?[a-z][\w.-]{0,20}(?:[ \t][^<>\n]{0,200})?>|<\d{1,2}:[\d:.]+>", re.I)
_BRACKETED = re.compile(r"^\[(?P<name>[^\[\]\n]{1,60})\]\s*(?P<text>.*)$")
_LEADER = re.compile(r"^(?:>>|-)\s*")  # ">> Name: text" in broadcast captions
# Bracketed sound descriptions, not speakers: [inaudible] we should...
_SOUNDS = frozenset(
    """inaudible crosstalk laughter laughs laughing music applause silence noise pause
    background unintelligible overlapping indistinct foreign coughs cough sighs static
    beep silence blank_audio no audio""".split()
)
_HEADER_BLOCKS = ("NOTE", "STYLE", "REGION")


def _blocks(lines: list[str]) -> list[list[tuple[int, str]]]:
    """Runs of non-blank lines, each line with its 1-based number."""
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            current.append((number, line))
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _cues(block: list[tuple[int, str]], skipped: Counter[str]) -> list[list[tuple[int, str]]]:
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
    if stray and _CUE_ID.match(stray[-1][1]):
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


def _named(text: str, speakers: set[str]) -> tuple[str | None, str]:
    """A cue's text without voice tags: (speaker it names, what was said)."""
    text = _LEADER.sub("", text)
    bracketed = _BRACKETED.match(text)
    if bracketed and bracketed["name"].strip().lower() not in _SOUNDS:
        name = bracketed["name"].strip()
        if NAME_LINE.match(name) or name in speakers:
            return name, bracketed["text"]
    return name_prefix(text, speakers)


def _voices(joined: str) -> list[tuple[str | None, str]] | None:
    """Each voice's words in a cue; None when a voice tag is never closed."""
    found = list(_VOICE.finditer(joined))
    if len(found) != len(_VOICE_OPEN.findall(joined)):
        return None
    if not found:
        return [(None, joined)]
    pieces: list[tuple[str | None, str]] = []
    before = joined[: found[0].start()].strip()
    if before:
        pieces.append((None, before))
    for index, voice in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(joined)
        pieces.append((voice["name"], joined[voice.end() : end]))
    return pieces


def read_subtitles(text: str, source_format: str) -> Reading:
    """Cues to turns; `source_format` is what the file was detected as (teams_vtt, ...)."""
    skipped: Counter[str] = Counter()
    title: str | None = None
    payloads: list[list[tuple[int, str]]] = []
    for block in _blocks(text.split("\n")):
        head = block[0][1].strip()
        if head.startswith("WEBVTT") and not any(TIMING_LIKE.search(t) for _, t in block):
            title = head.removeprefix("WEBVTT").strip(" -:\t") or title
            continue
        if head.startswith(_HEADER_BLOCKS) and not any(TIMING_LIKE.search(t) for _, t in block):
            if head.startswith("NOTE") and title is None:
                title = head.removeprefix("NOTE").strip(" :") or None
            continue
        payloads.extend(_cues(block, skipped))
    speakers = recurring_names(_LEADER.sub("", _TAG.sub("", p[0][1]).strip()) for p in payloads)
    said: list[Spoken] = []
    for payload in payloads:
        joined = " ".join(line.strip() for _, line in payload)
        pieces = _voices(joined)
        if pieces is None:
            skipped["unclosed_voice"] += 1
            continue
        first, last = payload[0][0], payload[-1][0]
        for voice, words in pieces:
            speaker, body = (voice, words) if voice else _named(_plain(words), speakers)
            body = _plain(body)
            if not body:
                skipped["empty_cue"] += 1
                continue
            # A cue that names nobody carries on the speaker before it.
            speaker = speaker or (said[-1].speaker if said else None)
            said.append(Spoken(speaker_name(speaker), body, first, last))
    return Reading(source_format, merge_runs(said), title=title, skipped=skipped)
