"""The store's side of agent runs: durable runs, event seqs, resumable tool calls, living
documents that keep the user's edits, and the rollups."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from support.db import dump, old_schema

from store import (
    SCHEMA_VERSION,
    NewActionItem,
    NewAlias,
    NewCapture,
    NewDecision,
    NotFoundError,
    Provenance,
    Store,
    StoreError,
)
from store.ledger import LLMCallRow

PROV = Provenance("meeting", "file:/m.txt", "2026-09-08T10:00:00+00:00", "ana", "offline")


def add_meeting(
    store: Store, content_hash: str, occurred_at: str, project_ids: tuple[int, ...] = ()
) -> int:
    """A meeting Priya and Tom attend, where Priya decides and Tom owes two items (one done)."""
    known = {p.name: p.id for p in store.people.all()}
    priya, tom = (known.get(name, name) for name in ("Priya", "Tom"))
    new = NewCapture(
        source_kind="file",
        source_path=f"/{content_hash}.txt",
        source_format="txt",
        content_hash=content_hash,
        signature=None,
        title=f"Meeting {content_hash}",
        occurred_at=occurred_at,
        raw_text="a\nb",
        text="a\nb",
        line_count=2,
        summary=None,
        meta={},
        extractor="offline",
        truncated=False,
        provenance=PROV,
        decisions=[NewDecision("Use Postgres", None, "Priya", 1, 1, "a", person=priya)],
        action_items=[
            NewActionItem("Set up staging", "Tom", None, 2, 2, "b", person=tom),
            NewActionItem("Old chore", "Tom", None, 2, 2, "b", status="done", person=tom),
        ],
        new_people=tuple(name for name in ("Priya", "Tom") if name not in known),
        attendees=(priya, tom),
        aliases=(NewAlias("P.", priya, 0.9, True),),
        project_ids=project_ids,
    )
    return store.captures.write(new).capture_id


def sections_and_rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """`dump` plus the sections table, which `dump` leaves out."""
    with store.reader.connect() as conn:
        rows = conn.execute(text("SELECT * FROM sections ORDER BY id")).all()
    return {**dump(store), "sections": rows}


def test_a_run_keeps_its_spec_steps_tool_calls_usage_and_outcome(store: Store) -> None:
    project = store.projects.add("Atlas")
    run_id = store.runs.start("project_compile", "project", project, "m-1", '{"tools": []}')
    step = store.runs.start_step(run_id, 0, "model")
    store.runs.finish_step(step, "completed", 120, 30, '{"text": "hi", "tool_calls": ["c1"]}')
    call = store.runs.start_tool_call(
        run_id, step, "c1", "write_section", '{"key": "summary"}', True
    )
    store.runs.finish_tool_call(run_id, "c1", "completed", '{"status": "written"}')
    store.runs.start_step(run_id, 1, "repair")
    store.runs.add_usage(run_id, 120, 30, 900)
    store.runs.add_usage(run_id, 10, 5, 100)

    running = store.runs.get(run_id)
    assert running is not None and running.status == "running" and running.finished_at is None
    store.runs.set_status(run_id, "failed", "missing: phases")
    run = store.runs.get(run_id)
    assert run is not None
    assert (run.agent_type, run.entity_type, run.entity_id, run.entity_name) == (
        "project_compile",
        "project",
        project,
        "Atlas",
    )
    assert (run.status, run.error, run.model, run.spec_json) == (
        "failed",
        "missing: phases",
        "m-1",
        '{"tools": []}',
    )
    assert (run.input_tokens, run.output_tokens, run.cost_microdollars) == (130, 35, 1000)
    assert (run.steps, run.tool_calls, run.repair_turns) == (2, 1, 1)
    assert run.finished_at is not None

    first, second = store.runs.steps(run_id)
    assert (first.id, first.status, first.input_tokens, first.output_tokens) == (
        step,
        "completed",
        120,
        30,
    )
    assert first.message_json == '{"text": "hi", "tool_calls": ["c1"]}' and first.finished_at
    assert (second.kind, second.status, second.message_json) == ("repair", "running", None)
    [recorded] = store.runs.tool_calls(run_id)
    assert (recorded.id, recorded.call_id, recorded.mutating, recorded.status) == (
        call,
        "c1",
        True,
        "completed",
    )
    assert recorded.result_json == '{"status": "written"}'

    store.runs.set_status(run_id, "running")  # resumed: no longer finished, no error
    resumed = store.runs.get(run_id)
    assert resumed is not None and resumed.finished_at is None and resumed.error is None


def test_runs_are_listed_newest_first_and_missing_ones_are_reported(store: Store) -> None:
    ids = [store.runs.start("digest", None, None, None, "{}") for _ in range(3)]
    assert [r.id for r in store.runs.all()] == ids[::-1]
    assert [r.id for r in store.runs.all(limit=2)] == ids[:0:-1]
    assert store.runs.get(999) is None
    with pytest.raises(NotFoundError):
        store.runs.set_status(999, "completed")
    with pytest.raises(NotFoundError):
        store.runs.finish_tool_call(ids[0], "nope", "completed", "{}")


def test_the_ledger_sums_calls_by_day_trigger_and_model(store: Store) -> None:
    def call(day: str, trigger: str, model: str, status: str, cost: int) -> LLMCallRow:
        at = f"{day}T09:00:00+00:00"
        return LLMCallRow("openai", model, trigger, status, 100, 10, cost, 5, None, None, None, at)

    store.ledger.record(call("2026-09-01", "capture", "small", "ok", 30))
    store.ledger.record(call("2026-09-01", "agent:chat", "big", "error", 0))
    store.ledger.record(call("2026-09-02", "capture", "big", "ok", 70))

    def keys(by: str, since: str | None = None) -> list[tuple[str, int, int, int]]:
        return [
            (c.key, c.calls, c.failed, c.cost_microdollars) for c in store.ledger.costs(by, since)
        ]

    assert keys("day") == [("2026-09-02", 1, 0, 70), ("2026-09-01", 2, 1, 30)]
    assert keys("trigger") == [("capture", 2, 0, 100), ("agent:chat", 1, 1, 0)]
    assert keys("model") == [("openai:big", 2, 1, 70), ("openai:small", 1, 0, 30)]
    assert keys("day", since="2026-09-02") == [("2026-09-02", 1, 0, 70)]
    assert [(c.trigger, c.model) for c in store.ledger.calls()] == [
        ("capture", "small"),
        ("agent:chat", "big"),
        ("capture", "big"),
    ]


def test_event_seqs_are_gap_free_with_concurrent_appenders(tmp_path: Path) -> None:
    """Two stores on one file (as two processes) and two threads each append to one run."""
    path = tmp_path / "events.db"
    with Store(path) as first, Store(path, busy_timeout_ms=10_000) as second:
        run_id = first.runs.start("collector", None, None, None, "{}")
        taken: list[list[int]] = []
        errors: list[BaseException] = []

        def append(store: Store, worker: int) -> None:
            mine: list[int] = []
            taken.append(mine)
            try:
                for i in range(25):
                    mine.append(
                        store.runs.append_event(run_id, "text", f'{{"w": {worker}, "i": {i}}}')
                    )
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [
            threading.Thread(target=append, args=(store, n))
            for n, store in enumerate([first, second, first, second])
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        assert errors == []
        assert all(seqs == sorted(seqs) for seqs in taken)  # monotonic for each appender
        assert sorted(s for seqs in taken for s in seqs) == list(range(1, 101))
        assert [e.seq for e in second.runs.events(run_id)] == list(range(1, 101))
        other = first.runs.start("collector", None, None, None, "{}")
        assert first.runs.append_event(other, "text", "{}") == 1  # seqs count per run


def test_events_after_a_seq_replay_exactly_the_tail(store: Store) -> None:
    run_id = store.runs.start("chat", None, None, None, "{}")
    for n in range(1, 8):
        assert store.runs.append_event(run_id, "step", f'{{"n": {n}}}') == n
    tail = store.runs.events(run_id, after_seq=4)
    assert [(e.seq, e.kind, e.payload_json) for e in tail] == [
        (5, "step", '{"n": 5}'),
        (6, "step", '{"n": 6}'),
        (7, "step", '{"n": 7}'),
    ]
    assert store.runs.events(run_id) == store.runs.events(run_id, after_seq=0)
    assert store.runs.events(run_id)[4:] == tail
    assert store.runs.events(run_id, after_seq=7) == []


def test_mark_interrupted_flips_live_runs_and_their_unfinished_work(store: Store) -> None:
    statuses = ["running", "waiting_for_user", "completed", "failed", "queued", "running"]
    ids = []
    for status in statuses:
        run_id = store.runs.start("person_enrich", None, None, None, "{}")
        if status != "running":
            store.runs.set_status(run_id, status)
        ids.append(run_id)
    done = store.runs.start_step(ids[0], 0, "model")
    store.runs.finish_step(done, "completed", 1, 1, "{}")
    store.runs.start_step(ids[0], 1, "model")
    store.runs.start_tool_call(ids[0], done, "c1", "get_person", "{}", False)
    store.runs.start_tool_call(ids[0], done, "c2", "write_section", "{}", True)
    store.runs.finish_tool_call(ids[0], "c2", "completed", "{}")

    assert store.runs.mark_interrupted() == [ids[0], ids[1], ids[5]]
    assert [store.runs.get(i).status for i in ids] == [
        "interrupted",
        "interrupted",
        "completed",
        "failed",
        "queued",
        "interrupted",
    ]
    assert store.runs.get(ids[1]).finished_at is not None
    assert [s.status for s in store.runs.steps(ids[0])] == ["completed", "interrupted"]
    assert [(c.status, c.finished_at is None) for c in store.runs.tool_calls(ids[0])] == [
        ("interrupted", True),
        ("completed", False),
    ]
    assert store.runs.mark_interrupted() == []


def test_a_resumed_run_reuses_finished_calls_and_restarts_unfinished_ones(store: Store) -> None:
    run_id = store.runs.start("project_compile", None, None, None, "{}")
    step = store.runs.start_step(run_id, 0, "model")
    store.runs.start_tool_call(run_id, step, "done", "write_section", '{"key": "summary"}', True)
    store.runs.finish_tool_call(run_id, "done", "completed", '{"status": "written"}')
    cut = store.runs.start_tool_call(
        run_id, step, "cut", "write_section", '{"key": "phases"}', True
    )
    assert store.runs.completed_tool_call(run_id, "cut") is None  # started, never finished
    store.runs.mark_interrupted()

    found = store.runs.completed_tool_call(run_id, "done")
    assert found is not None
    assert (found.tool_name, found.arguments_json, found.result_json, found.mutating) == (
        "write_section",
        '{"key": "summary"}',
        '{"status": "written"}',
        True,
    )
    assert store.runs.completed_tool_call(run_id, "missing") is None
    assert store.runs.completed_tool_call(run_id + 1, "done") is None
    with pytest.raises(StoreError, match="already finished"):
        store.runs.start_tool_call(run_id, step, "done", "write_section", "{}", True)

    store.runs.set_status(run_id, "running")
    again = store.runs.start_tool_call(
        run_id, step, "cut", "write_section", '{"key": "phases"}', True
    )
    assert again == cut  # the same row: UNIQUE (session_id, call_id) holds
    assert [(c.call_id, c.status) for c in store.runs.tool_calls(run_id)] == [
        ("done", "completed"),
        ("cut", "running"),
    ]


def test_decisions_are_recorded_per_run(store: Store) -> None:
    run_id = store.runs.start("collector", "project", 1, None, "{}")
    call = store.runs.start_tool_call(run_id, None, "c1", "propose_backfill", "{}", True)
    accepted = store.runs.record_decision(run_id, call, "accepted", "ana", '{"captures": [3]}')
    skipped = store.runs.record_decision(run_id, None, "skipped", "timeout")
    decisions = store.runs.decisions(run_id)
    assert [(d.id, d.tool_call_id, d.decision, d.decided_by) for d in decisions] == [
        (accepted, call, "accepted", "ana"),
        (skipped, None, "skipped", "timeout"),
    ]
    assert decisions[0].payload_json == '{"captures": [3]}' and decisions[1].payload_json == "{}"
    assert store.runs.decisions(run_id + 1) == []


def test_an_agent_never_overwrites_a_section_the_user_edited(store: Store) -> None:
    write = store.sections.write
    assert write("project", 1, "summary", "Draft.", [1 << 32 | 7], "agent") == "written"
    assert write("project", 1, "phases", "One phase.", [], "agent") == "written"
    assert write("project", 1, "summary", "Draft.", [1 << 32 | 7], "agent") == "unchanged"
    assert write("project", 1, "summary", "Better.", [1 << 32 | 7], "agent") == "written"
    assert write("project", 1, "summary", "Mine.", [], "user") == "written"

    before = sections_and_rows(store)
    assert write("project", 1, "summary", "Agent again.", [5], "agent") == "skipped_user_edit"
    assert write("project", 1, "summary", "Mine.", [], "agent") == "skipped_user_edit"
    assert sections_and_rows(store) == before

    assert write("project", 1, "summary", "Mine.", [], "user") == "unchanged"
    assert write("project", 1, "summary", "Mine, edited.", [], "user") == "written"
    assert write("project", 1, "phases", "Two phases.", [], "agent") == "written"
    assert write("person", 1, "summary", "Someone else.", [], "agent") == "written"
    summary, phases = store.sections.all("project", 1)
    assert (summary.key, summary.body, summary.cited_fact_keys, summary.edited_by) == (
        "summary",
        "Mine, edited.",
        [],
        "user",
    )
    assert (phases.key, phases.body, phases.edited_by) == ("phases", "Two phases.", "agent")
    assert [s.body for s in store.sections.all("person", 1)] == ["Someone else."]
    assert store.sections.all("project", 2) == []


def test_a_user_edit_of_an_agent_section_takes_it_over(store: Store) -> None:
    store.sections.write("person", 3, "role", "Engineer.", [4 << 32 | 1], "agent")
    assert store.sections.write("person", 3, "role", "Engineer.", [4 << 32 | 1], "user") == (
        "written"
    )
    [role] = store.sections.all("person", 3)
    assert (role.edited_by, role.cited_fact_keys) == ("user", [4 << 32 | 1])


def test_rollups_count_what_the_people_and_projects_panes_count(store: Store) -> None:
    atlas = store.projects.add("Atlas", client="Acme")
    store.projects.add("Borealis")
    add_meeting(store, "m1", "2026-09-01", project_ids=(atlas,))
    later = add_meeting(store, "m2", "2026-09-10", project_ids=(atlas,))
    add_meeting(store, "m3", "2026-09-20")  # about no project
    store.people.add("Nobody")
    store.reports.rebuild()

    people = store.people.all()
    report = store.reports.people()
    assert [(r.person_id, r.name, r.aliases) for r in report] == [
        (p.id, p.name, p.aliases) for p in people
    ]
    assert [(r.open_action_items, r.decisions, r.meetings) for r in report] == [
        (p.open_action_items, p.decisions, p.meetings) for p in people
    ]
    by_name = {r.name: r for r in report}
    assert (by_name["Tom"].open_action_items, by_name["Priya"].decisions) == (3, 3)
    assert by_name["Priya"].aliases == ["P."] and by_name["Tom"].last_seen == "2026-09-20"
    assert (by_name["Nobody"].meetings, by_name["Nobody"].last_seen) == (0, None)

    projects = store.projects.all()
    rollup = store.reports.projects()
    assert [(r.project_id, r.name, r.client, r.captures, r.last_activity) for r in rollup] == [
        (p.id, p.name, p.client, p.meetings, p.last_meeting) for p in projects
    ]
    assert [(r.name, r.captures, r.decisions, r.open_action_items) for r in rollup] == [
        ("Atlas", 2, 2, 2),
        ("Borealis", 0, 0, 0),
    ]

    store.captures.delete(later)
    store.reports.rebuild()
    atlas_row = store.reports.projects()[0]
    assert (atlas_row.captures, atlas_row.decisions, atlas_row.last_activity) == (
        1,
        1,
        "2026-09-01",
    )
    assert [r.meetings for r in store.reports.people()] == [p.meetings for p in store.people.all()]


def test_rebuilding_the_rollups_leaves_the_facts_alone(store: Store) -> None:
    add_meeting(store, "m1", "2026-09-01")
    before = dump(store)
    store.reports.rebuild()
    store.reports.rebuild()
    assert dump(store) == before
    assert len(store.reports.people()) == 2


def test_migration_from_schema_4_keeps_runs_and_makes_them_resumable(tmp_path: Path) -> None:

    path = tmp_path / "v4.db"
    with old_schema(path, 4) as conn:
        conn.exec_driver_sql(
            "INSERT INTO agent_sessions (agent_type, status, started_at) "
            "VALUES ('digest', 'running', '2026-09-01T00:00:00+00:00')"
        )
        conn.exec_driver_sql(
            "INSERT INTO agent_steps (session_id, step_index, kind, status, started_at) "
            "VALUES (1, 0, 'model', 'completed', '2026-09-01T00:00:00+00:00')"
        )

    with Store(path) as store:
        assert store.stats().schema_version == SCHEMA_VERSION == 20
        old = store.runs.get(1)
        assert old is not None and (old.spec_json, old.status, old.steps) == ("{}", "running", 1)
        assert store.runs.steps(1)[0].message_json is None
        assert store.runs.mark_interrupted() == [1]
        assert store.runs.start_step(1, 1, "model") > 0
        assert store.runs.append_event(1, "resumed", "{}") == 1
        with store.reader.connect() as conn:
            indexes = {r[0] for r in conn.execute(text("SELECT name FROM sqlite_master"))}
        assert {"agent_tool_calls_step", "agent_decisions_session"} <= indexes


def test_every_write_that_changes_a_count_rebuilds_the_rollups(store: Store) -> None:
    """The panes read the rollups: each write leaves them agreeing with the tables."""

    def agree() -> None:
        people = {
            p.id: (p.name, p.open_action_items, p.decisions, p.meetings) for p in store.people.all()
        }
        rolled = {
            r.person_id: (r.name, r.open_action_items, r.decisions, r.meetings)
            for r in store.reports.people()
        }
        assert rolled == people
        projects = {p.id: (p.name, p.client, p.meetings) for p in store.projects.all()}
        assert {r.project_id: (r.name, r.client, r.captures) for r in store.reports.projects()} == (
            projects
        )

    beacon = store.projects.add("Beacon", client="Halvorsen")
    agree()
    first = add_meeting(store, "m1", "2026-09-01", project_ids=(beacon,))
    agree()
    assert [(r.name, r.decisions, r.open_action_items) for r in store.reports.projects()] == [
        ("Beacon", 1, 1)
    ]
    second = add_meeting(store, "m2", "2026-09-08")
    assert store.projects.link_captures(beacon, [second], "user") == 1
    agree()
    assert store.reports.projects()[0].last_activity == "2026-09-08"
    store.people.add("Sam")
    agree()
    assert store.captures.delete(first)
    agree()
    assert [r.meetings for r in store.reports.people() if r.name == "Priya"] == [1]


def test_a_store_from_before_gets_its_rollups_filled(tmp_path: Path) -> None:
    path = tmp_path / "v5.db"
    with Store(path) as store:
        add_meeting(store, "m1", "2026-09-01")
        with store.writer.begin() as conn:  # as a version-5 store left them: never built
            conn.exec_driver_sql("DELETE FROM people_report")
            conn.exec_driver_sql("DROP TABLE email_messages")  # what versions 7 and 8 add
            conn.exec_driver_sql("DROP TABLE person_addresses")
            conn.exec_driver_sql("DROP TABLE concepts")  # (version 9)
            conn.exec_driver_sql("DROP INDEX captures_channel")  # (version 11)
            conn.exec_driver_sql("ALTER TABLE captures DROP COLUMN channel_of")
            conn.exec_driver_sql("DROP TRIGGER people_name_au")  # (version 12)
            conn.exec_driver_sql("DROP TABLE person_merges")  # (version 13)
            conn.exec_driver_sql("ALTER TABLE action_items DROP COLUMN asked_by")  # (version 16)
            conn.exec_driver_sql("DROP VIEW facts")  # (version 19: it reads the state)
            conn.exec_driver_sql(
                "CREATE VIEW facts AS SELECT 0 AS fact_key, '' AS fact_type, 0 AS fact_id, "
                "'' AS text WHERE 0"
            )
            for table in ("decisions", "action_items"):  # (versions 18 and 19)
                conn.exec_driver_sql(f"DROP INDEX {table}_state")
                for column in ("settled_by", "confidence", "state", "model_version", "reviewed_by"):
                    conn.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN {column}")
            conn.exec_driver_sql("DROP TABLE changes")  # (version 15, with its triggers)
            for trigger in ("decisions_decision_ai", "decisions_decision_au"):
                conn.exec_driver_sql(f"DROP TRIGGER {trigger}")  # they read the subject
            conn.exec_driver_sql("ALTER TABLE decisions DROP COLUMN subject")
            for trigger, when in (("ai", "INSERT"), ("au", "UPDATE")):  # stand-ins
                conn.exec_driver_sql(
                    f"CREATE TRIGGER decisions_decision_{trigger} AFTER {when} ON decisions "
                    "BEGIN SELECT 1; END"
                )
            # (version 14) the view reads the decision's status: a stand-in while it goes
            conn.exec_driver_sql("DROP VIEW facts")
            conn.exec_driver_sql(
                "CREATE VIEW facts AS SELECT 0 AS fact_key, '' AS fact_type, 0 AS fact_id, "
                "'' AS text WHERE 0"
            )
            conn.exec_driver_sql("DROP INDEX decisions_superseded_by")
            conn.exec_driver_sql("ALTER TABLE decisions DROP COLUMN superseded_by")
            conn.exec_driver_sql("ALTER TABLE decisions DROP COLUMN status")
            for column in (
                "emails_json",
                "messages_sent",
                "messages_received",
                "first_contact",
                "last_contact",
                "correspondents_json",
            ):
                conn.exec_driver_sql(f"ALTER TABLE people_report DROP COLUMN {column}")
            conn.exec_driver_sql("DELETE FROM schema_migrations WHERE version >= 6")
            conn.exec_driver_sql("PRAGMA user_version = 5")
    with Store(path) as store:
        assert store.stats().schema_version == SCHEMA_VERSION
        assert {r.name for r in store.reports.people()} == {"Priya", "Tom"}
