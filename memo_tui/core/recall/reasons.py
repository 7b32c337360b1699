"""Why was it decided? The reason, read from around the decision.

A why-question finds the decision by its words ("why did 4.2 go out without in-app
messaging?" finds "we ship 4.2 with in-app chat switched off"), but the reason is said in
other words, and often a few turns away ("in-app chat crashes on Android 12 when you rotate
the phone"). Search ranks such a turn low: it shares few words with the question. So for a
why-question the turns around the leading decisions are read, and the one that best gives a
reason is put right after its decision, cited by its own line.

A turn gives a reason by its words (a heuristic, named as such: "because", "the problem
is", "otherwise", "too slow", a cost or a failure), by being about what was decided (the
question's and the decision's words, weighted by how rare each is among the turns read), and
by being near it (before it more than after: people argue, then decide).
"""

from __future__ import annotations

import re
from dataclasses import replace

from memo_tui.core.capture.offline.text import content_words
from memo_tui.core.recall.current import Change, what_was_decided
from memo_tui.core.recall.grounds import AFTER, BEFORE, best_reason
from memo_tui.core.recall.search import Hit
from store import FactRecord, Store

# "why" where a question asks it ("why …", "remind me why …", "back in March, why
# couldn't …"), or what moved or ended a plan ("what made us …", "what killed the plan …").
ASKS_WHY = re.compile(
    r"(?:^|[,;:]|\b(?:me|us|explain|know|remember|wonder))\s*(?:why|how come)\b"
    r"|\breason(?:s|ing)?\b|\brationale\b"
    r"|\bwhat (?:made|led|drove|pushed|prompted) (?:us|them|you|me|him|her|the \w+)\b"
    r"|\bwhat (?:killed|sank|scuppered|stopped) (?:the|our|their) (?:plan|idea)\b",
    re.IGNORECASE,
)
LEADS = 3  # how many of the best hits may be the decision asked about
_TURN = re.compile(r"^\s*(?:-\s*)?([^:\n]{2,60}):\s+")
_NOTE = re.compile(r"^\s*(?:[-*#>|]|\d+[.)]\s|\[[ x]\])")  # a bullet, a heading, a box


class _Captures:
    """Each capture's lines (as line numbers count them) and the excerpt that holds each
    line, read once for a question however many of its facts are looked around."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lines: dict[int, list[str]] = {}
        self._holders: dict[int, dict[int, FactRecord]] = {}

    def lines(self, capture_id: int) -> list[str]:
        if capture_id not in self._lines:
            self._lines[capture_id] = self.store.captures.text(capture_id).split("\n")
        return self._lines[capture_id]

    def holders(self, capture_id: int) -> dict[int, FactRecord]:
        if capture_id not in self._holders:
            held: dict[int, FactRecord] = {}
            for e in self.store.facts.all(fact_type="excerpt", capture_id=capture_id):
                if e.line_start is not None and e.line_end is not None:
                    held.update(dict.fromkeys(range(e.line_start, e.line_end + 1), e))
            self._holders[capture_id] = held
        return self._holders[capture_id]


def _turns(
    captures: _Captures, decision: FactRecord
) -> tuple[list[tuple[int, str, FactRecord]], int]:
    """The lines around `decision` in its capture's text, in order (line number, text, the
    excerpt that holds it, to cite), and which of them is its own turn (-1: none is)."""
    assert decision.capture_id is not None and decision.line_start is not None
    low, high = decision.line_start - BEFORE, (decision.line_end or decision.line_start) + AFTER
    text, holders = captures.lines(decision.capture_id), captures.holders(decision.capture_id)
    turns = [
        (number, text[number - 1], holders[number])
        for number in range(max(low, 1), min(high, len(text)) + 1)
        if number in holders and text[number - 1].strip()
    ]
    # Its lines reach from its reason to the call when the reason came first: the call is
    # the turn among them that says most of what was decided.
    said = content_words(what_was_decided(decision.text))
    last = decision.line_end or decision.line_start
    own = [i for i, (n, _, _) in enumerate(turns) if decision.line_start <= n <= last]
    if not own:
        return turns, -1
    return turns, max(own, key=lambda i: (len(said & content_words(turns[i][1])), -i))


def _best_reason(captures: _Captures, decision: FactRecord, asked: set[str]) -> Hit | None:
    """The turn around `decision` that best gives its reason, as a hit on that one line."""
    turns, own = _turns(captures, decision)
    if own < 0:
        return None
    # what each turn says, without its speaker; a line of notes is no turn of talk
    spoken = ["" if _NOTE.match(line) else _TURN.sub("", line) for _, line, _ in turns]
    decided = what_was_decided(decision.text)
    found = best_reason(spoken, own, asked | content_words(decided), decision.text)
    if found is None:
        return None
    number, line, excerpt = turns[found.turn]
    speaker = _TURN.match(line)
    said = (speaker.group() if speaker else "") + found.text
    line_only = replace(excerpt, text=said, line_start=number, line_end=number)
    return Hit(line_only, 0.0, None, None, None)


def _anchor(captures: _Captures, fact: FactRecord, shown: str) -> FactRecord | None:
    """What a reason would be for: a decision or an action item, or the line of an excerpt
    the answer shows (`shown`); None for a fact with no line to read around."""
    if fact.capture_id is None or fact.line_start is None or fact.line_end is None:
        return None
    if fact.fact_type in ("decision", "action_item"):
        return fact
    if fact.fact_type != "excerpt":
        return None
    text = captures.lines(fact.capture_id)
    words = content_words(shown)
    for number in range(fact.line_start, min(fact.line_end, len(text)) + 1):
        if words and words <= content_words(text[number - 1]):
            return replace(fact, text=text[number - 1], line_start=number, line_end=number)
    return None


def with_reasons(
    store: Store,
    hits: list[Hit],
    changes: list[Change],
    question: str,
    shown: dict[int, str] | None = None,
) -> tuple[list[Hit], list[Change]]:
    """For a why-question, the hits with the turn that best gives the reason for the first
    leading fact that has one put right after it, and the changes renumbered to match.
    `shown`: the line an answer shows of each hit, by fact key (an excerpt's reason is
    looked for around that line)."""
    if not ASKS_WHY.search(question):
        return hits, changes
    asked = content_words(question)
    replaced = {change.old for change in changes}
    captures = _Captures(store)
    for at, lead in enumerate(hits[:LEADS]):
        said = (shown or {}).get(lead.fact.fact_key, lead.fact.text)
        fact = _anchor(captures, lead.fact, said)
        if fact is None or at in replaced:
            continue
        found = _best_reason(captures, fact, asked)
        if found is not None:
            return _inserted(hits, changes, at + 1, found)
    return hits, changes


def _inserted(
    hits: list[Hit], changes: list[Change], at: int, reason: Hit
) -> tuple[list[Hit], list[Change]]:
    """`reason` put at `at`, the whole excerpt it comes from taken out (a hit shows one
    line of it anyway), the last hit let go to make room when it is not part of a change
    (an answer is given about as many facts as search found), and the changes' positions
    moved to match."""
    linked = {n for c in changes for n in (c.new, c.old)}
    kept = [
        (i, hit)
        for i, hit in enumerate(hits)
        if i == at - 1 or i in linked or hit.fact.fact_key != reason.fact.fact_key
    ]
    if len(kept) == len(hits) and len(hits) > at and kept[-1][0] not in linked:
        kept.pop()  # room for the reason
    moved: dict[int, int] = {}
    out: list[Hit] = []
    for i, hit in kept:
        moved[i] = len(out)
        out.append(hit)
        if i == at - 1:
            out.append(reason)
    return out, [Change(moved[c.new], moved[c.old]) for c in changes]
