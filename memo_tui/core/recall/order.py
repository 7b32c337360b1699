"""The order an answer tells its facts in, from search's ranking: by the line each would
quote, what reports it done first for "did it happen?", what gives the value asked for first
for "when …?", "who …?" or "how many …?", what holds now before what it replaced, and for
"why …?" the reason beside what it explains."""

from __future__ import annotations

from memo_tui.core.recall.answering import answering_first
from memo_tui.core.recall.current import Change, lead_with_current
from memo_tui.core.recall.extractive import by_best_line, focused, reported_first
from memo_tui.core.recall.filters import ASKS_WHO
from memo_tui.core.recall.gate import person_names
from memo_tui.core.recall.reasons import with_reasons
from memo_tui.core.recall.search import Hit
from store import Directory, Store


def ordered(
    store: Store, hits: list[Hit], question: str, directory: Directory
) -> tuple[list[Hit], list[Change]]:
    """The hits in the order an answer tells them, and the replaced decisions among them
    (`directory`: the store's known names, for who is asked about)."""
    shown = dict(zip((h.fact.fact_key for h in hits), focused(hits, question), strict=True))
    hits = by_best_line(hits, question, [shown[h.fact.fact_key] for h in hits])
    hits = reported_first(hits, question, [shown[h.fact.fact_key] for h in hits])
    people = person_names(directory) if ASKS_WHO.match(question) else []
    hits = answering_first(hits, question, [shown[h.fact.fact_key] for h in hits], people)
    hits, changes = lead_with_current(store, hits, question)
    return with_reasons(store, hits, changes, question, shown)
