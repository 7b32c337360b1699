"""`memo review` as a user runs it: what waits, the transcript lines of one item, accept,
reject and edit, a JSON contract for scripts, and a clear refusal (exit 2, the store as it
was) for an item that is not there or a date that is not one."""

from __future__ import annotations

import hashlib
from pathlib import Path

MEETING = """\
Dana Whitfield: Okay so the vendor question. We go with Acme for the scanners, that's agreed.
Lee Chen: Agreed.
Dana Whitfield: Lee, can you send Acme the purchase order by Friday?
Lee Chen: Yes, I'll send it Friday.
"""


def _captured(memo, tmp_path: Path) -> tuple[Path, list[dict]]:  # type: ignore[no-untyped-def]
    """The meeting captured; its decisions and action items as `memo capture --json` gave
    them, each with its review handle."""
    source = tmp_path / "2026-03-02_vendor.txt"
    source.write_text(MEETING)
    db = tmp_path / "memo.db"
    run = memo("--db", str(db), "capture", str(source), "--json")
    assert run.code == 0, run.stderr
    [result] = run.json()["results"]
    items = [{**d, "item": f"d{d['id']}", "kind": "decision"} for d in result["decisions"]]
    items += [{**a, "item": f"a{a['id']}", "kind": "action_item"} for a in result["action_items"]]
    return db, items


def _facts(memo, db: Path, kind: str, item_id: int) -> list[dict]:  # type: ignore[no-untyped-def]
    facts = memo("--db", str(db), "facts", "--json").json()["facts"]
    return [f for f in facts if f["fact_type"] == kind and f["fact_id"] == item_id]


def test_review_shows_rejects_and_accepts_an_item(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, items = _captured(memo, tmp_path)
    [action] = [i for i in items if i["kind"] == "action_item"]
    assert action["state"] in ("asserted", "proposed") and 0 < action["confidence"] < 1

    shown = memo("--db", str(db), "review", "show", action["item"])
    assert shown.code == 0, shown.stderr
    line = action["evidence"]["lines"][0]
    assert f"   > {line:>5}  Dana Whitfield: Lee, can you send Acme" in shown.stdout

    user = {"MEMO_USER": "Dana Whitfield"}
    rejected = memo("--db", str(db), "review", "reject", action["item"], extra_env=user)
    assert rejected.code == 0 and f"rejected {action['item']}: rejected" in rejected.stdout
    assert not _facts(memo, db, "action_item", action["id"])
    listed = memo("--db", str(db), "review", "--all", "--json").json()["items"]
    [kept] = [i for i in listed if i["item"] == action["item"]]
    assert kept["state"] == "rejected" and kept["reviewed_by"] == "Dana Whitfield"
    assert action["item"] not in memo("--db", str(db), "review").stdout

    accepted = memo("--db", str(db), "review", "accept", action["item"], "--json")
    assert accepted.code == 0, accepted.stderr
    assert accepted.json()["state"] == "asserted"
    [fact] = _facts(memo, db, "action_item", action["id"])
    assert fact["state"] == "asserted" and "unconfirmed" not in fact["text"]


def test_review_refuses_what_it_cannot_do_and_changes_nothing(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db, items = _captured(memo, tmp_path)
    [action] = [i for i in items if i["kind"] == "action_item"]
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    for args, says in (
        (("accept", "a999"), "no action item 999"),
        (("reject", "banana"), "not an item"),
        (("edit", action["item"], "--due", "next friday"), "not a date"),
        (("edit", action["item"]), "say what to change"),
    ):
        run = memo("--db", str(db), "review", *args)
        assert run.code == 2, (args, run.stdout)
        assert says in run.stderr and "Traceback" not in run.stderr
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
