"""A question that asks for everything under its filters, and how much that is.

"What does Priya owe?" names a kind of fact (action items) and whose they are, and nothing
else: it asks for a list, and search's top ten can be short of it. Such a question is a
listing: the store counts the facts its filters allow, so the answer can say "(6 more action
items for Priya Nair)" and `memo ask --all` (the Ask pane: "show all") can give every one.
A question with a word of its own ("why did we pick Postgres for Atlas?") asks for one
thing, and is not a listing: its other matches are only counted among those retrieved.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memo_tui.core.capture.dates import MONTHS
from memo_tui.core.recall.filters import QuestionFilters
from memo_tui.core.recall.retrieve import search_words
from memo_tui.core.words import plural
from store import FactRecord, Store

# Words a listing question may use besides its filters: what state the facts are in, or
# that they were made, not what they are about.
_LISTING_WORDS = frozenset(
    """all every open outstanding pending still made make agreed agree meeting meetings
    tasks task commitments committed promised assigned owe owed we us our team""".split()
)
_DATE_WORD = re.compile(
    r"^(?:\d+(?:st|nd|rd|th)?|q[1-4]|this|next|"
    + "|".join(sorted(MONTHS, key=len, reverse=True))
    + r")$",
    re.IGNORECASE,
)
_KINDS = {"action_item": "action item"}  # the others read as they are named
EVERY = 200  # the most facts "show all" lists


@dataclass(frozen=True)
class Listing:
    """The facts a listing question's filters allow: how many, and what they are."""

    keys: frozenset[int]  # the fact keys of every fact the filters allow
    fact_types: tuple[str, ...]
    scope: str  # "for Priya Nair", "in Atlas since 2026-03-01"

    @property
    def total(self) -> int:
        return len(self.keys)

    def more(self, shown: list[FactRecord]) -> int:
        """How many of the listed facts `shown` leaves out."""
        return len(self.keys - {fact.fact_key for fact in shown})

    def said(self, count: int, more: str = "") -> str:
        """ "6 more action items for Priya Nair" (`more`: "more ", or "")."""
        return said(count, self.fact_types, self.scope, more)


def said(count: int, fact_types: Sequence[str], scope: str, more: str = "") -> str:
    """ "6 more action items for Priya Nair", "1 decision or action item in Atlas"."""
    kinds = [_KINDS.get(t, t) for t in fact_types]
    if len(kinds) == 1:
        return f"{plural(count, more + kinds[0])} {scope}".rstrip()
    joined = " and ".join(plural(2, k).split(" ", 1)[1] for k in kinds)
    if count == 1:
        joined = " or ".join(kinds)
    return f"{count} {more}{joined} {scope}".rstrip()


def listing(store: Store, question: str, filters: QuestionFilters) -> Listing | None:
    """The question as a listing (None when it asks about something of its own)."""
    scoped = filters.entities or filters.since or filters.until
    if not filters.fact_types or not scoped or filters.asks_who or filters.unresolved:
        return None
    mentions = {w.lower() for e in filters.entities for w in re.findall(r"\w+", e.mention)}
    own = [
        word
        for word in search_words(question).split()
        if word.lower() not in mentions | _LISTING_WORDS
        and word.lower().removesuffix("s") not in mentions
        and not _DATE_WORD.match(word)
    ]
    if own:
        return None
    keys = frozenset(store.facts.keys(filters.fact_filter()))
    return Listing(keys, filters.fact_types, _scope(filters))


def rest_of(store: Store, filters: QuestionFilters, have: set[int], room: int) -> list[FactRecord]:
    """Up to `room` facts a listing's filters allow besides those it `have`s (fact keys),
    newest meeting first: no more read than that."""
    found = store.facts.filtered(filters.fact_filter(), limit=room + len(have))
    return [f for f in found if f.fact_key not in have][:room]


def _scope(filters: QuestionFilters) -> str:
    """ "for Priya Nair", "in Atlas from 2026-03-01 to 2026-03-31"."""
    parts: list[str] = []
    people = [e.name for e in filters.named("person")]
    if people:
        whose = "for" if filters.fact_types == ("action_item",) else "in the meetings of"
        parts.append(f"{whose} {' and '.join(people)}")
    parts += [f"in {e.name}" for e in filters.named("project")]
    parts += [f"for {e.name}" for e in filters.named("client")]
    if filters.since and filters.until:
        parts.append(f"from {filters.since} to {filters.until}")
    elif filters.since:
        parts.append(f"since {filters.since}")
    elif filters.until:
        parts.append(f"until {filters.until}")
    return " ".join(parts)
