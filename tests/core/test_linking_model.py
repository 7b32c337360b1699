"""The learned linker: which decision of a later meeting replaces one an earlier meeting made,
with the real embedding model and the shipped weights; the rules when the model is not here."""

from __future__ import annotations

from pathlib import Path

from support.embedding import captured_in_order, embedder

from memo_tui.core.history import linking_model
from store import HistoryDecision, Store

PLANNED = """Rollout planning
Date: 2026-02-02
Attendees: Nadia Roy, Omar Haddad, Lena Park

Nadia Roy: So where do we land on the pilot depot?
Omar Haddad: Leeds has the cleanest data and the manager is keen.
Nadia Roy: Okay, let's go with Leeds for the pilot, forty drivers.
Lena Park: And launch?
Nadia Roy: We launch the pilot on the sixteenth of March. That's decided.
"""
MOVED = """Rollout check-in
Date: 2026-03-09
Attendees: Nadia Roy, Omar Haddad, Lena Park

Nadia Roy: Bad news first, the routing fix isn't ready.
Omar Haddad: So we slip?
Nadia Roy: Yes. Decision: we move the pilot launch to the thirtieth of March.
Lena Park: Leeds are fine with that.
Nadia Roy: And we'll order twenty new label printers for the depot, that's agreed.
"""


def _links(tmp_path: Path, learned: bool) -> list[tuple[str, str, str, str]]:
    with Store(tmp_path / "memo.db") as store:
        captured_in_order(
            store,
            tmp_path,
            [*(("2026-02-02-plan.txt", PLANNED), ("2026-03-09-check.txt", MOVED))],
            learned,
        )
        return [
            (c.status, c.old_text, c.new_text or "", f"{c.reason} {c.model_version}")
            for c in store.changes.all()
            if c.kind == "supersedes"
        ]


def test_the_linker_proposes_the_call_a_later_meeting_moves(tmp_path: Path) -> None:
    linker = linking_model.shipped()
    assert linker is not None
    [(status, old, new, reason)] = _links(tmp_path, learned=True)
    assert status == "proposed"  # never applied on its own: no cut made no wrong link
    assert old.startswith("We launch the pilot on the sixteenth")
    assert new.startswith("We move the pilot launch to the thirtieth")
    assert "16 → 30" in reason and linker.version in reason and "%" in reason


def test_without_the_embedding_model_the_rules_link(tmp_path: Path) -> None:
    [(status, old, _, reason)] = _links(tmp_path, learned=False)
    assert status == "proposed" and old.startswith("We launch the pilot")
    assert "%" not in reason and reason.endswith("None")  # no probability, no model


def _call(id: int, quote: str, subject: str, projects: tuple[int, ...] = ()) -> HistoryDecision:
    return HistoryDecision(id, id, "2026-02-02", "", quote, quote, subject, "current", projects)


def test_only_calls_about_a_shared_word_of_one_project_are_paired() -> None:
    new = _call(3, "We move the pilot launch to the 30th.", "launch pilot #@30", (1,))
    earlier = [
        _call(1, "We launch the pilot on the 16th.", "launch pilot #@16", (1,)),
        _call(2, "The pilot launch is on the 9th.", "launch pilot #@9", (2,)),  # another project
        _call(4, "Lunch is at one.", "lunch", (1,)),
    ]
    context = (lambda w: 2.0, frozenset[str](), lambda w: False)
    pairs, verdicts, inputs = linking_model.candidates([new], earlier, context, embedder().embed)
    assert [(p.earlier, p.later) for p in pairs] == [(0, 0)]
    assert verdicts[0] is not None and inputs.shape == (1, linking_model.INPUTS)


def test_the_shipped_linker_and_its_card_agree() -> None:
    linker = linking_model.shipped()
    assert linker is not None
    card = linking_model.WEIGHTS.with_suffix(".md").read_text()
    assert linker.version in card and f"`propose_at` {round(linker.propose_at, 4)}" in card
    assert 0.0 < linker.propose_at < 1.0 and linker.apply_at > linker.propose_at
    assert linking_model.WEIGHTS.stat().st_size < 20_000
