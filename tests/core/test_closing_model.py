"""The learned closer: which sentence of a later meeting says an earlier task is done, with the
real embedding model and the shipped weights; the rules when the model is not here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from support.embedding import captured_in_order, embedder

from memo_tui.core.capture.offline import OfflineExtractor, judge_embed
from memo_tui.core.capture.offline.pairs import Pair, assign
from memo_tui.core.capture.service import CaptureOptions, CaptureService
from memo_tui.core.history import closing_model
from memo_tui.core.history.closing_model import Sentence, Task, denied
from memo_tui.core.history.service import ChangesService
from store import Store

ASKED = """Ops weekly
Date: 2026-02-02
Attendees: Nadia Roy, Omar Haddad, Lena Park

Nadia Roy: Omar, can you send the courier contract to legal by Friday?
Omar Haddad: Will do.
Nadia Roy: Lena, can you book the forklift inspection for next week?
Lena Park: Sure.
Nadia Roy: Omar, can you order the spare scanner batteries by Thursday?
Omar Haddad: Yes.
Nadia Roy: Lena, can you confirm the delivery slot with the freight company?
Lena Park: Fine.
"""
# Status said as people say it: no "done", "sent" or "finished" in the two that are done.
UPDATED = """Ops weekly
Date: 2026-02-09
Attendees: Nadia Roy, Omar Haddad, Lena Park

Nadia Roy: Quick round of updates.
Lena Park: The freight company confirmed the delivery slot, Tuesday at seven.
Omar Haddad: Legal has the courier contract, they're reviewing it now.
Lena Park: The forklift inspection isn't booked yet, the firm hasn't called back.
Nadia Roy: And the scanner batteries?
Omar Haddad: Still waiting on the supplier.
"""


def _closes(tmp_path: Path, learned: bool) -> list[tuple[str, str, str]]:
    with Store(tmp_path / "memo.db") as store:
        captured_in_order(
            store,
            tmp_path,
            [*(("2026-02-02-ops.txt", ASKED), ("2026-02-09-ops.txt", UPDATED))],
            learned,
        )
        return [
            (c.status, c.evidence, f"{c.reason} {c.confidence} {c.model_version}")
            for c in store.changes.all()
            if c.kind == "closes"
        ]


def test_the_closer_proposes_closes_said_without_the_rules_words(tmp_path: Path) -> None:
    """The freight company confirming the slot and legal having the contract close those two
    tasks; the inspection not booked yet and the batteries still awaited close nothing."""
    closer = closing_model.shipped()
    assert closer is not None
    found = _closes(tmp_path, learned=True)
    assert {evidence for _, evidence, _ in found} == {
        "The freight company confirmed the delivery slot, Tuesday at seven.",
        "Legal has the courier contract, they're reviewing it now.",
    }
    assert {status for status, _, _ in found} == {"proposed"}  # never applied on its own
    assert all("judged done (" in reason and closer.version in reason for *_, reason in found)


def test_without_the_embedding_model_the_rules_close(tmp_path: Path) -> None:
    """The rules need a done word ("sent", "finished", "went out"): none here."""
    assert _closes(tmp_path, learned=False) == []


def test_a_scan_closes_with_the_closer_when_the_model_is_here(tmp_path: Path) -> None:
    model = embedder()
    with Store(tmp_path / "memo.db") as store:
        service = CaptureService(store, CaptureOptions(user="t"), OfflineExtractor(model))
        for name, text in (("2026-02-02-ops.txt", ASKED), ("2026-02-09-ops.txt", UPDATED)):
            (tmp_path / name).write_text(text)
            service.capture_paths([tmp_path / name])
        assert store.changes.all() == []  # captured before memo could close by the model
        scanned = ChangesService(store, "t", embed=lambda: judge_embed(model)).scan()
        assert len(scanned.found) == 2 and {c.kind for c in scanned.found} == {"closes"}


@pytest.mark.parametrize(
    ("said", "vetoed"),
    [
        ("The forklift inspection isn't booked yet.", True),  # a done word, negated
        ("It hasn't been sent.", True),
        ("Still waiting on the supplier.", True),
        ("I didn't get to the rota.", True),
        ("Deepak's not here but he signed the break clause notice.", False),  # done, said
        ("The freight company confirmed the slot.", False),
    ],
)
def test_a_sentence_that_says_not_done_closes_nothing(said: str, vetoed: bool) -> None:
    assert denied(said) is vetoed


def test_each_sentence_closes_one_task_and_each_task_is_closed_once() -> None:
    pairs = [Pair(0, 0), Pair(1, 0), Pair(0, 1), Pair(1, 1), Pair(2, 2)]
    chosen = assign(pairs, np.asarray([0.9, 0.8, 0.85, 0.7, 0.2]))
    assert [(p.earlier, p.later, round(p.probability, 2)) for p in chosen] == [
        (0, 0, 0.9),
        (1, 1, 0.7),  # task 0 is taken by sentence 0, so sentence 1 closes task 1
        (2, 2, 0.2),
    ]


def test_only_a_task_and_a_sentence_sharing_a_key_word_are_paired() -> None:
    tasks = [Task("Send the courier contract to legal.", "Omar Haddad"), Task("Book it.", None)]
    said = [
        Sentence("Omar Haddad", "Legal has the courier contract now."),
        Sentence("Lena Park", "Lunch is at one."),
    ]
    pairs, inputs = closing_model.candidates(tasks, said, [], embedder().embed)
    assert [(p.earlier, p.later) for p in pairs] == [(0, 0)]
    assert inputs.shape == (1, closing_model.PAIR + closing_model.HASHED)
    cosine, by_owner = inputs[0][0], inputs[0][12]
    assert 0.3 < cosine < 1.0 and by_owner == 1.0


def test_the_shipped_closer_and_its_card_agree() -> None:
    closer = closing_model.shipped()
    assert closer is not None
    card = closing_model.WEIGHTS.with_suffix(".md").read_text()
    assert closer.version in card and f"`propose_at` {round(closer.propose_at, 4)}" in card
    assert 0.0 < closer.propose_at < 1.0 and closer.apply_at > closer.propose_at
    assert closing_model.WEIGHTS.stat().st_size < 100_000


def test_a_close_stores_its_confidence_and_model_and_json_carries_them(
    memo, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from support.embedding import model_path

    with_model = {"MEMO_EMBED_MODEL_PATH": str(model_path())}
    for name, text in (("2026-02-02-ops.txt", ASKED), ("2026-02-09-ops.txt", UPDATED)):
        (tmp_path / name).write_text(text)
        shown = memo("capture", str(tmp_path / name), extra_env=with_model)
        assert shown.code == 0, shown.stderr
    closer = closing_model.shipped()
    assert closer is not None
    closes = memo("changes", "--json").json()["changes"]
    assert len(closes) == 2 and {c["kind"] for c in closes} == {"closes"}
    for close in closes:  # the capture said how sure memo is of each
        assert f"(2026-02-02, {close['confidence']:.0%} sure): memo changes" in shown.stdout
    for close in closes:
        assert closer.propose_at <= close["confidence"] < 1.0
        assert close["model_version"] == closer.version
        assert f"({close['confidence']:.0%})" in close["reason"]
