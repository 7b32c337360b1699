"""`memo bench recall`: does retrieval bring up the passage a question is about?

Every meeting is captured (offline extractor) into one scratch store and embedded; each query
is searched keyword-only, vector-only, hybrid and through `ask`, across the store and within
its own meeting. A hit is a fact of the query's meeting whose line range (1-based) holds one
of its evidence turns (0-based). The meeting summary spans every line, so it never counts.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memo_tui.core.benchmarks.baseline import Baseline
from memo_tui.core.benchmarks.baseline import first_hit as baseline_hit
from memo_tui.core.benchmarks.recall_figures import (
    BASELINE,
    CALIBRATED,
    CAP_CHARS,
    MODES,
    SCOPES,
    SEARCH_DEFAULT,
    THRESHOLDS,
    RecallBench,
)
from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.embed import EmbeddingUnavailable, EmbedService
from memo_tui.core.embed.service import Embedder
from memo_tui.core.recall.answer import ask
from memo_tui.core.recall.search import Hit, QueryEmbedder, SearchMode, hybrid_search
from store import FactFilter, FactRecord, Store

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Query:
    id: str
    meeting: str
    text: str
    kind: str
    evidence: tuple[int, ...]  # 0-based turns
    answer: str = ""  # the reference answer, searched in the question's place (a diagnostic)


@dataclass(frozen=True)
class Meeting:
    capture_id: int
    ranges: tuple[tuple[int, int], ...]  # 0-based turns of every fact but the summary
    turn_offsets: tuple[int, ...]  # where each turn starts in the transcript


class _QueryVectors:
    """The embedder, remembering each query's vector: one query is searched many ways."""

    def __init__(self, embedder: QueryEmbedder) -> None:
        self.name = embedder.name
        self._embedder = embedder
        self._seen: dict[str, list[float]] = {}

    def embed(self, texts: list[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in self._seen]
        if missing:
            self._seen.update(zip(missing, self._embedder.embed(missing), strict=True))
        return [self._seen[t] for t in texts]


def qmsum_folder(data: Path) -> Path:
    """`data` itself or its qmsum/ subfolder, whichever holds queries.jsonl and meetings/."""
    for folder in (data / "qmsum", data):
        if (folder / "queries.jsonl").is_file() and (folder / "meetings").is_dir():
            return folder
    raise FileNotFoundError(f"no qmsum/queries.jsonl and qmsum/meetings/ in {data}")


def load_queries(path: Path) -> list[Query]:
    queries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            evidence = tuple(sorted({int(t) for t in item.get("evidence_turns") or ()}))
            queries.append(
                Query(
                    item["id"],
                    item["meeting"],
                    item["query"],
                    item.get("type", ""),
                    evidence,
                    item.get("answer") or "",
                )
            )
    return queries


def _turn_offsets(text: str) -> tuple[int, ...]:
    offsets, at = [], 0
    for line in text.split("\n"):
        offsets.append(at)
        at += len(line) + 1
    return tuple(offsets)


def _fact_ranges(facts: list[FactRecord]) -> tuple[tuple[int, int], ...]:
    return tuple(
        (f.line_start - 1, f.line_end - 1)
        for f in facts
        if f.fact_type != "summary" and f.line_start is not None and f.line_end is not None
    )


def _capture_all(
    store: Store, folder: Path, bench: RecallBench, progress: Progress
) -> dict[str, Meeting]:
    """Capture every transcript with the offline extractor; meeting id -> what was stored."""
    service = CaptureService(store, CaptureOptions(max_chars=10_000_000, user="bench"))
    paths = sorted((folder / "meetings").glob("*.txt"))
    meetings: dict[str, Meeting] = {}
    for n, path in enumerate(paths, 1):
        text = path.read_text(encoding="utf-8")
        result = service.capture_text(text, path.name, "txt")
        if result.status != "captured" or result.capture_id is None:
            bench.rejected.append(f"{path.stem}: {result.status} {result.error or ''}".strip())
            continue
        facts = store.facts.all(capture_id=result.capture_id)
        bench.facts += len(facts)
        meetings[path.stem] = Meeting(result.capture_id, _fact_ranges(facts), _turn_offsets(text))
        progress(f"captured {n}/{len(paths)} meetings")
    bench.meetings = len(meetings)
    return meetings


def embed_all(store: Store, embedder: Embedder, batch_size: int, progress: Progress) -> None:
    service = EmbedService(store, embedder, batch_size=batch_size, timeout_s=300.0)
    try:
        result = service.backfill(
            progress=lambda done: progress(f"embedded {done.embedded + done.reused} facts")
        )
    finally:
        service.close()
    if result.error is not None or result.remaining:
        raise EmbeddingUnavailable(result.error or f"{result.remaining} facts without a vector")


def first_hit(hits: list[Hit], capture_id: int, evidence: tuple[int, ...]) -> int | None:
    """The 1-based rank of the first hit that holds evidence, if any does."""
    for rank, hit in enumerate(hits, 1):
        fact = hit.fact
        if fact.fact_type == "summary" or fact.capture_id != capture_id:
            continue
        if fact.line_start is None or fact.line_end is None:
            continue
        if any(fact.line_start - 1 <= turn <= fact.line_end - 1 for turn in evidence):
            return rank
    return None


def _searches() -> list[tuple[str, str, SearchMode, float]]:
    """(key, scope, mode, min_similarity) of every search run for each query."""
    found = [(f"{scope}/{mode}", scope, mode, SEARCH_DEFAULT) for scope in SCOPES for mode in MODES]
    for threshold in THRESHOLDS:
        found += [(f"{s}/{m}@{threshold:g}", s, m, threshold) for s, m in CALIBRATED]
    return found


def own_meeting(hits: list[Hit], capture_id: int) -> int | None:
    """The 1-based rank of the first hit of the meeting, whatever kind of fact it is."""
    return next((n for n, hit in enumerate(hits, 1) if hit.fact.capture_id == capture_id), None)


def _probe(
    store: Store,
    embedder: QueryEmbedder,
    query: Query,
    meeting: Meeting,
    limit: int,
    hybrid: list[Hit],
) -> dict[str, int | None]:
    """The diagnostics: is the own meeting found (in store-wide `hybrid`, the question's
    hits), and what would the answer's words find."""
    probes = {"own meeting": own_meeting(hybrid, meeting.capture_id)}
    if query.answer:
        flt = {"store": FactFilter(), "meeting": FactFilter(capture_ids=(meeting.capture_id,))}
        for scope in SCOPES:
            found = hybrid_search(store, embedder, query.answer, flt[scope], limit).hits
            probes[f"answer/{scope}"] = first_hit(found, meeting.capture_id, query.evidence)
    return probes


def _rank_query(
    store: Store, embedder: QueryEmbedder, query: Query, meeting: Meeting, limit: int
) -> tuple[dict[str, int | None], list[Hit]]:
    """The first-hit rank of every search for one query (a repeated search is run once),
    and the hits of the store-wide hybrid search as memo runs it."""
    flt = {"store": FactFilter(), "meeting": FactFilter(capture_ids=(meeting.capture_id,))}
    ranks: dict[str, int | None] = {}
    done: dict[tuple[str, SearchMode, float], list[Hit]] = {}
    for key, scope, mode, threshold in _searches():
        same = (scope, mode, 0.0 if mode == "keyword" else threshold)
        if same not in done:
            result = hybrid_search(
                store, embedder, query.text, flt[scope], limit, threshold, mode=mode
            )
            done[same] = result.hits
        ranks[key] = first_hit(done[same], meeting.capture_id, query.evidence)
    asked = ask(store, embedder, query.text, limit=limit)  # offline: rule filters, no model
    found = first_hit(asked.citations, meeting.capture_id, query.evidence)
    ranks["store/ask"] = None if asked.no_record else found  # "no record" answers nothing
    if asked.no_record:
        ranks["gated"] = found or 0  # taken out by run(): 0 when no citation held evidence
    return ranks, done[("store", "hybrid", SEARCH_DEFAULT)]


def _baseline(
    folder: Path, meetings: dict[str, Meeting], embedder: Embedder, batch_size: int
) -> Baseline:
    """The plain-RAG baseline over the meetings memo captured."""
    plain = Baseline(embedder.embed, batch_size)
    for name in meetings:
        plain.add(name, (folder / "meetings" / f"{name}.txt").read_text(encoding="utf-8"))
    plain.embed_all()
    return plain


def _rank_baseline(
    plain: Baseline, embedder: QueryEmbedder, query: Query, limit: int
) -> dict[str, int | None]:
    [vector] = embedder.embed([query.text])
    return {
        f"{scope}/{BASELINE}": baseline_hit(
            plain.search(query.text, vector, query.meeting if scope == "meeting" else None, limit),
            query.meeting,
            query.evidence,
        )
        for scope in SCOPES
    }


def _judge(bench: RecallBench, query: Query, meeting: Meeting) -> None:
    """Whether any stored fact holds the evidence, and whether all of it is past the cap."""
    if any(a <= turn <= b for a, b in meeting.ranges for turn in query.evidence):
        bench.answerable.add(query.id)
    offsets = meeting.turn_offsets
    if all(turn < len(offsets) and offsets[turn] >= bench.cap_chars for turn in query.evidence):
        bench.beyond_cap.add(query.id)


def run(
    data: Path,
    progress: Progress | None = None,
    *,
    embedder: Embedder,
    batch_size: int = 8,
    limit: int = 10,
    cap_chars: int = CAP_CHARS,
) -> RecallBench:
    """Capture and embed every meeting in a scratch store, then search for every query."""
    folder = qmsum_folder(data)
    queries = load_queries(folder / "queries.jsonl")
    say = progress or (lambda _: None)
    bench = RecallBench(limit=limit, cap_chars=cap_chars)
    with tempfile.TemporaryDirectory() as scratch, Store(Path(scratch) / "bench.db") as store:
        started = time.perf_counter()
        meetings = _capture_all(store, folder, bench, say)
        bench.seconds["capture"] = time.perf_counter() - started
        _ = embedder.dim  # loads the model (and makes its int8 copy): not part of the throughput
        bench.seconds["model load"] = time.perf_counter() - started - bench.seconds["capture"]
        embed_all(store, embedder, batch_size, say)
        bench.seconds["embed"] = time.perf_counter() - started - sum(bench.seconds.values())
        bench.model, bench.peak_rss_mb = embedder.name, peak_rss_mb()
        plain = _baseline(folder, meetings, embedder, batch_size)
        bench.seconds["baseline"] = time.perf_counter() - started - sum(bench.seconds.values())
        searcher = _QueryVectors(embedder)
        for n, query in enumerate(queries, 1):
            meeting = meetings.get(query.meeting)
            if meeting is None or not query.evidence:
                bench.skipped += 1
                continue
            _judge(bench, query, meeting)
            bench.kinds[query.id] = query.kind
            ranks, hybrid = _rank_query(store, searcher, query, meeting, limit)
            ranks.update(_rank_baseline(plain, searcher, query, limit))
            if "gated" in ranks:
                bench.gated[query.id] = bool(ranks.pop("gated"))
            bench.ranks[query.id] = ranks
            bench.probes[query.id] = _probe(store, searcher, query, meeting, limit, hybrid)
            if n % 25 == 0 or n == len(queries):
                say(f"searched {n}/{len(queries)} queries")
        bench.seconds["search"] = time.perf_counter() - started - sum(bench.seconds.values())
        plain.close()
    return bench


def peak_rss_mb() -> float:
    """This process's peak resident memory so far (Linux reports KiB, macOS bytes)."""
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)
