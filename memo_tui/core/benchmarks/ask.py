"""`memo bench ask`: do answers hold up on a labelled set's questions (questions.jsonl)?

Every meeting is captured (oldest first) and embedded into a scratch store, then each question
is asked as a user would ask it. An answer passes, by kind:

- answerable (why, what, who, when, status): the answer holds an alternative from every
  `expect` group (the set's matching rule) and cites a fact of the question's meeting;
- `none`: the answer says there is no record, in its first line, rather than offering facts;
- `current`: the answer's lead (its first cited line or sentence) holds what holds now;
- `ambiguous`: the answer names both people the name could be, or asks which one.
"""

from __future__ import annotations

import datetime as dt
import re
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memo_tui.core.benchmarks import labelled
from memo_tui.core.benchmarks.recall import embed_all
from memo_tui.core.capture import CaptureOptions, CaptureService
from memo_tui.core.embed.service import Embedder
from memo_tui.core.llm.base import Provider
from memo_tui.core.recall.answer import AskResult, ask
from store import Store

Progress = Callable[[str], None]

ANSWERABLE = ("why", "what", "who", "when", "status")
KINDS = (*ANSWERABLE, "current", "none", "ambiguous")
_ASKS_WHICH = re.compile(r"\bwhich\b[^?\n]*\?", re.IGNORECASE)


@dataclass
class Asked:
    id: str
    kind: str
    question: str
    answer: str
    passed: bool
    why: str  # what the judge saw, for --detail
    cited_files: list[str] = field(default_factory=list)


@dataclass
class AskBench:
    data: str
    provider: str = "offline"
    meetings: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    asked: list[Asked] = field(default_factory=list)

    def of(self, kinds: tuple[str, ...]) -> list[Asked]:
        return [a for a in self.asked if a.kind in kinds]

    def score(self, kinds: tuple[str, ...]) -> tuple[int, int]:
        those = self.of(kinds)
        return sum(a.passed for a in those), len(those)

    def as_dict(self) -> dict[str, Any]:
        groups = {"answerable": ANSWERABLE, "current": ("current",), "none": ("none",)}
        groups["ambiguous"] = ("ambiguous",)
        return {
            "data": self.data,
            "provider": self.provider,
            "meetings": self.meetings,
            "seconds": {k: round(v, 1) for k, v in self.seconds.items()},
            "scores": {
                name: dict(zip(("passed", "of"), self.score(kinds), strict=True))
                for name, kinds in groups.items()
            },
            "questions": [vars(a) for a in self.asked],
        }


def _lead(answer: str) -> str:
    """The answer's first statement: its first line that cites a fact, else its first
    sentence (a model's prose)."""
    lines = [line for line in answer.splitlines() if line.strip()]
    for line in lines:
        if re.search(r"\[\d+\]", line):
            return line
    return re.split(r"(?<=[.!?])\s", answer.strip(), maxsplit=1)[0]


def cited_files(result: AskResult, files: dict[int, str]) -> list[str]:
    """The meeting files the answer cites, in order of first citation."""
    ids = [result.citations[n - 1].fact.capture_id for n in result.cited]
    return [files[i] for i in ids if i is not None and i in files]


def judge(question: dict[str, Any], result: AskResult, files: dict[int, str]) -> tuple[bool, str]:
    """Whether the answer passes for its kind, and what was judged."""
    kind, expect, answer = question["kind"], question["expect"], result.answer
    cited = cited_files(result, files)
    if kind == "none":
        first = answer.strip().splitlines()[0] if answer.strip() else ""
        return labelled.hit(first, expect), f"first line: {first[:100]}"
    if kind != "ambiguous" and result.no_record:  # facts under "No record of …" answer nothing
        return False, "said there is no record"
    if kind == "current":
        lead = _lead(answer)
        return labelled.hit(lead, expect), f"lead: {lead[:120]}"
    if kind == "ambiguous":
        if labelled.hit(answer, expect):
            return True, "names both"
        asks = _ASKS_WHICH.search(answer)
        return bool(asks), f"asks: {asks.group()}" if asks else "names one or neither"
    said = labelled.hit(answer, expect)
    from_meeting = question.get("meeting") is None or question["meeting"] in cited
    why = f"{'holds' if said else 'lacks'} the answer, {'cites' if from_meeting else 'not from'}"
    return said and from_meeting, f"{why} its meeting"


def run(
    data: Path,
    embedder: Embedder,
    progress: Progress | None = None,
    provider: Provider | None = None,
    model: str = "",
) -> AskBench:
    """Capture and embed the set in a scratch store, then ask each question."""
    labelled.require(data, "truth.jsonl", "questions.jsonl")
    say = progress or (lambda _: None)
    rows = labelled.meetings(data)
    questions = labelled.jsonl(data / "questions.jsonl")
    bench = AskBench(str(data), provider.name if provider else "offline")
    today = dt.date.fromisoformat(max(row["date"] for row in rows)) + dt.timedelta(days=30)
    with tempfile.TemporaryDirectory() as scratch, Store(Path(scratch) / "bench.db") as store:
        started = time.perf_counter()
        service = CaptureService(store, CaptureOptions(max_chars=10_000_000, user="bench"))
        done = labelled.capture_all(service, data, rows, Path(scratch))
        files = {r.capture_id: name for name, r in done.items() if r.capture_id is not None}
        bench.meetings = len(files)
        bench.seconds["capture"] = time.perf_counter() - started
        say(f"captured {len(files)} meetings")
        embed_all(store, embedder, 16, say)
        bench.seconds["embed"] = time.perf_counter() - started - bench.seconds["capture"]
        for n, question in enumerate(questions, 1):
            result = ask(store, embedder, question["q"], provider, model, today=today)
            passed, why = judge(question, result, files)
            bench.asked.append(
                Asked(
                    question["id"],
                    question["kind"],
                    question["q"],
                    result.answer,
                    passed,
                    why,
                    cited_files(result, files),
                )
            )
            if n % 10 == 0:
                say(f"asked {n}/{len(questions)}")
        bench.seconds["ask"] = time.perf_counter() - started - sum(bench.seconds.values())
    return bench


def format_report(bench: AskBench, detail: bool = False) -> str:
    seconds = ", ".join(f"{k} {v:.1f} s" for k, v in bench.seconds.items())
    lines = [f"ask ({bench.provider}) on {bench.data}: {bench.meetings} meetings ({seconds})"]
    for name, kinds, wants in (
        ("answerable", ANSWERABLE, "holds the answer and cites its meeting"),
        ("current", ("current",), "leads with what holds now"),
        ("none", ("none",), "says there is no record"),
        ("ambiguous", ("ambiguous",), "names both or asks which"),
    ):
        passed, total = bench.score(kinds)
        share = f"{passed / total:.0%}" if total else "-"
        lines.append(f"  {name:<11} {passed:>2}/{total:<2} {share:>5}  ({wants})")
    by_kind = [
        f"{kind} {passed}/{total}"
        for kind in ANSWERABLE
        for passed, total in [bench.score((kind,))]
        if total
    ]
    if by_kind:
        lines.append(f"  answerable by kind: {', '.join(by_kind)}")
    failed = [a for a in bench.asked if not a.passed]
    if failed:
        lines.append("failed: " + " ".join(a.id for a in failed))
    if detail:
        for a in bench.asked:
            lines += ["", f"{a.id} {a.kind} {'PASS' if a.passed else 'FAIL'}: {a.question}"]
            lines.append(f"  judged: {a.why}")
            lines += [f"  | {line}" for line in a.answer.splitlines()[:6]]
    return "\n".join(lines)
