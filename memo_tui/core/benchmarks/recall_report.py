"""`memo bench recall`'s figures as aligned tables: memo's modes beside the plain-RAG
baseline, by kind of query, the similarity calibration, then the diagnostics."""

from __future__ import annotations

from collections.abc import Iterable

from memo_tui.core.benchmarks.recall_figures import (
    BASELINE,
    CALIBRATED,
    MATCHING,
    MODES,
    SCOPES,
    THRESHOLDS,
    RecallBench,
)


def _cells(bench: RecallBench, keys: Iterable[str]) -> str:
    cells = []
    for key in keys:
        if any(key in ranks for ranks in bench.ranks.values()):
            tally = bench.tally(key)
            cells.append(f"{tally.recall:6.1%} {tally.mrr:6.3f}")
        else:
            cells.append(f"{'-':>6} {'-':>6}")
    return "   ".join(cells)


def _by_kind(bench: RecallBench) -> list[str]:
    """Recall@limit of hybrid and the baseline for each kind of query, in both scopes."""
    kinds = sorted({kind for kind in bench.kinds.values()}, reverse=True)  # specific first
    if not kinds:
        return []
    among = {kind: [q for q, k in bench.kinds.items() if k == kind] for kind in kinds}
    head = "   ".join(f"{f'{kind} ({len(among[kind])})':>20}" for kind in kinds)
    lines = [
        "",
        f"  R@{bench.limit} by kind{'':<8}{head}",
        f"  {'':<18}" + "   ".join(f"{'store':>9} {'meeting':>10}" for _ in kinds),
    ]
    for mode, label in (("hybrid", "hybrid"), (BASELINE, "plain RAG")):
        cells = [
            f"{bench.tally(f'store/{mode}', among[kind]).recall:9.1%} "
            f"{bench.tally(f'meeting/{mode}', among[kind]).recall:10.1%}"
            for kind in kinds
        ]
        lines.append(f"  {label:<18}" + "   ".join(cells))
    return lines


def _diagnostics(bench: RecallBench) -> list[str]:
    """Where the misses come from: finding the meeting, and the question's own words."""
    specific = [q for q, kind in bench.kinds.items() if kind == "specific"] or list(bench.ranks)
    own = bench.probe("own meeting", specific)
    if not own.queries:
        return []
    lines = [
        "",
        f"where the misses come from ({own.queries} {'specific ' if bench.kinds else ''}"
        "questions, hybrid)",
        f"  the question's own meeting: its fact first store-wide for "
        f"{bench.own_meeting_first(specific):.1%}, one in the top {bench.limit} for "
        f"{own.recall:.1%}",
    ]
    store, meeting = (bench.probe(f"answer/{scope}", specific) for scope in SCOPES)
    if store.queries:
        lines += [
            f"  the reference answer as the query: {store.recall:.1%} store-wide, "
            f"{meeting.recall:.1%} own meeting ({store.queries} questions)",
            "    (the same search given the evidence's words: the gap to hybrid is the wording)",
        ]
    return lines


def format_report(bench: RecallBench) -> str:
    """The figures as aligned tables: modes, threshold calibration, then the diagnostics."""
    seconds = ", ".join(f"{k} {v:.1f} s" for k, v in bench.seconds.items())
    head = f"  {'':<18}" + "   ".join(f"{'R@' + str(bench.limit):>6} {'MRR':>6}" for _ in SCOPES)
    lines = [
        f"recall over {len(bench.ranks)} queries, {bench.meetings} meetings, "
        f"{bench.facts:,} facts ({seconds})",
        f"embedding: {bench.model}, {bench.passages_per_s:.1f} passages/s, "
        f"peak RSS {bench.peak_rss_mb:.0f} MB",
        f"hit: {MATCHING}",
        f"ceiling (some stored fact holds evidence): {bench.ceiling:.1%}",
        "",
        f"  {'':<18}{'store-wide':>13}   {'own meeting':>13}",
        head,
    ]
    for mode in (*MODES, "ask", BASELINE):
        label = {"keyword": mode, BASELINE: "plain RAG"}.get(
            mode, f"{mode} (>= {bench.min_similarity:g})"
        )
        lines.append(f"  {label:<18}" + _cells(bench, (f"{s}/{mode}" for s in SCOPES)))
    lines += _by_kind(bench)
    lines += ["", "min similarity (vector side)"]
    lines.append(f"  {'':<18}" + "   ".join(f"{f'{s} {m}':>13}" for s, m in CALIBRATED))
    for t in THRESHOLDS:
        keys = (f"{s}/{m}@{t:g}" for s, m in CALIBRATED)
        lines.append(f"  {f'>= {t:g}':<18}" + _cells(bench, keys))
    lines.append(
        f"  ask said no record for {len(bench.gated)} queries; {sum(bench.gated.values())} of "
        "them cited the evidence (every query here has an answer: that is the gate's cost)"
    )
    past = len(bench.beyond_cap & bench.hit_by("store/hybrid"))
    versus = bench.versus()
    lines += [
        "",
        f"{len(bench.beyond_cap)} queries have all their evidence past the first "
        f"{bench.cap_chars:,} chars; hybrid found {past} of them (store-wide)",
        f"store-wide, hybrid missed {versus['keyword_hit_hybrid_missed']} keyword hits and "
        f"{versus['vector_hit_hybrid_missed']} vector hits; "
        f"{versus['hybrid_hit_neither']} hits were hybrid's alone",
    ]
    lines += _diagnostics(bench)
    if bench.rejected or bench.skipped:
        lines.append(f"not captured: {bench.rejected or 'none'}; queries skipped: {bench.skipped}")
    return "\n".join(lines)
