"""The offline answer: the line each fact shows (an excerpt by its best turn), the order an
answer tells them in (by that line, what reports it done first, what holds now first), and
the answer written from them, each cited."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from memo_tui.core.capture.offline.text import content_words
from memo_tui.core.history.closing import DONE, NOT_DONE, TICKED
from memo_tui.core.recall.current import Change
from memo_tui.core.recall.gate import Relevance
from memo_tui.core.recall.listing import Listing
from memo_tui.core.recall.members import Membership
from memo_tui.core.recall.search import (
    Hit,
)
from memo_tui.core.words import plural

QUOTE_CHARS = 300


# "(owner: Tom) (due 2026-11-30) (done)" at the end of a fact's text: kept when it is cut.
_LABELS = re.compile(r"(?:\s\([^()]{1,80}\))+$")


def quoted(text: str, limit: int = QUOTE_CHARS) -> str:
    """A fact's first line for an answer: when long, cut at a word and marked as cut,
    keeping the labels at its end (owner, due date, done)."""
    first = text.splitlines()[0] if text else ""
    if len(first) <= limit:
        return first
    labels = _LABELS.search(first)
    tail = labels.group() if labels and len(labels.group()) <= limit // 2 else ""
    body = first[: len(first) - len(tail)][: limit - len(tail)]
    return body.rsplit(" ", 1)[0].rstrip(" ,;:-\u2014") + " \u2026" + tail


# An action item asked for and turned down ends "(dropped)" in the facts; an answer says why.
_DROPPED = re.compile(r" \(dropped\)(?=$| \()")


_DONE_LABEL = re.compile(r" \(done\)(?=$| \()")


SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


_TURN = re.compile(r"^([^:\n]{2,60}):\s+(.*)$")


def rarity(said: list[set[str]], asked: set[str]) -> dict[str, float]:
    """Each asked word's weight: the rarer among `said` (lines' words), the heavier."""
    df: dict[str, int] = {}
    for words in said:
        for word in words & asked:
            df[word] = df.get(word, 0) + 1
    return {w: math.log((len(said) + 1) / (n + 0.5)) for w, n in df.items()}


def focused(hits: list[Hit], question: str) -> list[str]:
    """Each hit's text as an answer shows it: an excerpt (a window of several turns) by its
    turn that holds most of the question's words, weighted by how rare each is among the
    hits' lines, and a long turn by its best sentence; other facts, and an excerpt that
    holds none of the words, by their first line."""
    asked = content_words(question)
    lines = [[(line, content_words(line)) for line in h.fact.text.splitlines()] for h in hits]
    weight = rarity([words for fact in lines for _, words in fact], asked)

    def held(words: set[str]) -> float:
        return sum(weight.get(w, 0.0) for w in words & asked)

    shown = []
    for hit, fact in zip(hits, lines, strict=True):
        first = hit.fact.text.splitlines()[0] if hit.fact.text else ""
        if hit.fact.fact_type != "excerpt" or not fact:
            shown.append(first)
            continue
        line, words = max(fact, key=lambda pair: held(pair[1]))
        if held(words) == 0:
            shown.append(first)
            continue
        turn = _TURN.match(line)
        speaker, said = (turn.group(1) + ": ", turn.group(2)) if turn else ("", line)
        if len(line) > QUOTE_CHARS:
            said = max(SENTENCE_END.split(said), key=lambda part: held(content_words(part)))
        shown.append(speaker + said)
    return shown


# How much the line an answer would quote counts against search's own rank (0: not at all).
# Measured with `memo bench ask` on the dev set and held-out sets: 0.3-0.6 gain, 1.0 costs.
LINE_WEIGHT = 0.5


def by_best_line(hits: list[Hit], question: str, shown: list[str] | None = None) -> list[Hit]:
    """The hits re-ranked by what they would show (`shown`, as `focused` gives it): search
    ranks a whole excerpt (six turns), while the answer quotes one turn; a hit whose quoted
    line holds more of the question's words (weighted by how rare each is among those lines)
    moves up, by at most about half the list for a line that holds them all."""
    if len(hits) < 2:
        return hits
    asked = content_words(question)
    lines = [content_words(text) for text in shown or focused(hits, question)]
    weight = rarity(lines, asked)
    mass = sum(weight.values()) or 1.0
    count = len(hits)

    def score(rank: int, words: set[str]) -> float:
        held = sum(weight.get(w, 0.0) for w in words & asked) / mass
        return (count - rank) / count + LINE_WEIGHT * held

    order = sorted(range(count), key=lambda i: (-score(i, lines[i]), i))
    return [hits[i] for i in order]


# "Did Fiona ever send the docs?", "Is the migration finished?": asks whether it happened.
ASKS_IF_DONE = re.compile(r"^\s*(?:did|has|have|had|is|are|was|were)\b", re.IGNORECASE)


def reported_first(hits: list[Hit], question: str, shown: list[str] | None = None) -> list[Hit]:
    """For a question whether something happened, the hits whose line about it (`shown`, as
    `focused` gives it) reports it done ("thanks for sending the API docs", "the migration
    was finished on the 9th", a ticked line) first, in their order; the rest as ranked."""
    if not ASKS_IF_DONE.search(question):
        return hits
    asked = content_words(question)
    lines = shown or focused(hits, question)
    lead = [hit for hit, line in zip(hits, lines, strict=True) if _reports_done(line, asked)]
    return lead + [h for h in hits if h not in lead]


def _reports_done(line: str, asked: set[str]) -> bool:
    """Whether a line reports done something the question asks about: ticked, or a sentence
    with one of its words and a word of doing it ("sent", "finished"), not of not yet."""
    if TICKED.match(line) or _DONE_LABEL.search(line):
        return bool(asked & content_words(line))
    return any(
        asked & content_words(sentence) and DONE.search(sentence) and not NOT_DONE.search(sentence)
        for sentence in SENTENCE_END.split(line)
    )


# How much of the question (by rarity-weighted words) a line must hold to answer "did it
# happen?" with yes. Not tuned: a clear majority, so "ship" alone never answers "ship RFID".
YES_SHARE = 0.6


def reported_yes(question: str, shown: Sequence[str], most: int) -> int | None:
    """For "did it happen?", the first of the `most` lines an answer shows that reports it
    done and holds most of what is asked, each word weighted by how rare it is among the
    lines ("docs" outweighs "StockPilot" in "Did Fiona send the StockPilot API docs?"): its
    citation number. None when none does; the answer then claims nothing either way."""
    if not ASKS_IF_DONE.search(question):
        return None
    asked = content_words(question)
    said = [content_words(line) for line in shown]
    weight = rarity(said, asked)
    if not weight:
        return None
    mass = sum(weight.values())
    for n, (line, words) in enumerate(zip(shown[:most], said, strict=False), 1):
        held = sum(weight[w] for w in words & weight.keys())
        if held >= YES_SHARE * mass and _reports_done(line, asked):
            return n
    return None


MOST = 3  # facts an offline answer quotes
UNCONFIRMED = " (unconfirmed)"  # how the facts view marks a proposed item's text


def extractive_answer(
    hits: list[Hit],
    most: int = MOST,
    relevance: Relevance | None = None,
    changes: Sequence[Change] = (),
    question: str = "",
    member: Membership | None = None,
    listing: Listing | None = None,
) -> str:
    """The offline answer: the strongest facts, each with its citation. A replaced decision is
    told after the one that holds now ("changed on <date>; before: … [n]"), not on its own
    line. When the gate found no record, it says so first and offers the facts as the
    closest, not as the answer; when more facts matched than are shown, it says how many.
    Asked whether someone is in a group (`member`), it says whether the line listing the
    group's people names them. For a listing question (`listing`), what it leaves out is
    counted in the store, not among the hits ("(6 more action items for Tom Ferreira)"),
    only what it lists is quoted, and the items memo is sure of come before the unconfirmed
    ones."""
    before: dict[int, list[int]] = {}
    for change in changes:
        before.setdefault(change.new, []).append(change.old)
    replaced = {change.old for change in changes}
    texts = focused(hits, question)
    lines: list[str] = []
    shown: set[int] = set()
    order = list(enumerate(hits, 1))
    if listing is not None:  # what someone owes: the items memo is sure of first
        order.sort(key=lambda found: UNCONFIRMED in found[1].fact.text)
    for n, hit in order:
        if n - 1 in replaced or (listing and hit.fact.fact_key not in listing.keys):
            continue  # told with what replaced it; not of the list asked for
        if len(lines) == most:
            break
        line = f"- {_DROPPED.sub(' (dropped: turned down)', quoted(texts[n - 1]))} [{n}]"
        olds = before.get(n - 1, [])
        if olds:
            when = hit.fact.occurred_at or hit.fact.captured_at[:10]
            was = "; ".join(f"{quoted(hits[i].fact.text, 120)} [{i + 1}]" for i in olds)
            line += f" (changed on {when}; before: {was})"
        lines.append(line)
        shown |= {n - 1, *olds}
    yes = reported_yes(question, texts, most)
    listed = member.said([(n + 1, texts[n]) for n in sorted(shown)]) if member else ""
    if relevance is not None and not relevance.answered:
        head = f"{relevance.no_record()}. Closest, not answering it:"
    elif yes is not None:
        head = f"Yes, reported done [{yes}]. From your meetings:"
    elif listed:
        head = f"{listed} From your meetings:"
    else:
        head = "From your meetings:"
    if listing is not None:
        left = listing.more([hits[n].fact for n in shown])
        more = [f"({listing.said(left, 'more ')})"] if left else []
    else:
        more = _more(hits, shown)
    return "\n".join([head, *lines, *more])


def _more(hits: list[Hit], shown: set[int]) -> list[str]:
    """How many more facts matched than are shown, by kind: "(4 more matching facts in the
    sources: 3 action items, 1 excerpt)"."""
    rest = Counter(h.fact.fact_type for n, h in enumerate(hits) if n not in shown)
    if not rest:
        return []
    kinds = ", ".join(plural(count, kind.replace("_", " ")) for kind, count in rest.most_common())
    return [f"({plural(rest.total(), 'more matching fact')} in the sources: {kinds})"]
