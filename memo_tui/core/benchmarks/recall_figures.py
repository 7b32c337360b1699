"""`memo bench recall`'s figures: per query, the rank of the first hit of every search, and
the tallies, shares and diagnostics read from them (recall.py runs the searches)."""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from dataclasses import dataclass, field

from memo_tui.core.recall.search import SearchMode, hybrid_search

MODES: tuple[SearchMode, ...] = ("keyword", "vector", "hybrid")
BASELINE = "plain-rag"  # 6-turn chunks, BM25 + the same model, RRF (see baseline.py)
SCOPES = ("store", "meeting")
THRESHOLDS = (0.0, 0.3, 0.35, 0.4, 0.5, 0.65)
CALIBRATED: tuple[tuple[str, SearchMode], ...] = (
    ("store", "vector"),
    ("store", "hybrid"),
    ("meeting", "hybrid"),
)
MATCHING = "a non-summary fact of the query's meeting whose lines hold an evidence turn"
CAP_CHARS = 40_000  # what an extractor that reads only the start of a meeting would see
SEARCH_DEFAULT = float(inspect.signature(hybrid_search).parameters["min_similarity"].default)


@dataclass
class Tally:
    queries: int = 0
    hits: int = 0
    reciprocal_ranks: float = 0.0

    def add(self, rank: int | None) -> None:
        self.queries += 1
        if rank is not None:
            self.hits += 1
            self.reciprocal_ranks += 1.0 / rank

    @property
    def recall(self) -> float:
        return self.hits / self.queries if self.queries else 0.0

    @property
    def mrr(self) -> float:
        return self.reciprocal_ranks / self.queries if self.queries else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {"hits": self.hits, "recall": round(self.recall, 3), "mrr": round(self.mrr, 3)}


@dataclass
class RecallBench:
    """Per query, the rank of the first hit of each search ("store/hybrid", "store/vector@0.3")."""

    meetings: int = 0
    rejected: list[str] = field(default_factory=list)
    facts: int = 0
    limit: int = 10
    min_similarity: float = SEARCH_DEFAULT
    cap_chars: int = CAP_CHARS
    seconds: dict[str, float] = field(default_factory=dict)
    ranks: dict[str, dict[str, int | None]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)  # query id -> specific / general
    answerable: set[str] = field(default_factory=set)  # some stored fact holds evidence
    beyond_cap: set[str] = field(default_factory=set)  # every evidence turn past cap_chars
    skipped: int = 0  # no evidence, or its meeting was not captured
    gated: dict[str, bool] = field(default_factory=dict)  # "no record": had it cited evidence?
    model: str = ""  # the embedding space: the model, ":int8" when run as its int8 copy
    peak_rss_mb: float = 0.0  # the process's peak resident memory, after embedding
    # Diagnostics, per query: "answer/<scope>", the first-hit rank when the reference answer
    # is searched instead of the question; "own meeting", the rank of store-wide hybrid's
    # first fact (of any kind) from the question's meeting.
    probes: dict[str, dict[str, int | None]] = field(default_factory=dict)

    @property
    def passages_per_s(self) -> float:
        seconds = self.seconds.get("embed", 0.0)
        return self.facts / seconds if seconds else 0.0

    def tally(self, key: str, among: Iterable[str] | None = None) -> Tally:
        found = Tally()
        for query_id in self.ranks if among is None else among:
            found.add(self.ranks[query_id].get(key))
        return found

    def probe(self, key: str, among: Iterable[str] | None = None) -> Tally:
        """A diagnostic's tally over the queries it was run for."""
        wanted = None if among is None else set(among)
        found = Tally()
        for query_id, probes in self.probes.items():
            if key in probes and (wanted is None or query_id in wanted):
                found.add(probes[key])
        return found

    def own_meeting_first(self, among: Iterable[str] | None = None) -> float:
        """The share of questions whose store-wide hybrid top fact is of their own meeting."""
        wanted = set(self.probes if among is None else among)
        ranks = [p["own meeting"] for q, p in self.probes.items() if q in wanted]
        return sum(rank == 1 for rank in ranks) / len(ranks) if ranks else 0.0

    def hit_by(self, key: str) -> set[str]:
        return {q for q, ranks in self.ranks.items() if ranks.get(key) is not None}

    @property
    def ceiling(self) -> float:
        return len(self.answerable) / len(self.ranks) if self.ranks else 0.0

    def versus(self, scope: str = "store") -> dict[str, int]:
        """Where hybrid loses what a single ranking found, and what only hybrid found."""
        keyword, vector, hybrid = (self.hit_by(f"{scope}/{mode}") for mode in MODES)
        return {
            "keyword_hit_hybrid_missed": len(keyword - hybrid),
            "vector_hit_hybrid_missed": len(vector - hybrid),
            "hybrid_hit_neither": len(hybrid - keyword - vector),
        }

    def as_dict(self) -> dict[str, object]:
        keys = sorted({key for ranks in self.ranks.values() for key in ranks})
        specific = [q for q, kind in self.kinds.items() if kind == "specific"]
        return {
            "meetings": self.meetings,
            "meetings_rejected": self.rejected,
            "facts": self.facts,
            "queries": len(self.ranks),
            "queries_skipped": self.skipped,
            "limit": self.limit,
            "min_similarity": self.min_similarity,
            "seconds": {k: round(v, 1) for k, v in self.seconds.items()},
            "embedding": {
                "model": self.model,
                "passages_per_s": round(self.passages_per_s, 1),
                "peak_rss_mb": round(self.peak_rss_mb),
            },
            "matching": MATCHING,
            "ceiling": round(self.ceiling, 3),
            "scores": {key: self.tally(key).as_dict() for key in keys if "@" not in key},
            "specific_only": {
                key: self.tally(key, specific).as_dict() for key in keys if "@" not in key
            },
            "calibration": {key: self.tally(key).as_dict() for key in keys if "@" in key},
            "beyond_cap": {
                "cap_chars": self.cap_chars,
                "queries": len(self.beyond_cap),
                "hybrid_hits": len(self.beyond_cap & self.hit_by("store/hybrid")),
            },
            "hybrid_vs_single": {scope: self.versus(scope) for scope in SCOPES},
            "ask_no_record": {
                "queries": len(self.gated),
                "cited_evidence": sum(self.gated.values()),
            },
            "diagnostics": {
                "answer_as_query": {
                    scope: self.probe(f"answer/{scope}").as_dict() for scope in SCOPES
                },
                "answer_as_query_specific": {
                    scope: self.probe(f"answer/{scope}", specific).as_dict() for scope in SCOPES
                },
                "own_meeting": {
                    "first": round(self.own_meeting_first(), 3),
                    **self.probe("own meeting").as_dict(),
                },
                "own_meeting_specific": {
                    "first": round(self.own_meeting_first(specific), 3),
                    **self.probe("own meeting", specific).as_dict(),
                },
            },
        }
