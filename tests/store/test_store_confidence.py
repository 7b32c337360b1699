"""How sure memo is of a fact, stored: confidence, state and the judge's version, on a
SQLite file and on PostgreSQL, and in every item's JSON."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.embedding import INT8_FOLDER, model_path
from support.postgres import fresh_database
from support.services import offline

from memo_tui import render
from memo_tui.core.capture.offline import judge as judged

BOTH_STORES = True

MEETING = """\
Dana: Okay so the vendor question. We go with Acme for the scanners, that's agreed.
Lee: Agreed.
Dana: Lee, can you send Acme the purchase order by Friday?
Lee: Yes, I'll send it Friday.
Sam: No concerns from my side.
"""


def test_a_capture_stores_each_items_confidence_and_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    source = tmp_path / "2026-03-02_vendor.txt"
    source.write_text(MEETING)
    services = offline(
        tmp_path,
        monkeypatch,
        location=None if backend == "sqlite" else fresh_database(),
        embed_model_path=model_path(),
        embed_int8_dir=INT8_FOLDER,
    )
    try:
        result = services.capture.capture_paths([source])[0]
        assert result.status == "captured", result.error
        decisions, actions = services.store.captures.items([result.capture_id or 0])
        assert decisions and actions
        version = f"{judged.shipped().version}/embedded"
        for item in [*decisions, *actions]:
            assert item.confidence is not None and 0 < item.confidence < 1
            assert item.state in ("asserted", "proposed")
            assert item.model_version == version and item.reviewed_by is None
        shown = [render.decision_json(d) for d in decisions]
        shown += [render.action_json(a) for a in actions]
        for item, record in zip(shown, [*decisions, *actions], strict=True):
            assert item["confidence"] == round(record.confidence or 0, 3)
            assert item["state"] == record.state
        meta = services.store.captures.meta(result.capture_id or 0)
        assert meta["judge"] == {"model_version": version, "note": None}
    finally:
        services.close()


def test_facts_from_before_the_judge_stay_asserted(store: object) -> None:
    """A fact written with no judgement (an older memo, a model's extractor) is asserted,
    as every fact was before: the column's default."""
    from store import NewActionItem

    item = NewActionItem("Send the order.", None, None, None, None, None)
    assert item.state == "asserted" and item.confidence is None
