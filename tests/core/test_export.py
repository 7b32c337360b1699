"""`memo export markdown`: a vault of notes whose links all land, re-runs that rewrite only
what memo wrote and the user left alone, and names that stay inside the folder."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from memo_tui.core.export.markdown import notes
from memo_tui.core.export.vault import MANIFEST, safe_name, write_notes
from memo_tui.core.services import Services

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True


def files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in folder.rglob("*.md") if p.is_file()}


def test_every_link_in_the_vault_names_a_note_and_the_front_matter_is_there(
    services: Services, tmp_path: Path
) -> None:
    vault = tmp_path / "vault"
    done = write_notes(vault, notes(services))
    written = files(vault)
    assert sorted(done.written) == sorted(written) and not done.skipped
    stems = {Path(path).stem for path in written}
    links = {link for text in written.values() for link in re.findall(r"\[\[([^\]]+)\]\]", text)}
    assert links and links <= stems  # every [[link]] lands on a note of the vault
    meetings = [p for p in written if p.startswith("meetings/")]
    assert len(meetings) == len(services.store.captures.all())
    kickoff = next(written[p] for p in meetings if "Atlas kickoff" in p)
    front = kickoff.split("---\n")[1]
    assert 'date: "2026-09-08"' in front and '  - "[[Priya Natarajan]]"' in front
    assert '  - "[[Atlas]]"' in front and "memo_id: 1" in front
    assert "## Decisions\n- We're moving Atlas to Postgres" in kickoff
    assert "decided by [[Priya Natarajan]] (L38)" in kickoff
    assert "people/Priya Natarajan.md" in written and "projects/Beacon.md" in written
    log = written["Decision log.md"]
    assert "*(replaced by a later decision)*" in log  # the demo's moved Beacon rollout


def test_a_re_export_keeps_the_users_edits_and_files_and_deletes_nothing(
    services: Services, tmp_path: Path
) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, notes(services))
    again = write_notes(vault, notes(services))
    assert not again.written and not again.skipped and again.unchanged

    mine = vault / "people" / "Tom Adeyemi.md"
    mine.write_text(mine.read_text() + "\nMy own note about Tom.\n")
    (vault / "ideas.md").write_text("not memo's\n")
    (vault / "projects" / "Atlas.md").unlink()  # gone: memo writes it again
    third = write_notes(vault, notes(services, transcripts=True))
    assert "people/Tom Adeyemi.md" in third.skipped
    assert "projects/Atlas.md" in third.written
    assert all(p.startswith("meetings/") for p in third.written if p != "projects/Atlas.md")
    assert mine.read_text().endswith("My own note about Tom.\n")
    assert (vault / "ideas.md").read_text() == "not memo's\n"
    manifest: dict[str, Any] = json.loads((vault / MANIFEST).read_text())
    assert "ideas.md" not in manifest and "people/Tom Adeyemi.md" in manifest
    kickoff = next((vault / "meetings").glob("*Atlas kickoff*"))
    assert "## Transcript" in kickoff.read_text()
    assert not third.stale
    gone = next(c for c in services.store.captures.all() if "Cobalt" in c.title)
    assert services.store.captures.delete(gone.id)
    fourth = write_notes(vault, notes(services, transcripts=True))
    stale = [p for p in fourth.stale if p.startswith("meetings/")]
    assert stale == [p for p in manifest if p.startswith("meetings/") and f"({gone.id})" in p]
    assert all((vault / p).exists() for p in fourth.stale)  # said, never deleted


def test_names_from_titles_stay_one_safe_part() -> None:
    assert safe_name("../../etc/passwd") == "etc passwd"
    assert safe_name(".hidden\x1b[31m red") == "hidden 31m red"
    assert safe_name("Q3: plan | [[x]] #1?") == "Q3 plan x 1"
    assert safe_name("") == "untitled" and len(safe_name("a" * 500)) == 150
    assert len(safe_name("会" * 100).encode()) == 150  # bytes, whole characters


def test_each_decision_is_a_record_and_a_replaced_one_links_its_successor(
    services: Services, tmp_path: Path
) -> None:
    from memo_tui.core.export.adr import records

    store = services.store
    decisions = store.captures.decisions([c.id for c in store.captures.all()])
    folder = tmp_path / "adr"
    done = write_notes(folder, records(store))
    written = files(folder)
    assert len(written) == len(decisions) == len(done.written)
    by_id = {int(path[:4]): text for path, text in written.items()}
    for decision in decisions:
        text = by_id[decision.id]
        assert f"## Decision Outcome\n\n{decision.description}" in text
        if decision.status == "superseded":
            target = re.search(r"\* Status: superseded by \[[^\]]+\]\(([^)]+)\)", text)
            assert target and (folder / target.group(1)).exists()
            assert target.group(1).startswith(f"{decision.superseded_by:04d}-")
        else:  # accepted only when memo is sure of it, or the user said yes
            said = "accepted" if decision.state == "asserted" else "proposed (unconfirmed)"
            assert f"* Status: {said}\n" in text
    assert any(d.status == "superseded" for d in decisions)
    assert not write_notes(folder, records(store)).written  # a re-run changes nothing


def test_a_decision_the_user_accepts_is_exported_as_accepted(
    services: Services, tmp_path: Path
) -> None:
    from memo_tui.core.export.adr import records
    from memo_tui.core.history.review import ReviewService

    store = services.store
    decisions = store.captures.decisions([c.id for c in store.captures.all()])
    unsure = next(d for d in decisions if d.current)
    store.review.settle("decision", unsure.id, {"state": "proposed"})
    folder = tmp_path / "adr"
    write_notes(folder, records(store))
    [path] = [p for p in files(folder) if int(p[:4]) == unsure.id]
    assert "* Status: proposed (unconfirmed)\n" in (folder / path).read_text()

    ReviewService(store, "Dana").decide(f"d{unsure.id}", "accept")

    assert write_notes(folder, records(store)).written == [path]
    assert "* Status: accepted\n" in (folder / path).read_text()


def test_a_record_whose_decision_is_gone_is_marked_deprecated_unless_the_user_edited_it(
    services: Services, tmp_path: Path
) -> None:
    from memo_tui.core.export.adr import NO_LONGER_HELD, records, retired

    store = services.store
    for decision in store.captures.decisions([c.id for c in store.captures.all()]):
        store.review.settle("decision", decision.id, {"state": "asserted"})  # (the user said yes)
    folder = tmp_path / "adr"
    write_notes(folder, records(store), retired)
    gone = next(c for c in store.captures.all() if c.title == "Cobalt billing design")
    ids = {d.id for d in store.captures.decisions([gone.id])}
    theirs = sorted(p for p in files(folder) if int(p[:4]) in ids)
    assert len(theirs) == 3  # (one of them replaced by another)
    edited = folder / theirs[1]
    edited.write_text(edited.read_text() + "\nWe still hold to this.\n")
    kept = folder / theirs[2]
    assert store.captures.delete(gone.id)
    done = write_notes(folder, records(store), retired)
    assert done.stale == theirs and not done.written and not done.failed
    assert done.retired == [theirs[0], theirs[2]]  # not the one the user edited
    assert edited.read_text().endswith("We still hold to this.\n")  # the user's: untouched
    assert "* Status: accepted" in edited.read_text()
    text = kept.read_text()
    assert f"* Status: {NO_LONGER_HELD}\n" in text and "* Status: accepted" not in text
    assert "## Decision Outcome" in text  # the rest of the record stays
    replaced = (folder / theirs[0]).read_text()  # its status keeps the link it had
    assert re.search(rf"\* Status: {re.escape(NO_LONGER_HELD)}; it was superseded by \[", replaced)
    again = write_notes(folder, records(store), retired)
    assert again.stale == theirs and kept.read_text() == text  # once is enough
    assert (folder / theirs[0]).read_text() == replaced


def test_long_and_twin_titles_get_their_own_files_and_one_failure_stops_nothing(
    services: Services, tmp_path: Path
) -> None:
    long = "Quarterly planning for the northern depots and the " + "very " * 30 + "long tail"
    made = [
        services.capture.capture_text(f"Ana: We decided {n}.\n", f"{long}.txt", "txt")
        for n in ("one thing", "another thing")
    ]
    wide = services.capture.capture_text("Ana: 好。\n", "会议" * 120 + ".txt", "txt")
    assert all(r.ok for r in [*made, wide])
    vault = tmp_path / "vault"
    elsewhere = tmp_path / "people-elsewhere"
    elsewhere.mkdir()
    vault.mkdir()
    (vault / "people").symlink_to(elsewhere)  # a vault's own link: the user's to make
    (vault / "Decision log.md").mkdir()  # a file memo cannot write
    done = write_notes(vault, notes(services))
    assert list(done.failed) == ["Decision log.md"]
    ids = {r.capture_id for r in [*made, wide]}
    meetings = [p for p in done.written if any(p.endswith(f"({i}).md") for i in ids)]
    assert len(meetings) == 3  # the twins apart, the wide one written
    assert all(len(Path(p).name.encode()) <= 160 for p in meetings)
    assert any(elsewhere.iterdir())  # people's notes went through the link
    assert "Decision log.md" not in json.loads((vault / MANIFEST).read_text())
    assert set(done.written) <= set(json.loads((vault / MANIFEST).read_text()))
