"""A Zoom meeting's saved chat.

Current form: `HH:MM:SS From Name to Everyone:` and the message on tab-indented lines.
Older form: one line, `HH:MM:SS\t From  Name : message` or `... From  Name  to  Everyone : ...`.
Direct and private messages are never stored, not even their text; reactions and the
"Replying to" quote are not speech; a note-taking bot's messages are left out (counted).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from memo_tui.core.capture.formats.base import Reading, Spoken, speaker_name

_FROM = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?\s+From\s+", re.I)
_TO = re.compile(r"\s+to\s+", re.I)
MAX_HEAD = 200  # "From <sender> to <recipient>" is short; the message after it need not be
# Recipients that are the whole meeting; anyone else is a direct message.
_EVERYONE = re.compile(
    r"^(?:everyone|everyone \(in waiting room\)|all panelists|all panelists and attendees|"
    r"hosts? and panelists|waiting room participants|meeting group chat)$",
    re.I,
)
_REACTION = re.compile(r"^(?:reacted to\b.*\bwith\b|removed an? .{0,20}\breaction from\b)", re.I)
_REPLYING = re.compile(r'^replying to\s+["\u201c].*["\u201d]\s*:?\s*$', re.I)


@dataclass(frozen=True)
class Head:
    """A message's first line: who sent it, to whom, and any words on the same line."""

    who: str
    to: str | None
    said: str


def head(line: str) -> Head | None:
    """`HH:MM:SS From A to Everyone:` (the message below it) or the older one-line
    `HH:MM:SS From  A : message`; read left to right, no backtracking."""
    opened = _FROM.match(line)
    if opened is None:
        return None
    sender, colon, said = line[opened.end() :].partition(":")
    if not colon or len(sender) > MAX_HEAD or (said and not said[:1].isspace()):
        return None
    parts = _TO.split(sender.strip())
    who = " to ".join(parts[:-1]) if len(parts) > 1 else parts[0]
    to = parts[-1] if len(parts) > 1 else None
    return Head(who.strip(), to, said.strip()) if who.strip() else None


def _direct(to: str | None, who: str) -> bool:
    if to is None:
        return bool(re.search(r"\((?:direct message|privately)\)\s*$", who, re.I))
    return not _EVERYONE.match(to.strip())


def _said(lines: list[str]) -> str:
    """A message's words: reactions and the quoted line it replies to left out."""
    kept = []
    for index, line in enumerate(lines):
        if _REACTION.match(line) or (index == 0 and _REPLYING.match(line)):
            continue
        kept.append(line)
    return " ".join(" ".join(kept).split())


def read_chat(text: str) -> Reading:
    skipped: Counter[str] = Counter()
    withheld: list[tuple[int, int]] = []
    turns: list[Spoken] = []
    current: tuple[str, bool, int] | None = None  # sender, direct, first line
    body: list[tuple[int, str]] = []

    def close() -> None:
        if current is None:
            return
        sender, direct, first = current
        last = body[-1][0] if body else first
        if direct:
            skipped["direct_message"] += 1
            withheld.append((first, last))
            return
        said = _said([line for _, line in body])
        if said:
            turns.append(Spoken(sender, said, first, last))

    for number, raw in enumerate(text.split("\n"), start=1):
        opened = head(raw.rstrip())  # a head starts its line; message lines are indented
        if opened:
            close()
            who = opened.who
            current = (speaker_name(who) or who, _direct(opened.to, who), number)
            body = [(number, opened.said)] if opened.said else []
        elif current is not None and raw.strip():
            body.append((number, raw.strip()))
        elif current is None and raw.strip():
            skipped["outside_message"] += 1
    close()
    return Reading("zoom_chat", turns, skipped=skipped, withheld=withheld)
