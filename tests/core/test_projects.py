"""Projects and clients renamed and deleted, and a living document's sections edited and
given back to the agent: in the store, through the core services, and as `memo` runs them.

The demo store (a copy per test) has Atlas, Beacon (client Halvorsen Freight, one note) and
Cobalt; Halvorsen Freight has one note of its own."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from support.db import dump

from memo_tui.core.agents.agents import PROJECT_SECTIONS
from memo_tui.core.agents.service import resume_run, run_agent
from memo_tui.core.entities.resolve import Resolved, resolve
from memo_tui.core.projects import NameClash, ProjectService, StillInUse, UnknownName
from memo_tui.core.sections import EmptySection, SectionService, UnknownSection
from memo_tui.core.services import Services
from store import FactFilter, InUseError, NameTakenError, NotFoundError, Store

# Every test here that reaches a store runs on SQLite and on PostgreSQL (conftest).
BOTH_STORES = True

OFFLINE = {"MEMO_PROVIDER": "offline"}
CLIENT = "Halvorsen Freight"


def everything(store: Store) -> dict[str, Any]:
    """conftest's dump, and the tables a project or client has rows in besides."""
    from sqlalchemy import text

    content: dict[str, Any] = dump(store)
    with store.reader.connect() as conn:
        for table in ("sections", "capture_projects", "agent_sessions", "projects_report"):
            content[table] = conn.execute(text(f"SELECT * FROM {table} ORDER BY 1")).all()
    return content


def project_id(store: Store, name: str) -> int:
    return next(p.id for p in store.projects.all() if p.name == name)


def client_id(store: Store, name: str) -> int:
    return next(c.id for c in store.clients.all() if c.name == name)


def keyword_keys(store: Store, query: str) -> set[int]:
    return {key for key, _ in store.search.keyword(query, FactFilter(), 200)}


# The store


def test_a_renamed_project_keeps_everything_and_its_notes_are_found_by_the_new_name(
    services: Services,
) -> None:
    store = services.store
    beacon = project_id(store, "Beacon")
    run_agent(services, "project_compile", "Beacon")
    before = store.projects.get(beacon)
    sections = store.sections.all("project", beacon)
    assert before is not None and before.notes and sections
    note = next(n for n in before.notes if n.kind == "project")
    assert note.fact_key not in keyword_keys(store, "Lighthouse")

    renamed = store.projects.rename(beacon, "Lighthouse")

    assert (renamed.old_name, renamed.name, renamed.changed) == ("Beacon", "Lighthouse", True)
    assert renamed.notes_reindexed == 1 and renamed.aliases_dropped == 0
    after = store.projects.get(beacon)
    assert after is not None and after.summary.name == "Lighthouse"
    assert after.summary.client == CLIENT
    assert after.captures == before.captures and [n.id for n in after.notes] == [
        n.id for n in before.notes
    ]
    assert after.summary.facts == before.summary.facts
    assert store.sections.all("project", beacon) == sections
    assert store.runs.all()[0].entity_name == "Lighthouse"
    assert [r.name for r in store.reports.projects() if r.project_id == beacon] == ["Lighthouse"]
    # The note's fact text starts with the project's name: it is indexed under the new one.
    assert note.fact_key in keyword_keys(store, "Lighthouse")
    assert store.facts.get(note.fact_key).text.startswith("Lighthouse: ")  # type: ignore[union-attr]
    # The old name is not kept as an alias.
    assert not [a for a in store.people.directory().aliases if a.alias.lower() == "beacon"]


def test_a_rename_drops_an_alias_that_would_shadow_the_new_name(services: Services) -> None:
    store = services.store
    atlas, beacon = project_id(store, "Atlas"), project_id(store, "Beacon")
    store.people.cache_alias("project", "Lighthouse", atlas, 0.9)
    found = resolve("Lighthouse", store.people.directory(), "project")
    assert isinstance(found, Resolved) and found.entity.id == atlas

    assert store.projects.rename(beacon, "Lighthouse").aliases_dropped == 1

    found = resolve("Lighthouse", store.people.directory(), "project")
    assert isinstance(found, Resolved) and found.entity.id == beacon


def test_a_rename_in_case_only_is_allowed_and_to_the_same_name_changes_nothing(
    services: Services,
) -> None:
    store = services.store
    beacon = project_id(store, "Beacon")
    before = dump(store)  # (the rollups are rebuilt: their refreshed_at moves)
    assert not store.projects.rename(beacon, "Beacon").changed
    assert dump(store) == before
    assert store.projects.rename(beacon, "BEACON").name == "BEACON"


def test_rename_clash_unknown_and_empty_names_change_nothing(services: Services) -> None:
    store = services.store
    beacon, halvorsen = project_id(store, "Beacon"), client_id(store, CLIENT)
    store.projects.add("Zephyr", "Other Client")
    before = everything(store)
    with pytest.raises(NameTakenError, match="already a project called 'Atlas'"):
        store.projects.rename(beacon, "atlas")
    with pytest.raises(NameTakenError, match="already a client called 'Other Client'"):
        store.clients.rename(halvorsen, "other client")
    with pytest.raises(NotFoundError):
        store.projects.rename(9999, "Anything")
    with pytest.raises(NotFoundError):
        store.clients.delete(9999, force=True)
    assert everything(store) == before


def test_a_project_in_use_is_deleted_only_when_forced(services: Services) -> None:
    store = services.store
    beacon = project_id(store, "Beacon")
    run_agent(services, "project_compile", "Beacon")
    store.people.cache_alias("project", "Beakon", beacon, 0.9)
    project = store.projects.get(beacon)
    assert project is not None
    note = next(n for n in project.notes if n.kind == "project")
    meetings = [c.id for c in project.captures]
    before = everything(store)

    with pytest.raises(InUseError) as refused:
        store.projects.delete(beacon)
    assert everything(store) == before
    had = refused.value.attached
    assert (had.name, had.meetings, had.notes, had.sections) == ("Beacon", 6, 1, 4)
    assert (had.aliases, had.runs, had.projects) == (1, 1, ())

    assert store.projects.delete(beacon, force=True) == had

    assert store.projects.get(beacon) is None
    assert all(store.captures.get(c) is not None for c in meetings)  # meetings are never deleted
    assert store.facts.by_keys([note.fact_key]) == {}
    assert note.fact_key not in keyword_keys(store, "Beacon")
    assert store.sections.all("project", beacon) == []
    assert not [a for a in store.people.directory().aliases if a.alias == "Beakon"]
    run = store.runs.all()[0]  # kept as history, pointing at nothing
    assert (run.entity_type, run.entity_id, run.entity_name) == ("project", None, None)
    assert json.loads(run.spec_json)["entity"] == "Beacon"
    assert CLIENT in {c.name for c in store.clients.all()}  # its client stays


def test_a_new_project_given_a_deleted_ones_id_inherits_nothing(services: Services) -> None:
    store = services.store
    cobalt = project_id(store, "Cobalt")
    assert cobalt == max(p.id for p in store.projects.all())  # SQLite hands its id out again
    run_agent(services, "project_compile", "Cobalt")
    store.projects.delete(cobalt, force=True)
    dune = store.projects.add("Dune")
    assert dune == cobalt or store.on_postgres  # (PostgreSQL never hands an id out twice)
    assert store.sections.all("project", dune) == []
    assert store.runs.all()[0].entity_name is None


def test_a_project_with_nothing_attached_is_deleted_without_force(store: Store) -> None:
    bare = store.projects.add("Typo Project", "Some Client")
    had = store.projects.delete(bare)
    assert not had.in_use and had.name == "Typo Project"
    assert [c.name for c in store.clients.all()] == ["Some Client"]  # the client stays
    assert store.projects.all() == []


def test_a_client_in_use_is_deleted_only_when_forced_and_its_projects_stay(
    services: Services,
) -> None:
    store = services.store
    halvorsen, beacon = client_id(store, CLIENT), project_id(store, "Beacon")
    client_note = next(n for n in store.projects.get(beacon).notes if n.kind == "client")  # type: ignore[union-attr]
    before = everything(store)
    with pytest.raises(InUseError) as refused:
        store.clients.delete(halvorsen)
    assert everything(store) == before
    assert (refused.value.attached.projects, refused.value.attached.notes) == (("Beacon",), 1)

    store.clients.delete(halvorsen, force=True)

    assert store.clients.all() == []
    project = store.projects.get(beacon)
    assert project is not None and project.summary.client is None
    assert [n.kind for n in project.notes] == ["project"]  # its own note stays
    assert store.facts.by_keys([client_note.fact_key]) == {}


def test_a_renamed_client_keeps_its_projects_and_its_notes_say_the_new_name(
    services: Services,
) -> None:
    store = services.store
    halvorsen, beacon = client_id(store, CLIENT), project_id(store, "Beacon")
    renamed = store.clients.rename(halvorsen, "Halvorsen Logistics")
    assert renamed.notes_reindexed == 1
    project = store.projects.get(beacon)
    assert project is not None and project.summary.client == "Halvorsen Logistics"
    note = next(n for n in project.notes if n.kind == "client")
    assert note.fact_key in keyword_keys(store, "Logistics")


def test_reset_gives_a_user_section_back_to_the_agents_keeping_its_text(store: Store) -> None:
    project = store.projects.add("Atlas")
    store.sections.write("project", project, "summary", "Mine.", [], "user")
    assert store.sections.reset("project", project, "summary") is True
    [section] = store.sections.all("project", project)
    assert (section.body, section.edited_by) == ("Mine.", "agent")
    assert store.sections.reset("project", project, "summary") is False
    with pytest.raises(NotFoundError):
        store.sections.reset("project", project, "phases")
    assert store.sections.write("project", project, "summary", "Agent's.", [], "agent") == (
        "written"
    )


# The core services


def test_projects_and_concepts_are_added_with_their_spacing_tidied(services: Services) -> None:
    projects = ProjectService(services.store)
    added = projects.add("  Harbour   Lights ", "  Halvorsen  Freight ")
    detail = services.store.projects.get(added)
    assert detail is not None
    assert (detail.summary.name, detail.summary.client) == ("Harbour Lights", "Halvorsen Freight")
    with pytest.raises(NameClash, match="already a project called 'Harbour Lights'"):
        projects.add("harbour lights")
    concept = projects.add_concept(" Event   sourcing ")
    assert [(c.id, c.name) for c in services.store.concepts.all()] == [(concept, "Event sourcing")]
    with pytest.raises(NameClash, match="pick another name"):
        projects.add_concept("EVENT SOURCING")


def test_the_services_find_names_in_any_case_and_say_what_is_wrong(services: Services) -> None:
    projects = ProjectService(services.store)
    before = everything(services.store)
    with pytest.raises(UnknownName, match=r"no project called 'Nope' \(projects: Atlas, Beacon"):
        projects.rename("project", "Nope", "Other")
    with pytest.raises(NameClash, match="already a project called 'Cobalt'"):
        projects.rename("project", "beacon", "COBALT")
    with pytest.raises(StillInUse, match="has 6 meetings linked and 1 note") as refused:
        projects.delete("project", "  beacon ")
    assert refused.value.attached == projects.attached("project", "BEACON")
    with pytest.raises(StillInUse, match=r"has 1 note and 1 project \(Beacon\)"):
        projects.delete("client", CLIENT.lower())
    assert everything(services.store) == before
    assert projects.rename("project", "beacon", "  Beacon   Two ").name == "Beacon Two"


def test_a_section_edited_is_left_by_the_agent_and_one_reset_is_rewritten(
    services: Services,
) -> None:
    store = services.store
    beacon = project_id(store, "Beacon")
    sections = SectionService(store)
    run_agent(services, "project_compile", "Beacon")
    written = {s.key: s for s in store.sections.all("project", beacon)}

    edited = sections.edit("project", beacon, "summary", "  My summary.\n")
    assert edited.outcome == "written" and edited.section.body == "My summary."
    assert edited.section.cited_fact_keys == written["summary"].cited_fact_keys
    assert sections.edit("project", beacon, "summary", "My summary.").outcome == "unchanged"
    run_agent(services, "project_compile", "Beacon")
    assert sections.section("project", beacon, "summary").body == "My summary."  # type: ignore[union-attr]

    assert sections.reset("project", beacon, "summary").outcome == "written"
    assert sections.reset("project", beacon, "summary").outcome == "unchanged"
    run_agent(services, "project_compile", "Beacon")
    rewritten = sections.section("project", beacon, "summary")
    assert rewritten is not None and rewritten.edited_by == "agent"
    assert rewritten.body == written["summary"].body


def test_a_section_the_agent_writes_may_be_written_first_but_no_other(store: Store) -> None:
    project = store.projects.add("Atlas")
    sections = SectionService(store)
    assert sections.keys("project", project) == list(PROJECT_SECTIONS)
    assert sections.edit("project", project, "phases", "Kickoff, then build.").outcome == (
        "written"
    )
    with pytest.raises(UnknownSection, match="no section 'phase' .sections: phases, summary"):
        sections.edit("project", project, "phase", "x")
    with pytest.raises(UnknownSection, match="no section 'summary' yet"):
        sections.reset("project", project, "summary")
    with pytest.raises(EmptySection):
        sections.edit("project", project, "phases", " \n ")
    assert [s.body for s in store.sections.all("project", project)] == ["Kickoff, then build."]


def test_a_run_cut_off_before_a_rename_resumes_under_the_new_name(services: Services) -> None:
    store = services.store
    beacon = project_id(store, "Beacon")
    spec = json.dumps({"entity": "Beacon", "pid": 0})
    cut = store.runs.start("project_compile", "project", beacon, "offline", spec)
    store.runs.set_status(cut, "interrupted", "the process running it ended")
    store.projects.rename(beacon, "Lighthouse")
    outcome = resume_run(services, cut)
    assert outcome.status == "completed" and outcome.run_id == cut
    assert {s.key for s in store.sections.all("project", beacon)} == set(PROJECT_SECTIONS)


# The command


def fingerprint(db: Path | str) -> str:
    """The store's bytes (a file), or every row of it (a server's)."""
    if isinstance(db, Path):
        return hashlib.sha256(db.read_bytes()).hexdigest()
    with Store(db) as store:
        return hashlib.sha256(repr(dump(store)).encode()).hexdigest()


def test_the_cli_refuses_with_exit_2_and_leaves_the_store_as_it_was(
    memo, services: Services
) -> None:  # type: ignore[no-untyped-def]
    db = services.store.url or services.store.path
    run_agent(services, "project_compile", "Beacon")
    before = everything(services.store)
    services.close()
    bytes_before = fingerprint(db)
    refused = {
        ("project", "rename", "Nope", "Other"): "no project called 'Nope'",
        ("project", "rename", "Beacon", "atlas"): "already a project called 'Atlas'",
        ("project", "rename", "Beacon", "  "): "a project needs a name",
        ("project", "delete", "Nope"): "no project called 'Nope'",
        ("project", "delete", "Beacon"): "has 6 meetings linked, 1 note and a living document",
        ("client", "rename", "Nope", "Other"): "no client called 'Nope'",
        ("client", "delete", CLIENT): "--force deletes it with the notes; its projects stay",
        ("project", "section", "Nope", "summary", "--edit", "x"): "no project called 'Nope'",
        ("project", "section", "Beacon", "sumary", "--edit", "x"): "no section 'sumary'",
        ("project", "section", "Beacon", "summary", "--edit", " "): "needs some text",
        ("project", "section", "Atlas", "summary", "--reset"): "no section 'summary' yet",
    }
    for args, says in refused.items():
        run = memo("--db", str(db), *args, "--json", extra_env=OFFLINE)
        assert run.code == 2, (args, run.stderr)
        assert says in run.stderr, (args, run.stderr)
        assert run.stdout == "", args
        assert fingerprint(db) == bytes_before, args
    with Store(db) as store:
        assert everything(store) == before


def test_the_cli_renames_and_deletes_projects_and_clients(memo, services: Services) -> None:  # type: ignore[no-untyped-def]
    db = services.store.url or services.store.path
    services.close()

    def run(*args: str) -> Any:
        done = memo("--db", str(db), *args, extra_env=OFFLINE)
        assert done.code == 0, (args, done.stderr)
        return done

    renamed = run("project", "rename", "beacon", "Lighthouse", "--json").json()
    assert renamed == {
        "kind": "project",
        "id": renamed["id"],
        "old_name": "Beacon",
        "name": "Lighthouse",
        "changed": True,
        "notes_reindexed": 1,
        "aliases_dropped": 0,
    }
    listed = run("projects", "--json").json()["projects"]
    assert {(p["name"], p["client"], p["meetings"]) for p in listed} >= {("Lighthouse", CLIENT, 6)}
    assert "renamed client 'Halvorsen Freight' to 'Halvorsen Logistics'" in (
        run("client", "rename", CLIENT, "Halvorsen Logistics").stdout
    )
    clients = run("clients", "--json").json()["clients"]
    assert [(c["name"], c["projects"], c["notes"]) for c in clients] == [
        ("Halvorsen Logistics", 1, 1)
    ]
    assert run("clients").stdout == "Halvorsen Logistics: 1 project, 1 note\n"
    [line] = [n for n in run("projects").stdout.splitlines() if n.startswith("Lighthouse")]
    assert line.startswith("Lighthouse (Halvorsen Logistics): 6 meetings, ")
    assert ", 1 note, last " in line
    deleted = run("project", "delete", "Lighthouse", "--force", "--json").json()
    assert deleted["deleted"] and (deleted["meetings"], deleted["notes"]) == (6, 1)
    said = run("client", "delete", "Halvorsen Logistics", "--force").stdout
    assert "deleted client 'Halvorsen Logistics'; it had 1 note" in said
    assert run("clients", "--json").json() == {"clients": []}
    assert run("project", "add", "Typo").code == 0
    clash = memo("--db", str(db), "project", "add", " typo ", extra_env=OFFLINE)
    assert (clash.code, clash.stderr) == (
        1,
        "memo: there is already a project called 'Typo': pick another name\n",
    )
    assert "Typo: 0 meetings, 0 facts, 0 notes, last never" in run("projects").stdout
    assert run("project", "delete", "Typo").stdout == "deleted project 'Typo'\n"
    assert "No clients yet" in run("clients").stdout


def test_the_cli_edits_a_section_and_gives_it_back_to_the_agent(memo, services: Services) -> None:  # type: ignore[no-untyped-def]
    db = services.store.url or services.store.path
    services.close()

    def run(*args: str) -> Any:
        done = memo("--db", str(db), *args, extra_env=OFFLINE)
        assert done.code == 0, (args, done.stderr)
        return done

    def summary() -> dict[str, Any]:
        shown = run("project", "section", "Beacon", "summary", "--json").json()
        assert shown["key"] == "summary"
        return dict(shown)

    run("run", "project_compile", "Beacon")
    compiled = summary()
    assert compiled["edited_by"] == "agent"
    edited = run("project", "section", "Beacon", "summary", "--edit", "Mine.", "--json").json()
    assert (edited["body"], edited["edited_by"], edited["outcome"]) == ("Mine.", "user", "written")
    run("run", "project_compile", "Beacon")
    assert (summary()["body"], summary()["edited_by"]) == ("Mine.", "user")
    shown = run("project", "show", "Beacon").stdout
    assert "## summary (edited by you)\nMine." in shown

    reset = run("project", "section", "Beacon", "summary", "--reset").stdout
    assert "the agent's again; memo run project_compile Beacon may rewrite it" in reset
    assert (summary()["body"], summary()["edited_by"]) == ("Mine.", "agent")  # until then
    run("run", "project_compile", "Beacon")
    assert summary() == compiled


def test_a_section_edit_reads_its_text_from_stdin(memo, services: Services) -> None:  # type: ignore[no-untyped-def]
    import os
    import subprocess
    import sys

    db = services.store.url or services.store.path
    services.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMO_")}
    done = subprocess.run(
        [sys.executable, "-m", "memo_tui", "--db", str(db), "project", "section", "Beacon"]
        + ["phases", "--edit", "-", "--json"],
        input="First the pilot,\nthen the rollout.\n",
        capture_output=True,
        text=True,
        env=env | {"MEMO_HOME": str(memo.home), **OFFLINE},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["body"] == "First the pilot,\nthen the rollout."
