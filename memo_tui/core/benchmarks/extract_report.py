"""`memo bench extract`'s report on a labelled set: each meeting's precision and recall,
owners, due dates, reversals, near-misses and injected lines, then the whole set's figures
and its links across meetings."""

from __future__ import annotations

from memo_tui.core.benchmarks.extract import Score
from memo_tui.core.benchmarks.extract_set import SetBench


def format_set_report(bench: SetBench, detail: bool = False) -> str:
    """The figures the extraction issue asks for, per file and overall."""

    def pr(score: Score) -> str:
        return f"P {score.precision:.2f} R {score.recall:.2f}"

    rows = [
        f"{bench.extractor} on {bench.data}: {len(bench.files)} meetings, {bench.chars:,} chars",
        f"{'file':<40} {'decisions':>13} {'final only':>13} {'actions':>13} "
        "owner  due  rev near inj",
    ]
    for f in [*bench.files, None]:
        if f is None:
            label = "overall"
            d, fin, a = (bench.total(k) for k in ("decisions", "final", "actions"))
            owners, dues = bench.count("owners_right"), bench.count("dues_right")
            rev, near, inj = (
                bench.count(k) for k in ("reversed_current", "near_misses", "injected")
            )
        else:
            label, d, fin, a = f.file[:40], f.decisions, f.final, f.actions
            owners, dues = f.owners_right, f.dues_right
            rev, near, inj = len(f.reversed_current), len(f.near_misses), len(f.injected)
        matched = a.ours_matched
        rows.append(
            f"{label:<40} {pr(d):>13} {pr(fin):>13} {pr(a):>13} {owners:>2}/{matched:<3}"
            f"{dues:>2}/{matched:<3}{rev:>2} {near:>4} {inj:>3}"
        )
        if f is not None and f.error:
            rows.append(f"    refused: {f.error}")
        if detail and f is not None:
            rows += [f"    missed  {m}" for m in f.misses]
            rows += [f"    false   {m}" for m in f.false]
            rows += [f"    reversed kept as current: {m}" for m in f.reversed_current]
            rows += [f"    near-miss extracted: {m}" for m in f.near_misses]
            rows += [f"    injected extracted: {m}" for m in f.injected]
    d, a = bench.total("decisions"), bench.total("actions")
    matched = a.ours_matched or 1
    rows += [
        f"decisions P {d.precision:.3f} ({d.ours_matched}/{d.ours}) R {d.recall:.3f} "
        f"({d.human_matched}/{d.human}); final only {pr(bench.total('final'))}",
        f"actions P {a.precision:.3f} ({a.ours_matched}/{a.ours}) R {a.recall:.3f} "
        f"({a.human_matched}/{a.human}); owners right {bench.count('owners_right') / matched:.0%}, "
        f"due dates right (±1 day) {bench.count('dues_right') / matched:.0%}",
        "reasons of matched decisions: "
        + ", ".join(f"{kind} {count}" for kind, count in bench.reasons().items()),
        f"reversed decisions kept as current {bench.count('reversed_current')}, near-misses "
        f"extracted {bench.count('near_misses')}, injected lines extracted "
        f"{bench.count('injected')}",
        *_judged_report(bench),
        f"extractor throughput {bench.as_dict()['extractor_chars_per_second']:,} chars/s "
        f"(extraction alone; {bench.seconds:.1f} s in all)",
    ]
    return "\n".join(rows + _links_report(bench, detail))


def _judged_report(bench: SetBench) -> list[str]:
    """Asserted items alone (the figures above count asserted and proposed), and how the
    confidence given compares with how often items were right."""
    bins = bench.reliability()
    if not bins:
        return []
    d, a = bench.total("asserted_decisions"), bench.total("asserted_actions")
    rows = [
        f"asserted only: decisions P {d.precision:.3f} ({d.ours_matched}/{d.ours}) "
        f"R {d.recall:.3f}; actions P {a.precision:.3f} ({a.ours_matched}/{a.ours}) "
        f"R {a.recall:.3f}",
        "reliability (confidence given: items, mean given, share right):",
    ]
    rows += [
        f"  {b.low:.1f}-{b.high:.1f}  {b.items:>4}  {b.predicted:.2f}  {b.observed:.2f}"
        for b in bins
    ]
    return rows


def _links_report(bench: SetBench, detail: bool) -> list[str]:
    """The links across meetings and the items later meetings closed, as scored."""
    if not bench.links:
        return []
    k = bench.links
    rows = [
        f"links across meetings ({k['in the set']} in the set, "
        f"{k['between extracted decisions']} between extracted decisions): applied "
        f"{k['applied right']} right {k['applied wrong']} wrong, proposed "
        f"{k['proposed right']} right {k['proposed wrong']} wrong, missed {k['missed']}",
        f"items closed by a later meeting ({k['closed later in the set']} among extracted "
        f"items): applied {k['closed applied right']} right {k['closed applied wrong']} "
        f"wrong, proposed {k['closed proposed right']} right "
        f"{k['closed proposed wrong']} wrong, missed {k['closed missed']}",
    ]
    return rows + ([f"    {note}" for note in bench.link_notes] if detail else [])
