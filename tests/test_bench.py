"""`memo bench extract` scores against annotations the way it says it does."""

from __future__ import annotations

import json
from pathlib import Path

MEETING = [
    "Priya Natarajan: Welcome, let's look at the database options.",
    "Sam Chen: MySQL would be fine for me.",
    "Priya Natarajan: Final call: we're moving Atlas to Postgres.",
    "Sam Chen: Okay.",
    "Priya Natarajan: Tom, can you set up staging by Friday?",
    "Tom Adeyemi: Yes, will do.",
]


def test_bench_extract_reports_precision_recall_and_throughput(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data = tmp_path / "data"
    data.mkdir()
    (data / "M1.txt").write_text("\n".join(MEETING) + "\n")
    (data / "M1.json").write_text(
        json.dumps(
            {
                "actions_annotated": True,
                "decisions": [
                    {"text": "Postgres for Atlas.", "evidence_turns": [2]},  # what we find
                    {"text": "A decision we miss.", "evidence_turns": [40]},
                    {"text": "No evidence given.", "evidence_turns": []},
                ],
                "actions": [{"text": "Tom sets up staging.", "evidence_turns": [4]}],
            }
        )
    )
    run = memo("bench", "extract", "--data", str(data), "--window", "0", "--json")
    assert run.code == 0, run.stderr
    figures = run.json()
    decisions, actions = figures["scores"]["decisions"], figures["scores"]["actions"]
    assert (decisions["ours"], decisions["ours_matched"]) == (1, 1)
    assert (decisions["human"], decisions["human_matched"]) == (2, 1)
    assert decisions["precision"] == 1.0 and decisions["recall"] == 0.5
    assert actions["precision"] == 1.0 and actions["recall"] == 1.0
    assert figures["human_items_without_evidence_skipped"] == 1
    assert figures["meetings"] == 1 and figures["transcripts_per_second"] > 0
    assert "evidence-turn overlap" in figures["matching"]
    plain = memo("bench", "extract", "--data", str(data))
    assert "precision" in plain.stdout and "transcripts/s" in plain.stdout
    assert memo("bench", "extract", "--data", str(tmp_path / "missing")).code == 2
