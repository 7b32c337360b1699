"""`memo bench extract`: the extractor against human decision/action annotations.

Two kinds of set, told apart by their files:
- a labelled meeting set (truth.jsonl, like ../shared/data/dev-meetings): `extract_set`
  scores it, and `extract_report` prints it;
- QMSum-style annotations (<id>.txt + <id>.json): one of our items matches a human item
  when our evidence line range, widened by `window` turns each side, contains one of the
  human item's evidence turns. Lines are 1-based in memo and turns 0-based in the data.
"""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.capture.service import Extractor
from memo_tui.core.capture.sources import Transcript
from store import Store


@dataclass
class Score:
    ours: int = 0
    ours_matched: int = 0
    human: int = 0
    human_matched: int = 0

    @property
    def precision(self) -> float:
        return self.ours_matched / self.ours if self.ours else 0.0

    @property
    def recall(self) -> float:
        return self.human_matched / self.human if self.human else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "ours": self.ours,
            "ours_matched": self.ours_matched,
            "human": self.human,
            "human_matched": self.human_matched,
            "precision": round(self.precision, 3),
            "recall": round(self.recall, 3),
            "f1": round(self.f1, 3),
        }


@dataclass
class ExtractBench:
    meetings: int = 0
    chars: int = 0
    seconds: float = 0.0
    window: int = 2
    scores: dict[str, Score] = field(default_factory=dict)
    human_without_evidence: int = 0
    extract_seconds: float = 0.0
    extractor: str = "offline extractor"

    def as_dict(self) -> dict[str, object]:
        return {
            "extractor": self.extractor,
            "meetings": self.meetings,
            "chars": self.chars,
            "seconds": round(self.seconds, 3),
            "transcripts_per_second": round(self.meetings / self.seconds, 2) if self.seconds else 0,
            "chars_per_second": round(self.chars / self.seconds) if self.seconds else 0,
            "extractor_chars_per_second": round(self.chars / self.extract_seconds)
            if self.extract_seconds
            else 0,
            "matching": f"evidence-turn overlap, our line range widened by {self.window} turns",
            "human_items_without_evidence_skipped": self.human_without_evidence,
            "scores": {key: score.as_dict() for key, score in sorted(self.scores.items())},
        }


def _matches(ranges: list[tuple[int, int]], turns: list[int], window: int) -> list[bool]:
    """For each of our ranges (0-based turns), whether it touches any of `turns`."""
    return [any(a - window <= t <= b + window for t in turns) for a, b in ranges]


def _score(
    bench: ExtractBench, key: str, ours: list[tuple[int, int]], human: list[dict[str, object]]
) -> None:
    score = bench.scores.setdefault(key, Score())
    with_evidence = [h for h in human if h.get("evidence_turns")]
    score.ours += len(ours)
    matched_ours = [False] * len(ours)
    for item in with_evidence:
        turns = [int(t) for t in item["evidence_turns"]]  # type: ignore[attr-defined]
        hits = _matches(ours, turns, bench.window)
        score.human += 1
        score.human_matched += any(hits)
        matched_ours = [m or h for m, h in zip(matched_ours, hits, strict=True)]
    score.ours_matched += sum(matched_ours)


def bench_service(store: Store, extractor: Extractor | None) -> CaptureService:
    options = CaptureOptions(max_chars=10_000_000, user="bench")
    if extractor is None:
        return CaptureService(store, options)
    # the offline extractor's embedding model, when it is here, is the closer's too
    return CaptureService(
        store, options, extractor=extractor, embed=getattr(extractor, "embed", None)
    )


class Timed(Protocol):
    """A bench that counts the extractor's own time and the characters it read."""

    extract_seconds: float
    chars: int


def time_extraction(service: CaptureService, bench: Timed, count_chars: bool = False) -> None:
    """Add the extractor's own time (not parsing or writing) to `bench.extract_seconds`; the
    offline rules load first, so their import is not counted as extraction."""
    import memo_tui.core.capture.offline.extractor  # noqa: F401

    extractor = service.extractor

    def timed(transcript: Transcript) -> object:
        began = time.perf_counter()
        try:
            return extractor(transcript)
        finally:
            bench.extract_seconds += time.perf_counter() - began
            bench.chars += len(transcript.text) if count_chars else 0

    service.extractor = timed  # type: ignore[assignment]


def _ranges(records: list[object]) -> list[tuple[int, int]]:
    found = []
    for record in records:
        start, end = getattr(record, "line_start", None), getattr(record, "line_end", None)
        if start is not None and end is not None:
            found.append((start - 1, end - 1))
    return found


def run(data_dir: Path, window: int = 2, extractor: Extractor | None = None) -> ExtractBench:
    """Capture every annotated meeting into a scratch store and score what was extracted
    (by the offline rules unless an `extractor` is given)."""
    bench = ExtractBench(window=window)
    annotations = sorted(data_dir.glob("*.json"))
    if not annotations:
        raise FileNotFoundError(f"no annotation .json files in {data_dir}")
    with tempfile.TemporaryDirectory() as scratch, Store(Path(scratch) / "bench.db") as store:
        service = bench_service(store, extractor)
        bench.extractor = service.extractor_name
        time_extraction(service, bench)
        for path in annotations:
            truth = json.loads(path.read_text(encoding="utf-8"))
            text = path.with_suffix(".txt").read_text(encoding="utf-8")
            started = time.perf_counter()
            result = service.capture_text(text, path.with_suffix(".txt").name, "txt")
            bench.seconds += time.perf_counter() - started
            bench.meetings += 1
            bench.chars += len(text)
            corpus = "ami" if truth.get("actions_annotated") else "icsi"
            items = truth["decisions"] + (
                truth["actions"] if truth.get("actions_annotated") else []
            )
            bench.human_without_evidence += sum(1 for i in items if not i.get("evidence_turns"))
            decisions = _ranges(list(result.decisions))
            _score(bench, "decisions", decisions, truth["decisions"])
            _score(bench, f"decisions_{corpus}", decisions, truth["decisions"])
            if truth.get("actions_annotated"):
                _score(bench, "actions", _ranges(list(result.action_items)), truth["actions"])
    return bench
