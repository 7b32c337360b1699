"""Who in a transcript is not a participant: note-takers and AI assistants, by name or by
what they do. Their lines stay in the record as written, but they are nobody's words: not a
person, a decider or an owner, and no decision or task is taken from them.

A heuristic, by behaviour: a sender who never says anything in the meeting, only posts a
recap ("Summary:", "Key points:") or "Decision:" / "Action:" lines, and is not on the
meeting's roster, is a tool (a bot a meeting app lets post under any name).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from memo_tui.core.capture.formats.base import Turn, is_bot
from memo_tui.core.capture.untrusted import forged

_POSTED = re.compile(
    r"^\W*(?:decisions?|decided|agreed|action(?: items?)?|actions|to-?dos?|next steps?|"
    r"follow[- ]?ups?|summary|recap|key (?:points|takeaways|decisions)|takeaways|highlights|"
    r"notes|meeting notes|tl;?dr|outline|chapters?)\b[^:\n]{0,30}:",
    re.I,
)


def bots(turns: Sequence[Turn], roster: Sequence[str]) -> frozenset[str]:
    """The speakers that are tools: named as one, or only ever posting recaps and
    "Decision:" / "Action:" lines without being on the roster (and labels disguised with
    terminal controls: nobody to take for a person either)."""
    said: dict[str, list[str]] = defaultdict(list)
    for turn in turns:
        if turn.speaker:
            said[turn.speaker].append(turn.text)
    listed = {" ".join(name.casefold().split()) for name in roster}
    return frozenset(
        speaker
        for speaker, texts in said.items()
        if is_bot(speaker)
        or forged(speaker)  # a name made to show as another on screen
        or (
            all(_POSTED.match(text) for text in texts)
            and " ".join(speaker.casefold().split()) not in listed
        )
    )
