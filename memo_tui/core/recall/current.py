"""What holds now: a replaced decision found by search brings its replacement along.

Search ranks by words and meaning, so "when is the launch?" can rank the first date above the
one that replaced it. Here each superseded decision among the hits is followed along its
`superseded_by` links to the decision that holds now; that one takes the old one's place
(fetched when search did not find it) and the old one follows it, so an answer states the
current decision first and the history after it.

A question about what holds now ("how many robots are in the fleet now?", "who supplies our
batteries these days?") is answered by a decision before anything said around it: the
decisions among the best few hits move to the front, in their order, except that a later
meeting's decision about the same thing goes before an earlier one. A meeting summary among
them brings its meeting's decisions about the question along: the summary matched by its
title or its list of what was decided, but only a decision knows what replaced it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memo_tui.core.capture.offline.text import content_words, content_words_and_parts, stem
from memo_tui.core.capture.subject import CALENDAR
from memo_tui.core.recall.gate import asked_value, gives_value
from memo_tui.core.recall.search import Hit
from store import DecisionRecord, FactPeople, Store

DECISION = 1 << 32  # a decision's fact key is this | its id (see the facts view)
MOST_LINKS = 20  # a chain longer than this is a loop or a bug; stop following it
ASKS_WHAT_HOLDS = re.compile(
    r"\b(?:now|nowadays|currently|current|these days|at the moment|at present|right now|"
    r"still|latest|as (?:of|it stands) (?:today|now)|as (?:it|things) stands?|in the end|"
    r"eventually|ended up|end up)\b"
    # or asked in the present: "what is the go-live date", "when does it open", "how many
    # copies are in the first printing", "how is on-call arranged"
    r"|^\s*(?:what|when|where|who|which|how(?: many| much| long)?)\b[^?]{0,40}?"
    r"\b(?:is|are|does|do)\b",
    re.IGNORECASE,
)
_UNRANKED = (None, None, None)  # a hit search did not rank: no keyword or vector rank
OPENED_WORDS = 2  # the question's words a decision a summary lists must hold to be opened
REACH = 6  # how far down the hits a decision may come from to lead such an answer


@dataclass(frozen=True)
class Change:
    """Hit `old` (0-based) was replaced, in the end, by hit `new`."""

    new: int
    old: int


def _holds_now(store: Store, decision_id: int, states: dict[int, FactPeople]) -> int:
    """The fact key of the decision that holds at the end of `decision_id`'s chain."""
    key = DECISION | decision_id
    for _ in range(MOST_LINKS):
        state = states.get(key)
        if state is None:
            fact = store.facts.get(key)
            if fact is None:
                return key
            states.update(store.facts.people_of([fact]))
            state = states.get(key)
        if state is None or state.status != "superseded" or state.superseded_by is None:
            return key
        key = DECISION | state.superseded_by
    return key


def decisions_first(store: Store, hits: list[Hit], question: str) -> list[Hit]:
    """For a question about what holds now, the decisions among the best `REACH` hits that
    share a word with it (in their own words or their subject's, a name aside), and those its
    meetings' summaries bring along, first: those that give the value it asks for first, the
    rest in their order; then the rest as ranked."""
    if not ASKS_WHAT_HOLDS.search(question):
        return hits
    names = {w.lower() for w in re.findall(r"(?<!^)\b[A-Z][\w'-]*", question)}
    asked = content_words(question) - {stem(n) for n in names}
    if not asked:
        return hits
    found = [h for h in hits[:REACH] if h.fact.fact_type in ("decision", "summary")]
    decided = store.captures.decisions(
        sorted({h.fact.capture_id for h in found if h.fact.capture_id})
    )
    opened = _summaries_opened(store, hits, asked, decided)
    near = [h for h in found if h.fact.fact_type == "decision"] + opened
    hits = hits + [h for h in opened if h not in hits]
    if not near:
        return hits
    subjects = {d.id: d.subject for d in decided}

    def about(hit: Hit) -> bool:
        said = hit.fact.text.splitlines()[0] + " " + subjects.get(hit.fact.fact_id, "")
        return bool(asked & content_words_and_parts(said))

    lead = _newest_first([h for h in near if about(h)])
    lead = _valued_first(lead, question)
    return lead + [h for h in hits if h not in lead]


def _valued_first(decisions: list[Hit], question: str) -> list[Hit]:
    """For a question after a value ("when does it come out?"), the decisions that give one
    of its kind first, in their order."""
    kind = asked_value(question)
    if kind is None:
        return decisions
    asked = {w.lower() for w in re.findall(r"[\w'-]+", question)}
    valued = [
        h
        for h in decisions
        if gives_value(kind, what_was_decided(h.fact.text.splitlines()[0]), asked)
    ]
    return valued + [h for h in decisions if h not in valued]


def _summaries_opened(
    store: Store, hits: list[Hit], asked: set[str], decided: list[DecisionRecord]
) -> list[Hit]:
    """The decisions (among `decided`) of the meetings whose summaries are among the best
    `REACH` hits that are about the question (two of its words, or its one word, in their own
    words or their subject's) and that search did not rank that high: a summary lists what
    was decided, but only the decision carries what replaced it. Those search found lower
    are taken as it found them."""
    meetings = {
        h.fact.capture_id: h
        for h in hits[:REACH]
        if h.fact.fact_type == "summary" and h.fact.capture_id is not None
    }
    if not meetings:
        return []
    near = {h.fact.fact_key for h in hits[:REACH]}
    below = {h.fact.fact_key: h for h in hits[REACH:]}
    enough = min(OPENED_WORDS, len(asked))
    about = [
        d
        for d in decided
        if d.capture_id in meetings
        and d.fact_key not in near
        and len(asked & content_words_and_parts(f"{d.description} {d.subject}")) >= enough
    ]
    facts = store.facts.by_keys([d.fact_key for d in about if d.fact_key not in below])
    return [
        below.get(d.fact_key) or Hit(facts[d.fact_key], meetings[d.capture_id].score, *_UNRANKED)
        for d in about
        if d.fact_key in below or d.fact_key in facts
    ]


def _newest_first(decisions: list[Hit]) -> list[Hit]:
    """The decisions in rank order, except that one about the same thing as a decision
    ranked above it (a word in common, dates and numbers aside) but from a later meeting
    goes before it: what holds now was said last."""

    def day(hit: Hit) -> str:
        return hit.fact.occurred_at or hit.fact.captured_at[:10]

    def words(hit: Hit) -> set[str]:
        said = content_words(what_was_decided(hit.fact.text.splitlines()[0]))
        return {w for w in said if w not in CALENDAR and not w[:1].isdigit()}

    placed: list[Hit] = []
    for hit in decisions:
        at = next(
            (i for i, o in enumerate(placed) if day(hit) > day(o) and words(hit) & words(o)),
            len(placed),
        )
        placed.insert(at, hit)
    return placed


# "(decided by Libby Harcourt)", "Reasoning: …": who and why, not what it is about.
_LABELS = re.compile(r"\s*\((?:decided by|owner:|due|done|dropped)[^()]*\)")


def what_was_decided(text: str) -> str:
    """A decision's or an item's text without its reasoning and its labels."""
    return _LABELS.sub("", text.split(" Reasoning: ")[0])


def lead_with_current(
    store: Store, hits: list[Hit], question: str = ""
) -> tuple[list[Hit], list[Change]]:
    """The hits with each replaced decision's current one put first, and the changes."""
    hits = decisions_first(store, hits, question)
    states = store.facts.people_of([hit.fact for hit in hits])
    ordered: list[Hit] = []
    placed: dict[int, int] = {}  # fact key -> index in `ordered`
    changes: list[Change] = []
    by_key = {hit.fact.fact_key: hit for hit in hits}
    for hit in hits:
        key = hit.fact.fact_key
        if key in placed:
            continue
        state = states.get(key)
        replaced = state is not None and state.status == "superseded" and state.superseded_by
        now = _holds_now(store, hit.fact.fact_id, states) if replaced else key
        if now != key:
            if now not in placed:
                current = by_key.get(now)
                if current is None:
                    fact = store.facts.get(now)
                    current = Hit(fact, hit.score, None, None, None) if fact else None
                if current is not None:
                    placed[now] = len(ordered)
                    ordered.append(current)
            if now in placed:
                changes.append(Change(placed[now], len(ordered)))
        placed[key] = len(ordered)
        ordered.append(hit)
    return ordered, changes
