"""`memo bench team`: a team's store on PostgreSQL under load, and its search beside SQLite's.

Writers: several processes at once each capture meetings of their own (the offline
extractor, a decision and an action item owed by a name each) and confirm who that name
is, on one PostgreSQL database. Afterwards every capture, decision, action item and
confirmed name each writer reported must be in the store (a lost write is one that is not),
and no writer may have seen an error.

Search: the same synthetic store (`search_corpus`) built on a SQLite file and on a
PostgreSQL database, hybrid search timed on both (one-shot, as `memo ask` searches: vec0's
KNN there, pgvector's HNSW here) with the recall@10 of each vector search against NumPy's
exact top-10.
"""

from __future__ import annotations

import multiprocessing
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memo_tui.core.benchmarks.search import LIMIT, POOL, Latency, Precomputed, exact_top, timed
from memo_tui.core.benchmarks.search_corpus import MODEL, Progress, build_store, make_queries
from memo_tui.core.recall.search import hybrid_search
from store import FactFilter, Store


@dataclass
class WriterReport:
    """What one writer process did, as it saw it."""

    writer: int
    captures: list[int] = field(default_factory=list)
    confirmed: str = ""
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass
class WritersResult:
    writers: int
    meetings_each: int
    seconds: float
    reports: list[WriterReport]
    lost: list[str]  # writes a writer made that the store does not hold

    @property
    def errors(self) -> int:
        return sum(len(r.errors) for r in self.reports)


@dataclass
class SearchSide:
    store: str
    build_seconds: float
    hybrid: Latency
    recall_at_10: float


@dataclass
class TeamBench:
    writers: WritersResult | None = None
    facts: int = 0
    queries: int = 0
    search: list[SearchSide] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        w = self.writers
        return {
            "writers": None
            if w is None
            else {
                "processes": w.writers,
                "meetings_each": w.meetings_each,
                "seconds": round(w.seconds, 2),
                "captures": sum(len(r.captures) for r in w.reports),
                "lost_writes": len(w.lost),
                "errors": w.errors,
                "lost": w.lost[:20],
                "error_messages": [e for r in w.reports for e in r.errors][:20],
            },
            "facts": self.facts,
            "queries": self.queries,
            "search": [
                {
                    "store": s.store,
                    "build_seconds": round(s.build_seconds, 1),
                    "hybrid_ms": s.hybrid.as_dict(),
                    "vector_recall_at_10": round(s.recall_at_10, 4),
                }
                for s in self.search
            ],
        }


_NAMES = "Ada Bea Cyd Dov Eli Fay Gus Hal Ivo Jon Kit Lev Mo Ned Oda Pia".split()


def first_name(writer: int) -> str:
    """The first name only writer `writer`'s meetings use."""
    return _NAMES[writer % len(_NAMES)] + "o" * (writer // len(_NAMES))


def meeting(writer: int, n: int) -> str:
    """A small meeting of writer `writer`: a decision, and an action item owed by a first
    name two people share (so it waits for someone to say which)."""
    return (
        f"Team sync {writer}-{n}\n\n"
        f"Ana Lopez: Let's settle the vendor for rollout {writer}-{n}.\n"
        f"Ana Lopez: We decided to go with vendor {writer * 100 + n} because it is cheaper.\n"
        f"Ana Lopez: {first_name(writer)} will send the contract draft by Friday.\n"
        f"Ben Ortiz: Agreed.\n"
    )


def _writer(url: str, writer: int, meetings: int) -> WriterReport:
    """One writer process: capture, then confirm who its name is."""
    from memo_tui.core.capture import CaptureOptions, CaptureService
    from memo_tui.core.entities.service import EntityService

    report = WriterReport(writer)
    started = time.perf_counter()
    user = f"writer{writer}"
    try:
        with Store(url) as store:
            capture = CaptureService(store, CaptureOptions(user=user))
            for n in range(meetings):
                done = capture.capture_text(meeting(writer, n), f"sync-{writer}-{n}.txt", "txt")
                if done.status != "captured" or done.capture_id is None:
                    report.errors.append(f"meeting {n}: {done.status} {done.error or ''}")
                else:
                    report.captures.append(done.capture_id)
            entities = EntityService(store, user)
            name = first_name(writer)
            entities.confirm(name, entities.person(f"{name} Adams"))
            report.confirmed = name
    except Exception as error:  # a writer's failure is the figure, not a crash of the bench
        report.errors.append(f"{type(error).__name__}: {error}")
        report.errors.append(traceback.format_exc(limit=3))
    report.seconds = time.perf_counter() - started
    return report


def _check(url: str, reports: list[WriterReport], meetings: int) -> list[str]:
    """Every write the writers reported, looked for in the store."""
    lost: list[str] = []
    with Store(url) as store:
        titles = {c.id: c.title for c in store.captures.all()}
        owed = {(a.person_name, a.capture_id) for a in _open_items(store)}
        aliases = {a.alias for a in store.people.directory().aliases}
        for report in reports:
            if len(report.captures) != meetings:
                lost.append(f"writer {report.writer}: {len(report.captures)} of {meetings} made")
            for n, capture_id in enumerate(report.captures):
                if titles.get(capture_id) != f"Team sync {report.writer}-{n}":
                    lost.append(f"writer {report.writer}: capture {capture_id} missing")
                if (f"{first_name(report.writer)} Adams", capture_id) not in owed:
                    lost.append(f"writer {report.writer}: capture {capture_id}'s item unowned")
            if report.confirmed and report.confirmed not in aliases:
                lost.append(f"writer {report.writer}: alias {report.confirmed} missing")
    return lost


def _open_items(store: Store) -> list[Any]:
    """Every open action item settled as someone's."""
    pages = (store.people.get(person.id) for person in store.people.all())
    return [item for page in pages if page is not None for item in page.open_action_items]


def run_writers(url: str, writers: int, meetings: int, say: Progress) -> WritersResult:
    """`writers` processes capturing and confirming at once on the store at `url`."""
    say(f"{writers} writers: {meetings} meetings each, at once")
    with Store(url) as store:  # two people share each writer's first name
        for writer in range(writers):
            store.people.add(f"{first_name(writer)} Adams")
            store.people.add(f"{first_name(writer)} Baker")
    started = time.perf_counter()
    spawn = multiprocessing.get_context("spawn")
    with spawn.Pool(writers) as pool:
        reports = pool.starmap(_writer, [(url, w, meetings) for w in range(writers)])
    seconds = time.perf_counter() - started
    say("checking every write is there")
    return WritersResult(writers, meetings, seconds, reports, _check(url, reports, meetings))


def time_search(
    location: Path | str, name: str, facts: int, queries: int, say: Progress
) -> SearchSide:
    """Build the synthetic store at `location`, then time one-shot hybrid searches on it."""
    with Store(location) as store:
        built = time.perf_counter()
        corpus = build_store(store, facts, 0, say)
        build_seconds = time.perf_counter() - built
    say(f"{name}: timing {queries} queries")
    texts, vectors = make_queries(corpus, queries + 5, 0)
    latency, found = Latency(), 0
    with Store(location) as store:
        for n, (words, vector) in enumerate(zip(texts, vectors, strict=True)):
            as_list = [float(x) for x in vector]
            embedder = Precomputed(MODEL, as_list)
            _, ms = timed(
                hybrid_search, store, embedder, words, FactFilter(), LIMIT, 0.0, pool=POOL
            )
            knn = store.search.vector(as_list, FactFilter(), LIMIT, -1.0)
            if n >= 5:  # (the first few warm the caches)
                latency.add(*ms)
                exact = {corpus.keys[row] for row in exact_top(corpus.vectors, vector, LIMIT)}
                found += len(exact & {key for key, _ in knn})
    return SearchSide(name, build_seconds, latency, found / (queries * LIMIT))


def run(
    url: str, writers: int, meetings: int, facts: int, queries: int, scratch_url: Any, say: Progress
) -> TeamBench:
    """The writers on `url`; the search timing on a SQLite file and on `scratch_url()`."""
    bench = TeamBench(facts=facts, queries=queries)
    bench.writers = run_writers(url, writers, meetings, say)
    if facts:
        with tempfile.TemporaryDirectory(prefix="memo-bench-team-") as folder:
            file = Path(folder) / "bench.db"
            bench.search.append(time_search(file, "SQLite (vec0)", facts, queries, say))
        bench.search.append(
            time_search(scratch_url(), "PostgreSQL (pgvector HNSW)", facts, queries, say)
        )
    return bench


def format_report(bench: TeamBench) -> str:
    data = bench.as_dict()
    lines = []
    w = data["writers"]
    if w is not None:
        lines += [
            f"Writers: {w['processes']} processes, {w['meetings_each']} meetings each, at once "
            f"on one PostgreSQL store: {w['captures']} captures in {w['seconds']} s",
            f"  lost writes  {w['lost_writes']}    (target 0)",
            f"  errors       {w['errors']}    (target 0)",
            *(f"  {line}" for line in w["lost"]),
            *(f"  {line.splitlines()[0]}" for line in w["error_messages"][:5]),
        ]
    if data["search"]:
        lines += [
            "",
            f"Hybrid search, one-shot, {data['facts']:,} facts, {data['queries']} queries:",
            f"  {'store':<28} {'p50 ms':>8} {'p95 ms':>8} {'vector R@10':>12} {'build s':>8}",
        ]
        for s in data["search"]:
            h = s["hybrid_ms"]
            lines.append(
                f"  {s['store']:<28} {h['p50']:>8.1f} {h['p95']:>8.1f} "
                f"{s['vector_recall_at_10']:>12.3f} {s['build_seconds']:>8.1f}"
            )
    return "\n".join(lines)
