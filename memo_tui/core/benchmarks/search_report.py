"""What `memo bench search` prints: a column per store size, and a line per target."""

from __future__ import annotations

import numpy as np

from memo_tui.core.benchmarks.search import (
    AGREEMENT,
    POOL,
    ROWS,
    TARGET_MS,
    Latency,
    SearchBench,
    SizeResult,
)
from memo_tui.core.benchmarks.search_corpus import DIM


def format_report(bench: SearchBench) -> str:
    """The figures as one table, a column per size."""
    sizes = bench.sizes

    def line(label: str, cells: list[str]) -> str:
        return f"  {label:<38}" + "".join(f"{cell:>27}" for cell in cells)

    lines = [
        f"search latency over {bench.queries} queries per size (seed {bench.seed}, {DIM}-d "
        f"vectors; hybrid fuses BM25 and KNN top {POOL} each)",
        "",
        line("", [f"{s.facts:,} facts" for s in sizes]),
        line("build: captures + vectors (s)", [_seconds(s.build_seconds) for s in sizes]),
        line("store file", [f"{s.store_bytes / 1e6:,.1f} MB" for s in sizes]),
        line("in-memory index (keys, vectors)", [f"{s.index_bytes / 1e6:,.1f} MB" for s in sizes]),
        *(f"  in-memory index at {s.facts:,} facts: {s.index_kind}" for s in sizes),
        "  latency ms: p50 / p95 (CPU p50)",
    ]
    for name, label in ROWS.items():
        lines.append(line(f"  {label}", [_cell(s.latency[name]) for s in sizes]))
    ratios = [s.as_dict()["hybrid_over_numpy_p50"] for s in sizes]
    lines.append(line("hybrid (index) p50 / NumPy p50", [f"{r}x" for r in ratios]))
    agree = [f"{np.mean(s.latency[AGREEMENT].samples_ms) * 100:.1f}%" for s in sizes]
    lines.append(line("same top-10, index vs vec0", agree))
    lines.append(line("vec0 recall@10 vs NumPy", [f"{s.vec0_recall_at_10:.4f}" for s in sizes]))
    lines.append("")
    lines.extend(_verdicts(sizes))
    return "\n".join(lines)


def _seconds(build: dict[str, float]) -> str:
    return f"{build['captures']:.1f} + {build['vectors']:.1f}"


def _cell(latency: Latency) -> str:
    return (
        f"{latency.percentile(50):.2f} / {latency.percentile(95):.2f} "
        f"({latency.percentile(50, cpu=True):.2f})"
    )


# (facts, row, percentile, at most ms): the targets, each checked where measured.
TARGETS = (
    (100_000, "hybrid_index", 50, TARGET_MS),
    (100_000, "keyword", 95, 20.0),
    (1_000_000, "hybrid_index", 50, 100.0),
    (1_000_000, "hybrid_index", 95, 250.0),
)


def _verdicts(sizes: list[SizeResult]) -> list[str]:
    """A line per target: met or missed at the size it names, or not measured."""
    lines = []
    for facts, row, q, most in TARGETS:
        label = f"target: {ROWS[row].split(' (')[0]} p{q} at most {most:g} ms at {facts:,} facts"
        size = next((s for s in sizes if s.facts == facts), None)
        if size is None:
            lines.append(f"{label}: not measured (--facts {facts})")
            continue
        ms = size.latency[row].percentile(q)
        lines.append(f"{label}: {ms:.1f} ms, {'met' if ms <= most else 'missed'}")
    return lines
