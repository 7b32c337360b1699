"""Written notes: `Decisions` / `Action items` sections and `Agreed:` / `Next steps:` labels."""

from __future__ import annotations

import re

from memo_tui.core.capture.sources import Turn

_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s*|\*\*|__)?(?P<h>[A-Za-z][\w /&'-]{1,40}?)(?:\*\*|__)?\s*:?\s*$"
)
_MAX_HEADING = 80
_BULLET = re.compile(r"^\s*(?:[-*+\u2022]|\d+[.)])\s+")
_DECISION_HEADING = re.compile(
    r"\b(?:decisions?|decided|agreed|agreements?|resolutions?|outcomes?)\b", re.I
)
_ACTION_HEADING = re.compile(
    r"\b(?:action items?|actions|next steps|to-?dos?|follow[- ]?ups?|tasks|owners|assignments)\b",
    re.I,
)
DECISION_LABEL = re.compile(
    r"^\s*(?:[-*+]\s*)?(?:decision|decided|agreed|resolved|final call)\s*"
    r"(?:\((?P<by>[^)]{1,40})\))?\s*:\s*",
    re.I,
)
ACTION_LABEL = re.compile(
    r"^\s*(?:[-*+]\s*)?(?:action(?: item)?|todo|to do|to-do|next steps?|follow[- ]?up|ai)\s*:\s*",
    re.I,
)


def section_kinds(lines: list[str]) -> dict[int, str]:
    """Line number -> "decision" or "action" for bullet lines under such a heading."""
    kinds: dict[int, str] = {}
    current: str | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        heading = _HEADING.match(line) if len(line) <= _MAX_HEADING else None
        is_heading = line.lstrip().startswith("#") or (heading and not _BULLET.match(line))
        if is_heading and heading:
            title = heading["h"]
            if _ACTION_HEADING.search(title):
                current = "action"
            elif _DECISION_HEADING.search(title):
                current = "decision"
            else:
                current = None
            continue
        if line.lstrip().startswith("#"):
            current = None
            continue
        if current and (_BULLET.match(line) or line.startswith(("  ", "\t"))):
            kinds[number] = current
    return kinds


def strip_bullet(text: str) -> tuple[str, bool | None]:
    """Bullet text without its marker; the checkbox state when there is one."""
    text = _BULLET.sub("", text, count=1)
    box = re.match(r"^\[(?P<mark>[ xX])\]\s*", text)
    if box:
        return text[box.end() :], box["mark"].lower() == "x"
    return text, None


def labelled(turn: Turn) -> str | None:
    """ "decision" or "action" when a line starts with such a label."""
    if DECISION_LABEL.match(turn.text):
        return "decision"
    if ACTION_LABEL.match(turn.text):
        return "action"
    return None


_STRUCK = re.compile(r"^\s*~~(?P<struck>[^~]+?)~~")
_SEE = re.compile(r"\bsee (?:item |point |no\.? ?|#)?(?P<n>\d{1,2})\b", re.I)
_NUMBER = re.compile(r"^\s*(?P<n>\d{1,2})[.)]\s+")


def struck(text: str) -> str | None:
    """The words a note strikes through at its start ("~~Two sessions~~ — reversed, see
    4"): a call or a task that no longer holds, as Markdown writers mark one."""
    found = _STRUCK.match(text)
    return found["struck"].strip() if found else None


def see_also(text: str) -> int | None:
    """The list item a note points to ("see 4")."""
    found = _SEE.search(text)
    return int(found["n"]) if found else None


def numbered(text: str) -> int | None:
    """A numbered list item's number ("4. Single session")."""
    found = _NUMBER.match(text)
    return int(found["n"]) if found else None
