"""A Zoom meeting's saved chat.

Current form: `HH:MM:SS From Name to Everyone:` and the message on tab-indented lines.
Older form: one line, `HH:MM:SS\t From  Name : message` or `... From  Name  to  Everyone : ...`.
Direct and private messages are never stored, not even their text; reactions and the
"Replying to" quote are not speech; a note-taking bot's messages are left out (counted).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from memo_tui.core.capture.formats.base import Reading, Spoken, speaker_name

_FROM = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?\s+From\s+", re.I)
_TO = re.compile(r"\s+to\s+", re.I)
# The end of a direct message's head, whatever the sender's name holds.
_PRIVATE = re.compile(r"\((?:direct message|privately)\)\s*:", re.I)
MAX_HEAD = 200  # "From <sender> to <recipient>" is short; the message after it need not be
# Recipients that are the whole meeting (or a breakout room of it); anyone else is direct.
_EVERYONE = re.compile(
    r"^(?:everyone\b.*|all panelists(?: and attendees)?|hosts? and panelists|"
    r"waiting room participants|meeting group chat)$",
    re.I,
)
_REACTION = re.compile(r"^(?:reacted to\b.*\bwith\b|removed an? .{0,20}\breaction from\b)", re.I)
_REPLYING = re.compile(r'^replying to\s+["\u201c].*["\u201d]\s*:?\s*$', re.I)


@dataclass(frozen=True)
class Head:
    """A message's first line: who sent it, whether only to someone, and any words on
    the same line."""

    who: str
    direct: bool  # to someone, not to the meeting
    marked: bool  # and the export says so: "(Direct Message)", "(Privately)"
    said: str


def head(line: str) -> Head | None:
    """`HH:MM:SS From A to Everyone:` (the message on the lines below) or the older
    one-line `HH:MM:SS From  A : message`. Read left to right, no backtracking."""
    opened = _FROM.match(line)
    if opened is None:
        return None
    rest = line[opened.end() :]
    private = _PRIVATE.search(rest[: MAX_HEAD + 40])
    if private:  # a colon in a name must not let a direct message pass for a public one
        sender, said = rest[: private.start()], rest[private.end() :]
    elif rest.rstrip().endswith(":"):
        sender, said = rest.rstrip()[:-1], ""
    else:
        sender, colon, said = rest.partition(" : " if " : " in rest else ":")
        if not colon or (said and not said[:1].isspace() and colon == ":"):
            return None
    if len(sender) > MAX_HEAD:
        return None
    parts = _TO.split(sender.strip())
    who = " to ".join(parts[:-1]) if len(parts) > 1 else parts[0]
    direct = bool(private) or (len(parts) > 1 and not _EVERYONE.match(parts[-1].strip()))
    return Head(who.strip(), direct, bool(private), said.strip()) if who.strip() else None


def _said(lines: list[str]) -> str:
    """A message's words: reactions and the quoted line it replies to left out."""
    kept = []
    for index, line in enumerate(lines):
        if _REACTION.match(line) or (index == 0 and _REPLYING.match(line)):
            continue
        kept.append(line)
    return " ".join(" ".join(kept).split())


def messages(lines: list[str]) -> Iterator[tuple[int, Head | None, list[tuple[int, str]]]]:
    """Each message: the line number of its head, the head, and its lines (number, text);
    lines before the first head come with no head."""
    start, current = 0, None
    body: list[tuple[int, str]] = []
    for number, raw in enumerate(lines, start=1):
        opened = head(raw.rstrip())  # a head starts its line; message lines are indented
        if opened is not None:
            if current is not None or body:
                yield start, current, body
            start, current, body = number, opened, []
            if opened.said:
                body.append((number, opened.said))
        elif raw.strip():
            body.append((number, raw.strip()))
    if current is not None or body:
        yield start, current, body


def read_chat(text: str) -> Reading:
    """Messages to turns; direct messages counted and their lines withheld."""
    skipped: Counter[str] = Counter()
    withheld: list[tuple[int, int]] = []
    turns: list[Spoken] = []
    for start, opened, body in messages(text.split("\n")):
        last = body[-1][0] if body else start
        if opened is None:
            skipped["outside_message"] += len(body)
        elif opened.direct:
            skipped["direct_message"] += 1
            withheld.append((start, last))
        elif said := _said([line for _, line in body]):
            turns.append(Spoken(speaker_name(opened.who) or opened.who, said, start, last))
    return Reading("zoom_chat", turns, skipped=skipped, withheld=withheld)


MAX_DIRECT_LINES = 20  # of a direct message found outside a chat: its head and lines below


def direct_messages(text: str) -> list[tuple[int, int]]:
    """The lines of each direct message in text that was not read as a chat (a chat with
    its tabs lost, pasted into notes): a head the export marks as direct and the lines
    under it, up to an empty line or another head ("\t" lines are inside a message)."""
    lines = text.split("\n")
    spans = []
    for index, raw in enumerate(lines):
        opened = head(raw.rstrip())
        if opened is None or not opened.marked:
            continue
        end = index
        while (
            end + 1 < len(lines)
            and end - index < MAX_DIRECT_LINES
            and lines[end + 1] != ""
            and head(lines[end + 1].rstrip()) is None
        ):
            end += 1
        spans.append((index + 1, end + 1))
    return spans
