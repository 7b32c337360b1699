"""The copies model: the same call or task said twice in other words leaves one item, with
the real embedding model and the shipped weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from support.embedding import embedder

from memo_tui.core.capture.files import read_file
from memo_tui.core.capture.formats.base import Turn
from memo_tui.core.capture.offline import copies
from memo_tui.core.capture.offline.extractor import extract
from memo_tui.core.capture.offline.items import Item
from memo_tui.core.capture.offline.pairs import Logistic
from memo_tui.core.capture.sources import captured_name, parse

CUTOVER = Path(__file__).parent.parent / "data" / "copies" / "2026-05-11_cutover.txt"
CUT_OFF = "The database replicas go up thursday and."
WHOLE = "The database replicas go up thursday in dublin and then we cut over on the saturday night."


def _decisions(embedded: bool) -> list[str]:
    text, hint = read_file(CUTOVER, 400_000)
    transcript = parse(text, captured_name(CUTOVER), hint)
    found = extract(transcript, embedder().embed if embedded else None)
    return [d.description for d in found.decisions]


def test_a_call_cut_off_and_said_again_whole_is_one_item() -> None:
    """Speech to text cut the call off ("... go up thursday and"); said again whole, the
    whole one stands. On words alone (no embedding model) both stay."""
    with_model = _decisions(embedded=True)
    assert WHOLE in with_model and CUT_OFF not in with_model
    assert {WHOLE, CUT_OFF} <= set(_decisions(embedded=False))


def _call(turn: int, quote: str) -> Item:
    return Item("decision", (turn, 0), turn, quote, description=quote, confidence=0.9)


def test_a_call_replaced_by_a_dropped_copy_points_at_the_one_that_stands() -> None:
    """The earlier of two copies goes; a call it replaced now points at the later one."""
    turns = [Turn(n + 1, "Ana", text, (n + 1, n + 1)) for n, text in enumerate("abc")]
    old, copy, standing = (
        _call(0, "We open on the 18th of June."),
        _call(1, "We open on the 25th of June."),
        _call(2, "So we open on the 25th of June, then."),
    )
    old.superseded_by = copy
    sure = Logistic(  # a model sure of every pair it reads
        {
            "coef": np.zeros(copies.INPUTS, dtype=np.float32),
            "bias": np.float32(10.0),
            "calibration": np.asarray([1.0, 0.0], dtype=np.float32),
            "thresholds": np.asarray([0.5, 1.01], dtype=np.float32),
        },
        "test",
    )
    kept = copies.without_copies([old, copy, standing], turns, embedder().embed, sure)
    assert kept == [old, standing] and old.superseded_by is standing


def test_the_shipped_copies_model_and_its_card_agree() -> None:
    model = copies.shipped()
    assert model is not None
    card = copies.WEIGHTS.with_suffix(".md").read_text()
    assert model.version in card and f"`propose_at` {round(model.propose_at, 4)}" in card
    assert 0.5 < model.propose_at < 1.0
    assert copies.WEIGHTS.stat().st_size < 20_000
