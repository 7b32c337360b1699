"""`memo bench recall` scores retrieval the way it says it does, with the real embedding model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.embedding import INT8, model_path
from support.embedding import embedder as real_embedder

from memo_tui.core.benchmarks import recall, recall_report
from memo_tui.core.recall.search import Hit
from store import FactRecord

pytestmark = pytest.mark.slow

GARDEN = [
    "Ana: Good morning, thanks for joining the garden committee.",
    "Ben: Morning. The tomatoes did well this year.",
    "Ana: The compost bins need turning every second week.",
    "Ben: I can look at the hose by the shed.",
    "Cleo: The fence on the north side is leaning.",
    "Ana: Let us walk over there after this.",
    "Ben: Next, the greenhouse heater.",
    "Cleo: It broke in January and the seedlings nearly froze.",
    "Ana: The espresso machine budget for the volunteers' hut is still open too.",
    "Ben: Three hundred euros would cover a decent espresso machine.",
    "Cleo: Fine by me.",
    "Ana: Good, that is everything.",
]
FILLER = (
    "Dana: Item {n} of the routine status list was read out, checked against last week's "
    "sheet and noted without comment by the group, who moved on to the next line of it."
)
CAP = 2_000  # the bench's 40,000, scaled down to keep the meetings small


def office() -> list[str]:
    """A meeting past the cap whose one topic comes at the very end."""
    turns = [FILLER.format(n=n) for n in range(14)]
    return [*turns, "Eve: The parking garage permits run out in March, renew them early."]


QUERIES = [
    # keyword finds these: their words are only in the evidence turn's passage
    {"id": "q1", "meeting": "garden", "query": "espresso machine budget", "turns": [8]},
    {"id": "q2", "meeting": "office", "query": "parking garage permits", "turns": [14]},
    # the words are in the other meeting: a top fact from there is no hit, but the reference
    # answer's words (the bench's diagnostic) lead to the evidence
    {
        "id": "q3",
        "meeting": "garden",
        "query": "parking garage permits",
        "turns": [2],
        "answer": "The compost bins are to be turned every second week.",
    },
    # evidence on a turn no fact holds: counts against the ceiling
    {"id": "q4", "meeting": "garden", "query": "greenhouse heater", "turns": [99]},
]


def write_data(root: Path) -> Path:
    folder = root / "qmsum"
    (folder / "meetings").mkdir(parents=True)
    (folder / "meetings" / "garden.txt").write_text("\n".join(GARDEN) + "\n")
    (folder / "meetings" / "office.txt").write_text("\n".join(office()) + "\n")
    lines = [
        json.dumps(
            {
                "id": q["id"],
                "meeting": q["meeting"],
                "type": "specific",
                "query": q["query"],
                "evidence_turns": q["turns"],
                **({"answer": q["answer"]} if "answer" in q else {}),
            }
        )
        for q in QUERIES
    ]
    (folder / "queries.jsonl").write_text("\n".join(lines) + "\n")
    return root


def fact(fact_type: str, capture_id: int, start: int, end: int) -> Hit:
    record = FactRecord(1, fact_type, 1, "text", capture_id, "t", None, "", "file", "x", start, end)
    return Hit(record, 1.0, 1, None, None)


def test_a_hit_is_an_evidence_line_of_the_right_meeting_and_never_the_summary() -> None:
    summary, other, held = (
        fact("summary", 1, 1, 500),
        fact("excerpt", 2, 1, 6),
        fact("excerpt", 1, 7, 12),
    )
    assert recall.first_hit([summary, other, held], 1, (8,)) == 3  # turn 8 is line 9
    assert recall.first_hit([summary, other], 1, (8,)) is None
    assert recall.first_hit([held], 1, (5, 12)) is None  # lines 7-12 are turns 6-11


def test_bench_recall_reports_recall_mrr_ceiling_and_the_cap(tmp_path: Path) -> None:
    said: list[str] = []
    embedder = real_embedder()
    bench = recall.run(write_data(tmp_path / "data"), said.append, embedder=embedder, cap_chars=CAP)
    figures = json.loads(json.dumps(bench.as_dict()))
    scores = figures["scores"]
    assert figures["meetings"] == 2 and figures["queries"] == 4
    assert figures["ceiling"] == 0.75  # q4's evidence is on no fact
    assert bench.hit_by("store/keyword") == bench.hit_by("meeting/keyword") == {"q1", "q2"}
    assert scores["store/keyword"] == {"hits": 2, "recall": 0.5, "mrr": 0.5}  # both at rank 1
    assert bench.hit_by("store/hybrid") == {"q1", "q2"}
    assert "q4" not in bench.hit_by("store/vector@0") | bench.hit_by("store/ask")
    assert "store/ask" in scores and "meeting/hybrid@0.3" in figures["calibration"]
    assert figures["beyond_cap"] == {"cap_chars": CAP, "queries": 1, "hybrid_hits": 1}
    assert figures["hybrid_vs_single"]["store"]["keyword_hit_hybrid_missed"] == 0
    assert any("captured 2/2" in s for s in said) and any("embedded" in s for s in said)
    assert bench.hit_by("store/plain-rag") >= {"q1", "q2"}  # the baseline, in the same run
    assert figures["embedding"]["model"] == INT8 and figures["embedding"]["passages_per_s"] > 0
    assert figures["embedding"]["peak_rss_mb"] > 100  # the model alone takes more
    report = recall_report.format_report(bench)
    assert "ceiling (some stored fact holds evidence): 75.0%" in report
    assert "keyword" in report and ">= 0.3" in report
    assert "plain RAG" in report and "passages/s" in report and "specific (4)" in report


def test_bench_recall_says_where_the_misses_come_from(tmp_path: Path) -> None:
    """The diagnostics: whether the question's meeting comes first store-wide, and what the
    reference answer finds when searched in the question's place."""
    bench = recall.run(write_data(tmp_path / "data"), embedder=real_embedder(), cap_chars=CAP)
    probes = bench.probes
    assert probes["q1"]["own meeting"] == 1 and probes["q2"]["own meeting"] == 1
    assert probes["q3"]["own meeting"] != 1  # the office meeting holds its words
    assert "q3" not in bench.hit_by("store/hybrid") | bench.hit_by("meeting/keyword")
    assert probes["q3"]["answer/store"] == 1 and probes["q3"]["answer/meeting"] == 1
    assert "answer/store" not in probes["q1"]  # only questions with an answer are probed
    figures = json.loads(json.dumps(bench.as_dict()))["diagnostics"]
    assert figures["own_meeting"]["first"] == 0.75
    assert figures["own_meeting"]["hits"] == 3  # q3 brings up only the office meeting's facts
    assert figures["answer_as_query"]["store"] == {"hits": 1, "recall": 1.0, "mrr": 1.0}
    report = recall_report.format_report(bench)
    assert "its fact first store-wide for 75.0%" in report
    assert "the reference answer as the query: 100.0% store-wide, 100.0% own meeting" in report


def test_the_baseline_cuts_six_turn_chunks_and_fuses_bm25_with_vectors() -> None:
    from memo_tui.core.benchmarks.baseline import Baseline, first_hit

    def embed(texts: list[str]) -> list[list[float]]:  # two directions: 'garden' or not
        return [[1.0, 0.0] if "garden" in t.lower() else [0.0, 1.0] for t in texts]

    plain = Baseline(embed, batch=2)
    plain.add("garden", "\n".join(GARDEN) + "\n")
    plain.add("office", "\n".join(office()) + "\n")
    assert [(c.meeting, c.first, c.last) for c in plain.chunks[:3]] == [
        ("garden", 0, 5),
        ("garden", 6, 11),  # (the trailing empty line makes no chunk)
        ("office", 0, 5),
    ]
    plain.embed_all()
    found = plain.search("espresso machine budget", [0.0, 1.0], None)
    assert first_hit(found, "garden", (8,)) == 1  # BM25 puts its chunk first
    assert first_hit(found, "garden", (2,)) is not None  # turn 2: the first chunk, further down
    assert first_hit(found[:1], "office", (8,)) is None  # garden's turn 8 is not office's
    assert plain.chunks[-1].last == 14  # the office meeting's last turn
    within = plain.search("parking garage permits", [1.0, 0.0], "office")
    assert {c.meeting for c in within} == {"office"}
    assert first_hit(within, "office", (14,)) == 1


def test_the_cli_runs_both_search_benchmarks(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    env = {"MEMO_EMBED_MODEL_PATH": str(model_path())}
    data = write_data(tmp_path / "data")
    run = memo("bench", "recall", "--data", str(data), "--json", extra_env=env)
    assert run.code == 0, run.stderr
    assert run.json()["queries"] == 4 and "store/hybrid" in run.json()["scores"]
    search = memo("bench", "search", "--facts", "300", "--queries", "5", "--json")
    assert search.code == 0, search.stderr
    assert [size["facts"] for size in search.json()["sizes"]] == [300]
    bad = memo("bench", "search", "--facts", "0,abc")
    assert bad.code == 2 and "not a list" in bad.stderr
    missing = memo("bench", "recall", "--data", str(tmp_path / "nowhere"))
    assert missing.code == 2
