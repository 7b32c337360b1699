"""For a question after a value (a date, a sum, a number, a name, a person), the facts that
give one first: "when does the rollout start?" is answered by the line with its start date,
not by the one that only names the rollout.

Among the best few hits, each line an answer would show (`shown`) that is about the question
(a share of its words, weighted by how rare each is among the lines) and gives a value of the
kind asked moves ahead of those that do not, in their order. "Who …?" is answered by an action
item's owner or a decision's maker, when the question does not name them itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from memo_tui.core.capture.offline.text import content_words_and_parts, stem
from memo_tui.core.recall.extractive import rarity
from memo_tui.core.recall.filters import ASKS_WHO
from memo_tui.core.recall.gate import SPOKEN, asked_value, gives_value
from memo_tui.core.recall.search import Hit

REACH = 6  # how far down the hits a line that gives the value may come from
ABOUT_SHARE = 0.5  # of what the line holding most of the question holds, to be about it
_WHO = re.compile(r"\((?:owner|decided by):? ([^()]+)\)")


def answering_first(
    hits: list[Hit], question: str, shown: Sequence[str], people: Iterable[str] = ()
) -> list[Hit]:
    """The hits with those among the best `REACH` whose line gives the value asked first.
    `people`: the known people's names (and aliases); one a question asking who names is
    where it happened, not what it is about ("who ran the soak while Marta was away?")."""
    kind = "person" if ASKS_WHO.match(question) else asked_value(question)
    if kind is None or len(hits) < 2:
        return hits
    asked_words = {w.lower() for w in re.findall(r"[\w'-]+", question)}
    asked = content_words_and_parts(question)
    if kind == "person":
        known = {stem(w.lower()) for name in people for w in name.split()}
        asked = {w for w in asked if w not in known}
    lines = [
        SPOKEN.sub("", line) if hit.fact.fact_type == "excerpt" else line
        for hit, line in zip(hits[:REACH], shown, strict=False)
    ]
    said = [content_words_and_parts(line) for line in lines]
    weight = rarity(said, asked)

    def held(words: set[str]) -> float:
        return sum(weight.get(w, 0.0) for w in words & asked)

    best = max(map(held, said), default=0.0)

    def answers(hit: Hit, line: str, words: set[str]) -> bool:
        if not held(words) or held(words) < ABOUT_SHARE * best:
            return False
        if kind == "person":
            who = _WHO.search(hit.fact.text.splitlines()[0] if hit.fact.text else "")
            return who is not None and not {w.lower() for w in who.group(1).split()} & asked_words
        return gives_value(kind, line, asked_words)

    near = list(zip(hits[:REACH], lines, said, strict=False))
    lead = [hit for hit, line, words in near if answers(hit, line, words)]
    return lead + [h for h in hits if h not in lead]
