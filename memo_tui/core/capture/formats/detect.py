"""Which format a file is in, read from its content; the extension is only a hint.

Each test looks for the scaffolding only that tool writes (a `WEBVTT` header and timing
lines, `From X to Everyone:` heads, `Name  0:04` headers, a "- Transcript" title with
`HH:MM:SS` markers) and needs it on a good share of the file, so one stray line of a
meeting's notes does not turn them into a transcript.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memo_tui.core.capture.formats.base import CUE_ID_GUID, TIMING
from memo_tui.core.capture.formats.chat import head as chat_head
from memo_tui.core.capture.formats.meet import CLOSING, MARKER, MAX_TITLE, is_heading
from memo_tui.core.capture.formats.meet import TITLE as MEET_TITLE
from memo_tui.core.capture.formats.names import TS_PREFIX, split_speaker
from memo_tui.core.capture.formats.otter import FOOTER, headed_kind, headers
from memo_tui.core.capture.formats.subtitles import TIMING_LIKE, VOICE

_MARKDOWN = re.compile(r"^(?:#{1,6}\s+\S|\s*[-*+]\s+\[[ xX]\]\s|\*\*[^*\n]{1,40}:\*\*)")


def _vtt_kind(lines: list[str]) -> str:
    """Teams writes `GUID/N-M` cue ids and `<v Name>` voices (older exports had no ids);
    Zoom cues whose text starts `Name: `, numbered. Any other WebVTT is just that."""
    ids = [lines[i - 1].strip() for i, line in enumerate(lines) if i and TIMING.match(line)]
    texts = [lines[i + 1] for i, line in enumerate(lines[:-1]) if TIMING.match(line)]
    half = max(1, len(texts) // 2)
    voices = sum(bool(VOICE.search(text)) for text in texts)
    named = sum(
        split_speaker(t)[0] is not None or ":" in t[:60] for t in texts if not VOICE.search(t)
    )
    if sum(bool(CUE_ID_GUID.fullmatch(i)) for i in ids) >= half:
        return "teams_vtt"
    if voices >= half and named < len(texts) / 4:
        return "teams_vtt"
    if named >= half and not voices:
        return "zoom_vtt"
    return "webvtt"


def _cue_share(lines: list[str]) -> float:
    """How much of the text's non-blank lines sit in blocks that hold a timing line."""
    in_cues = filled = 0
    block: list[str] = []
    for line in [*lines, ""]:
        if line.strip():
            block.append(line)
            continue
        filled += len(block)
        in_cues += len(block) if any(TIMING_LIKE.search(b) for b in block) else 0
        block = []
    return in_cues / filled if filled else 0.0


def _subtitle_kind(lines: list[str], hint: str) -> str | None:
    """A subtitle format, when the file starts `WEBVTT` or its cues make up most of it
    and most of its timing lines are real ones (notes that quote a cue, or a schedule of
    "9:00 -> 10:00" lines, are notes)."""
    first = next((line.strip() for line in lines if line.strip()), "")
    if first.startswith("WEBVTT"):
        return _vtt_kind(lines)
    timings = sum(bool(TIMING_LIKE.search(line)) for line in lines)
    good = [line for line in lines if TIMING.match(line)]
    share = _cue_share(lines)
    least = 1 if hint in ("vtt", "srt") or share >= 0.9 else 2
    if len(good) < least or len(good) < timings / 2 or share < (0.9 if hint == "md" else 0.6):
        return None
    commas = sum("," in line.split("-->")[0] for line in good)
    if hint == "srt" or commas >= len(good) / 2:
        return "srt"
    return _vtt_kind(lines)


def _share(
    lines: list[str], test: Callable[[str], object], least: int = 2, share: float = 0.3
) -> bool:
    hits = sum(1 for line in lines if test(line))
    return hits >= least and hits >= share * len(lines)


def _is_chat(lines: list[str]) -> bool:
    """A saved chat starts with a message's head, and heads are a good share of the lines
    that are not indented (a message's own lines are)."""
    unindented = [line.rstrip() for line in lines if line.strip() and not line[:1].isspace()]
    return bool(unindented and chat_head(unindented[0])) and _share(
        unindented, chat_head, least=1, share=0.3
    )


def _is_meet(filled: list[str]) -> bool:
    """A Meet doc: `HH:MM:SS` markers under its "- Transcript" title or a "Transcript"
    heading, or above its closing notes; an older one without markers has both its title
    and its closing note."""
    titled = any(len(line) <= MAX_TITLE and MEET_TITLE.match(line) for line in filled[:3])
    headed = titled or any(is_heading(line) for line in filled)
    closed = any(CLOSING.search(line) for line in filled[-4:])
    marked = any(MARKER.match(line) for line in filled)
    return ((headed or closed) and marked) or (titled and closed)


def _is_headed(lines: list[str], filled: list[str]) -> bool:
    """Turns under `Name  0:04` headers make up most of the text (an agenda with times
    has no words under its lines); one turn will do when the file starts with it."""
    opened = headers(lines)
    spoken = 2 * len(opened)  # a header and (at least) a line of words
    footer = any(FOOTER.match(line) for line in filled[-3:])
    first = next((index for index, line in enumerate(lines) if line.strip()), -1)
    least = 1 if first in opened else 2
    return len(opened) >= least and (spoken >= 0.5 * len(filled) or footer)


def _is_timestamped(filled: list[str]) -> bool:
    """Most lines open with a time, and most of those then name a speaker (a log or an
    agenda with times is notes)."""
    timed = [TS_PREFIX.sub("", line, count=1) for line in filled if TS_PREFIX.match(line)]
    named = sum(1 for rest in timed if split_speaker(rest)[0])
    return len(timed) >= 3 and len(timed) >= 0.5 * len(filled) and named >= 0.5 * len(timed)


def detect(text: str, hint: str = "") -> str:
    """The format name of `text` (teams_vtt, zoom_vtt, webvtt, srt, zoom_chat,
    google_meet_txt, otter_txt, zoom_cc_txt, timestamped_txt, markdown_notes or
    plain_txt)."""
    lines = text.split("\n")
    subtitle = _subtitle_kind(lines, hint)
    if subtitle:
        return subtitle
    if _is_chat(lines):
        return "zoom_chat"
    filled = [line.strip() for line in lines if line.strip()]
    if _is_meet(filled):
        return "google_meet_txt"
    if _is_headed(lines, filled):
        return headed_kind(lines)
    if _is_timestamped(filled[3:] if len(filled) > 6 else filled):
        return "timestamped_txt"
    if hint == "md" or _share(filled, _MARKDOWN.match, least=2, share=0.05):
        return "markdown_notes"
    return "plain_txt"
