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
# Asked of now in so many words: a question that says "now" expects something changed.
ASKS_NOW = re.compile(
    r"\b(?:now|nowadays|currently|these days|at the moment|at present|right now|in the end|"
    r"ended up|end up)\b",
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
    found = _replacements(
        store, [h for h in hits[:REACH] if h.fact.fact_type in ("decision", "summary")]
    )
    decided = store.captures.decisions(
        sorted({h.fact.capture_id for h in found if h.fact.capture_id})
    )
    opened = _summaries_opened(store, hits, asked, decided)
    near = [h for h in found if h.fact.fact_type == "decision"] + opened
    hits = hits + [h for h in opened if h not in hits]
    if not near:
        return hits
    subjects = {d.id: d.subject for d in decided}

    def shared(hit: Hit) -> int:
        subject = subjects.get(hit.fact.fact_id, "")  # stored stemmed: not stemmed again
        said = content_words_and_parts(hit.fact.text.splitlines()[0] + " " + subject)
        return len(asked & (said | set(subject.split())))

    def about(hit: Hit) -> bool:
        return shared(hit) > 0

    lead = _newest_first([h for h in near if about(h)])
    lead = _valued_first(lead, question)
    if ASKS_NOW.search(question):
        changed = {c.new_decision_id for c in store.changes.all(("applied",))} | {
            d.superseded_by for d in decided if d.superseded_by
        }
        enough = min(OPENED_WORDS, len(asked))
        first = [h for h in lead if _replaced_another(h, changed) and shared(h) >= enough]
        lead = first + [h for h in lead if h not in first]
    return lead + [h for h in hits if h not in lead]


def _replaced_another(hit: Hit, changed: set[int | None]) -> bool:
    """Whether the hit is a decision that replaced an earlier one (`changed`: their ids)."""
    return hit.fact.fact_type == "decision" and hit.fact.fact_id in changed


def _replacements(store: Store, found: list[Hit]) -> list[Hit]:
    """`found` and, after it, the current decision of each replaced one among it (its history
    follows it later, in `lead_with_current`)."""
    states = store.facts.people_of([h.fact for h in found])
    keys = {h.fact.fact_key for h in found}
    added: list[Hit] = []
    for hit in found:
        state = states.get(hit.fact.fact_key)
        if hit.fact.fact_type != "decision" or state is None or not state.superseded_by:
            continue
        now = _holds_now(store, hit.fact.fact_id, states)
        fact = store.facts.get(now) if now not in keys else None
        if fact is not None:
            keys.add(now)
            added.append(Hit(fact, hit.score, *_UNRANKED))
    return found + added


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
_LABELS = re.compile(r"\s*\((?:decided by|owner:|due|done|dropped|unconfirmed)[^()]*\)")


def what_was_decided(text: str) -> str:
    """A decision's or an item's text without its reasoning and its labels."""
    return _LABELS.sub("", text.split(" Reasoning: ")[0])


def _calls_quoted(store: Store, hits: list[Hit]) -> list[Hit]:
    """Each excerpt among the best `REACH` hits that quotes a replaced decision whole brings
    that decision in just before it (unless search ranked it higher): search found the old
    call in the transcript's words ("so for the pilot, we poll the orders API"), and only the
    decision knows what replaced it."""
    quoting = [h for h in hits[:REACH] if h.fact.fact_type == "excerpt" and h.fact.capture_id]
    if not quoting:
        return hits
    decided = store.captures.decisions(sorted({h.fact.capture_id or 0 for h in quoting}))
    replaced = [d for d in decided if d.status == "superseded" and d.evidence_quote]
    rank = {h.fact.fact_key: n for n, h in enumerate(hits)}
    brought = {
        h.fact.fact_key: [
            d.fact_key
            for d in replaced
            if d.capture_id == h.fact.capture_id
            and rank.get(d.fact_key, len(hits)) > rank[h.fact.fact_key]
            and _quotes(h.fact.text, d.evidence_quote)
        ]
        for h in quoting
    }
    if not any(brought.values()):
        return hits
    ranked = {h.fact.fact_key: h for h in hits}
    facts = store.facts.by_keys([k for keys in brought.values() for k in keys if k not in ranked])
    out: list[Hit] = []
    for hit in hits:
        for key in brought.get(hit.fact.fact_key, []):
            fact = facts.get(key)
            found = ranked.get(key) or (Hit(fact, hit.score, *_UNRANKED) if fact else None)
            if found is not None and found not in out:
                out.append(found)
        if hit not in out:
            out.append(hit)
    return out


def _quotes(text: str, quote: str | None) -> bool:
    """Whether an excerpt holds the whole of a call's words (not only the lines around it)."""
    if not quote:
        return False
    return " ".join(quote.split()).lower() in " ".join(text.split()).lower()


def lead_with_current(
    store: Store, hits: list[Hit], question: str = ""
) -> tuple[list[Hit], list[Change]]:
    """The hits with each replaced decision's current one put first, and the changes."""
    hits = _calls_quoted(store, hits)
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
