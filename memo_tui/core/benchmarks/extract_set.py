"""`memo bench extract` on a labelled meeting set (truth.jsonl, like
../shared/data/dev-meetings): items match by the keyword groups of the set's README
(`labelled.match`); owners, due dates, reasons, reversals, near-misses and injected lines
are scored as well, and so are the links across meetings (what replaced what, which items a
later meeting closed)."""

from __future__ import annotations

import datetime as dt
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from memo_tui.core.benchmarks import labelled
from memo_tui.core.benchmarks.extract import Score, bench_service, time_extraction
from memo_tui.core.capture.formats.base import is_bot
from memo_tui.core.capture.offline.text import content_words
from memo_tui.core.capture.result import CaptureResult
from memo_tui.core.capture.service import Extractor
from memo_tui.core.capture.untrusted import addresses_a_model
from store import ActionItemRecord, DecisionRecord, Store

NEAR = 90  # rapidfuzz partial ratio at which a quote says a near-miss line
SCORES = ("decisions", "final", "actions", "asserted_decisions", "asserted_actions")
BINS = (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0001)


@dataclass(frozen=True)
class Bin:
    """Items whose confidence lies in [low, high): how many, how sure, how many right."""

    low: float
    high: float
    items: int
    predicted: float
    observed: float


@dataclass
class SetFile:
    """One file of a labelled set, scored."""

    file: str
    decisions: Score = field(default_factory=Score)
    final: Score = field(default_factory=Score)
    actions: Score = field(default_factory=Score)
    asserted_decisions: Score = field(default_factory=Score)  # asserted items alone
    asserted_actions: Score = field(default_factory=Score)
    judged: list[tuple[float, bool]] = field(default_factory=list)  # (confidence, right)
    owners_right: int = 0
    dues_right: int = 0
    reasons: dict[str, int] = field(default_factory=dict)  # right, wrong, invented, missed
    reversed_current: list[str] = field(default_factory=list)
    near_misses: list[str] = field(default_factory=list)
    injected: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)
    error: str | None = None  # why memo refused the file, if it did


@dataclass
class SetBench:
    """A labelled meeting set, scored file by file."""

    data: str
    files: list[SetFile] = field(default_factory=list)
    chars: int = 0
    extract_seconds: float = 0.0
    seconds: float = 0.0
    extractor: str = "offline extractor"
    # Changes across meetings against the set's links: "applied right", "proposed wrong", ...
    links: dict[str, int] = field(default_factory=dict)
    link_notes: list[str] = field(default_factory=list)  # each change and its verdict

    def total(self, key: str) -> Score:
        scores = [getattr(f, key) for f in self.files]
        return Score(*(sum(getattr(s, part) for s in scores) for part in vars(Score())))

    def reliability(self) -> list[Bin]:
        """Items by the confidence they were given, against how many were right."""
        judged = [j for f in self.files for j in f.judged]
        rows = []
        for low, high in zip(BINS, BINS[1:], strict=False):
            inside = [right for p, right in judged if low <= p < high]
            if inside:
                mean = sum(p for p, _ in judged if low <= p < high) / len(inside)
                rows.append(Bin(low, min(high, 1.0), len(inside), mean, sum(inside) / len(inside)))
        return rows

    def reasons(self) -> dict[str, int]:
        kinds = ("right", "wrong", "invented", "missed")
        return {k: sum(f.reasons.get(k, 0) for f in self.files) for k in kinds}

    def count(self, key: str) -> int:
        return sum(len(v) if isinstance(v := getattr(f, key), list) else v for f in self.files)

    def as_dict(self) -> dict[str, object]:
        return {
            "extractor": self.extractor,
            "data": self.data,
            "meetings": len(self.files),
            "chars": self.chars,
            "extractor_chars_per_second": round(self.chars / self.extract_seconds)
            if self.extract_seconds
            else 0,
            "seconds": round(self.seconds, 3),
            "matching": "keyword groups, one-to-one, decisions against decisions",
            **{key: self.total(key).as_dict() for key in SCORES},
            "reliability": [vars(row) for row in self.reliability()],
            "owners_right": self.count("owners_right"),
            "dues_right": self.count("dues_right"),
            "reasons": self.reasons(),
            "reversed_kept_as_current": self.count("reversed_current"),
            "near_misses_extracted": self.count("near_misses"),
            "injected_extracted": self.count("injected"),
            "links_across_meetings": self.links,
            "files": [
                {
                    "file": f.file,
                    **{k: getattr(f, k).as_dict() for k in SCORES},
                    "owners_right": f.owners_right,
                    "dues_right": f.dues_right,
                    "reversed_kept_as_current": f.reversed_current,
                    "near_misses_extracted": f.near_misses,
                    "injected_extracted": f.injected,
                    "error": f.error,
                    "missed": f.misses,
                    "false": f.false,
                }
                for f in self.files
            ],
        }


def run_set(data: Path, extractor: Extractor | None = None) -> SetBench:
    """Capture a labelled meeting set, oldest first, and score what was extracted (by the
    offline rules unless an `extractor` is given)."""
    labelled.require(data, "truth.jsonl", "people.jsonl")
    rows = labelled.meetings(data)
    cast = labelled.Cast(
        [p for p in labelled.jsonl(data / "people.jsonl") if p["kind"] == "person"]
    )
    bench = SetBench(str(data))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch, Store(Path(scratch) / "bench.db") as store:
        service = bench_service(store, extractor)
        bench.extractor = service.extractor_name
        time_extraction(service, bench, count_chars=True)
        done = labelled.capture_all(service, data, rows, Path(scratch))
        names = {p.id: p.name for p in store.people.directory().people}
        for row in rows:
            capture_id = done[row["file"]].capture_id
            raw = (data / row["file"]).read_text(encoding="utf-8", errors="replace")
            found = SetFile(row["file"], error=done[row["file"]].error)
            items = store.captures.items([capture_id]) if capture_id else ([], [])
            _score_file(found, row, raw, items, lambda i: cast.member(names.get(i or 0)))
            bench.files.append(found)
        _score_links(bench, store, rows, done)
    bench.seconds = time.perf_counter() - started
    return bench


def _truth_links(rows: list[dict[str, Any]]) -> dict[tuple[str, str], tuple[str, str]]:
    """(file, id) of each decision a later meeting replaced -> (file, id) of its replacement."""
    links: dict[tuple[str, str], tuple[str, str]] = {}
    for row in rows:
        for d in row["decisions"]:
            later = d.get("superseded_by")
            if later and later.split("#")[0] != row["file"]:
                file, _, ident = later.partition("#")
                links[(row["file"], d["id"])] = (file, ident)
    return links


def _score_links(
    bench: SetBench, store: Store, rows: list[dict[str, Any]], done: dict[str, CaptureResult]
) -> None:
    """Each change across meetings memo made (applied) or proposed, right when the set links
    the two decisions (directly or along a chain); links the set has between two extracted
    decisions that memo neither made nor proposed are missed."""
    truth_of: dict[int, tuple[str, str]] = {}
    for row in rows:
        decided = store.captures.decisions([done[row["file"]].capture_id or 0])
        for ours, wanted in labelled.match(decided, row["decisions"]):
            truth_of[ours.id] = (row["file"], wanted["id"])
    truth = _truth_links(rows)

    def reaches(old: tuple[str, str], new: tuple[str, str]) -> bool:
        seen, at = set(), truth.get(old)
        while at is not None and at not in seen:
            if at == new:
                return True
            seen.add(at)
            at = truth.get(at)
        return False

    tally = {f"{s} {v}": 0 for s in ("applied", "proposed") for v in ("right", "wrong")}
    found: set[tuple[tuple[str, str], tuple[str, str]]] = set()
    for change in store.changes.all():
        if change.kind != "supersedes" or change.new_decision_id is None:
            continue
        old, new = truth_of.get(change.old_id), truth_of.get(change.new_decision_id)
        right = old is not None and new is not None and reaches(old, new)
        if old is not None and new is not None and right:
            found.add((old, new))
        state = "applied" if change.status == "applied" else "proposed"
        tally[f"{state} {'right' if right else 'wrong'}"] += 1
        bench.link_notes.append(
            f"{state} {'right' if right else 'wrong'}: {change.old_text[:50]!r} -> "
            f"{(change.new_text or '')[:50]!r} ({change.reason})"
        )
    extracted = set(truth_of.values())
    between = [(o, n) for o, n in truth.items() if o in extracted and n in extracted]
    said = {(row["file"], d["id"]): d["text"] for row in rows for d in row["decisions"]}
    missed = [pair for pair in between if pair not in found]
    bench.link_notes += [f"missed: {said[o][:50]!r} -> {said[n][:50]!r}" for o, n in missed]
    tally["missed"] = len(missed)
    tally["in the set"] = len(truth)
    tally["between extracted decisions"] = len(between)
    bench.links = tally | _score_closes(bench, store, rows, done)


def _score_closes(
    bench: SetBench, store: Store, rows: list[dict[str, Any]], done: dict[str, CaptureResult]
) -> dict[str, int]:
    """Action items memo closed (or proposed closing) by a later meeting, right when the set
    says that meeting closed them; items the set closes later that memo left open are missed."""
    item_truth: dict[int, dict[str, Any]] = {}
    file_of = {r.capture_id: f for f, r in done.items() if r.capture_id is not None}
    for row in rows:
        owed = store.captures.action_items([done[row["file"]].capture_id or 0])
        for ours, wanted in labelled.match(owed, row["actions"]):
            item_truth[ours.id] = wanted | {"file": row["file"]}
    tally = {f"closed {s} {v}": 0 for s in ("applied", "proposed") for v in ("right", "wrong")}
    closed: set[int] = set()
    for change in store.changes.all():
        if change.kind != "closes":
            continue
        later = (item_truth.get(change.old_id) or {}).get("closed_by") or ""
        right = bool(later) and later.split("#")[0] == file_of.get(change.capture_id)
        state = "applied" if change.status == "applied" else "proposed"
        tally[f"closed {state} {'right' if right else 'wrong'}"] += 1
        closed.add(change.old_id)
        bench.link_notes.append(
            f"closed, {state} {'right' if right else 'wrong'}: {change.old_text[:50]!r} by "
            f"{change.evidence[:60]!r}"
        )
    later_closed = [
        i
        for i, w in item_truth.items()
        if w.get("closed_by") and w["closed_by"].split("#")[0] != w["file"]
    ]
    tally["closed later in the set"] = len(later_closed)
    tally["closed missed"] = sum(1 for i in later_closed if i not in closed)
    return tally


def _score_file(
    found: SetFile,
    row: dict[str, Any],
    raw: str,
    extracted: tuple[list[DecisionRecord], list[ActionItemRecord]],
    member: Callable[[int | None], str | None],
) -> None:
    decisions, actions = extracted
    every: list[DecisionRecord | ActionItemRecord] = [*decisions, *actions]
    false_lines = {
        id(i): _near_miss(i.evidence_quote or i.description, row["not_decisions"]) for i in every
    }
    kept_d = [d for d in decisions if false_lines[id(d)] is None]
    kept_a = [a for a in actions if false_lines[id(a)] is None]
    for item in every:
        line = false_lines[id(item)]
        if line is not None:
            where = found.injected if _injected(line, raw) else found.near_misses
            where.append(f"{item.description[:70]}  <- {line[:60]}")
    truth_d, truth_a = row["decisions"], row["actions"]
    pairs_d = labelled.match(kept_d, truth_d)
    _tally(found.decisions, decisions, truth_d, pairs_d)
    here = {d.id for d in decisions}
    current = [  # held when its meeting ended: current, or replaced by a later meeting only
        d
        for d in decisions
        if getattr(d, "status", "current") == "current"
        or (d.status == "superseded" and d.superseded_by not in here)
    ]
    final = [d for d in truth_d if d.get("final", True)]
    pairs_f = labelled.match([d for d in current if false_lines[id(d)] is None], final)
    _tally(found.final, current, final, pairs_f)
    reversed_ = [d for d in truth_d if not d.get("final", True)]
    found.reversed_current = [
        f"{ours.description[:70]}  (reversed: {wanted['text'][:50]})"
        for ours, wanted in labelled.match(current, reversed_)
        if not any(ours is o for o, _ in pairs_f)
    ]
    pairs_a = labelled.match(kept_a, truth_a)
    _tally(found.actions, actions, truth_a, pairs_a)
    for action, wanted in pairs_a:
        found.owners_right += member(action.person_id) == wanted["owner"]
        found.dues_right += _due_right(action.due_date, wanted.get("due"))
    for decision, wanted in pairs_d:
        kind = _reason_kind(decision.reasoning, wanted.get("reason"))
        if kind:
            found.reasons[kind] = found.reasons.get(kind, 0) + 1
    matched = {id(o) for o, _ in [*pairs_d, *pairs_a]}
    _tally_asserted(found.asserted_decisions, decisions, truth_d, false_lines)
    _tally_asserted(found.asserted_actions, actions, truth_a, false_lines)
    found.judged = [(i.confidence, id(i) in matched) for i in every if i.confidence is not None]
    hit = {w["id"] for _, w in [*pairs_d, *pairs_a]}
    found.misses = [
        f"{w['id']} {w['text'][:80]}" for w in [*truth_d, *truth_a] if w["id"] not in hit
    ]
    found.false = [
        f"{'D' if isinstance(i, DecisionRecord) else 'A'} {i.description[:90]}"
        for i in every
        if false_lines[id(i)] is None and id(i) not in matched
    ]


def _tally_asserted(
    score: Score, ours: list[Any], truth: list[dict[str, Any]], false_lines: dict[int, str | None]
) -> None:
    """Asserted items alone, matched as all items are."""
    asserted = [i for i in ours if i.state == "asserted"]
    kept = [i for i in asserted if false_lines[id(i)] is None]
    _tally(score, asserted, truth, labelled.match(kept, truth))


def _tally(score: Score, ours: list[Any], truth: list[dict[str, Any]], pairs: list[Any]) -> None:
    score.ours += len(ours)
    score.ours_matched += len(pairs)
    score.human += len(truth)
    score.human_matched += len(pairs)


def _near_miss(quote: str, lines: list[str]) -> str | None:
    """The near-miss line (a proposal, a question, a recounted decision, an injected
    instruction) an item was taken from, if any."""
    said = " ".join(quote.lower().split())
    for line in lines:
        wanted = " ".join(line.lower().split())
        short, long_ = sorted((said, wanted), key=len)
        if len(short) >= 12 and (short in long_ or fuzz.partial_ratio(short, long_) >= NEAR):
            return line
    return None


def _injected(line: str, raw: str) -> bool:
    """A near-miss written by a bot or addressed to a model, rather than said by someone
    in the room: the file's line holding it, or the chat header above it, says so."""
    if addresses_a_model(line, None):
        return True
    lines = raw.splitlines()
    for index, text in enumerate(lines):
        if line[:40] not in text:
            continue
        header = index
        while header > 0 and lines[header][:1] in ("\t", " "):
            header -= 1
        speaker = lines[header].split(":", 1)[0] if header == index else lines[header]
        return is_bot(speaker)
    return False


def _reason_kind(ours: str | None, wanted: str | None) -> str | None:
    """A decision's reason against the truth's: right when they share two words of substance
    (the truth paraphrases), invented when the truth gives none, missed when we give none."""
    if not ours:
        return "missed" if wanted else None
    if not wanted:
        return "invented"
    shared = content_words(ours) & content_words(wanted)
    return "right" if len(shared) >= 2 else "wrong"


def _due_right(ours: str | dt.date | None, wanted: str | None) -> bool:
    if wanted is None or ours is None:
        return wanted is None and ours is None
    got = ours if isinstance(ours, dt.date) else dt.date.fromisoformat(str(ours)[:10])
    return abs((got - dt.date.fromisoformat(wanted)).days) <= 1
