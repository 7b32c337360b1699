"""Who a meeting itself says a label or a name is, from who is spoken to and who answers.

A heuristic, in two forms:
- a speaker the export could not name ("Speaker 3") is the person the next speaker thanks
  or addresses right after them ("Thanks, Hannah."), when no speaker label is that name;
- a name someone is asked something by ("Shevonne, can you write that up?") that fits no
  one in the room is whoever answers straight away and takes it on ("Yeah, I'll do it"):
  a caption misspelt them.
Only answers that agree count: a label thanked under two names is left as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memo_tui.core.capture.formats.base import Turn, is_placeholder
from memo_tui.core.capture.sources import Transcript
from memo_tui.core.entities.names import similarity

_NAME = r"[A-Z\u00c0-\u024f][\w'\u2019-]+(?: [A-Z\u00c0-\u024f][\w'\u2019-]+)?"
_THANKED = re.compile(
    rf"^(?i:thanks|thank you|cheers|ta|nice one|great)[,!]?\s+(?P<name>{_NAME})\b"
)
_ASKED = re.compile(rf"^(?P<name>{_NAME}),\s+(?P<ask>.+)$")
_REQUEST = re.compile(r"\?|\b(?:can|could|would|will) you\b|\bplease\b", re.I)
_TAKES_IT = re.compile(
    r"^(?:yeah|yes|yep|sure|ok|okay|will do|on it|no problem|of course|i'll|i will|absolutely)\b",
    re.I,
)
# Words that open a sentence with a comma and are nobody's name.
_NOT_NAMES = frozenset(
    """okay ok right yeah yes no so well sure great good thanks thank fine cool hi hello
    morning look listen sorry hmm um uh also and but then now alright perfect awesome agreed
    exactly absolutely true maybe honestly basically actually anyway guys everyone folks
    team all""".split()
)


def _fits_anyone(name: str, labels: Sequence[str]) -> bool:
    return any(similarity(name, label) >= 0.5 for label in labels)


def taught_names(turns: Sequence[Turn], labels: Sequence[str]) -> dict[str, str]:
    """{label or misheard name: the name the meeting gives them}."""
    votes: dict[str, set[str]] = {}
    for turn, after in zip(turns, turns[1:], strict=False):
        if not turn.speaker or not after.speaker or turn.speaker == after.speaker:
            continue
        if is_placeholder(turn.speaker) and turn.speaker.lower() != "unknown speaker":
            thanked = _THANKED.match(after.text)
            name = thanked["name"] if thanked else None
            if name and name.lower() not in _NOT_NAMES and not _fits_anyone(name, labels):
                votes.setdefault(turn.speaker, set()).add(name)
        asked = _ASKED.match(turn.text)
        if (
            asked
            and asked["name"].lower() not in _NOT_NAMES
            and _REQUEST.search(asked["ask"])
            and _TAKES_IT.match(after.text)
            and not is_placeholder(after.speaker)
            and not _fits_anyone(asked["name"], labels)
        ):
            votes.setdefault(asked["name"], set()).add(after.speaker)
    return {said: next(iter(names)) for said, names in votes.items() if len(names) == 1}


def meeting_names(transcript: Transcript) -> dict[str, str]:
    """What a meeting says its labels and names mean: the short forms its roster gives
    ("Maggie Thornton (MT)"), and who was thanked or answered by name."""
    labels = [*transcript.speakers, *transcript.attendees]
    return transcript.known_as | taught_names(transcript.turns, labels)
