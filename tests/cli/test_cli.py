"""The `memo` command as a user (or a script) runs it: real subprocess, real database file."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from support.embedding import model_path
from support.fakes.recordings import recorded_reply
from support.fakes.server import FakeServer, Reply, json_reply
from support.paths import DATA, DEMO

from store import SCHEMA_VERSION, FactFilter, Store

MEETING = (
    "Atlas kickoff\nDate: 2026-09-08\n\n"
    "Priya Natarajan: Final call: we're moving Atlas to Postgres, "
    "because JSONB covers the events.\n"
    "Tom Adeyemi: I'll set up a managed Postgres in staging by Friday.\n"
)


def table_rows(db: Path) -> dict[str, int]:
    if not db.exists():
        return {}
    with sqlite3.connect(db) as conn:  # plain reads; sqlite-vec is not needed for these
        return {
            t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
            for t in ("captures", "decisions", "action_items", "excerpts")
        }


def aliases(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM entity_aliases").fetchone()[0])


def test_capture_prints_the_json_contract(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "kickoff.txt"
    path.write_text(MEETING)
    db = tmp_path / "memo.db"
    run = memo("--db", str(db), "capture", str(path), "--json")
    assert run.code == 0, run.stderr
    [result] = run.json()["results"]
    assert set(result) >= {
        "path",
        "status",
        "capture_id",
        "title",
        "error",
        "truncated",
        "decisions",
        "action_items",
    }
    assert result["status"] == "captured" and result["title"] == "Atlas kickoff"
    assert result["truncated"] is False and result["error"] is None
    [decision] = result["decisions"]
    assert set(decision) >= {"id", "description", "reasoning", "decided_by", "evidence"}
    assert decision["evidence"]["lines"] == [4, 4]
    assert decision["evidence"]["quote"] in MEETING
    assert decision["decided_by"] == "Priya Natarajan"
    [action] = result["action_items"]
    assert set(action) >= {"id", "description", "assignee", "due_date", "evidence"}
    assert (action["assignee"], action["due_date"]) == ("Tom Adeyemi", "2026-09-11")
    assert action["evidence"]["lines"] == [5, 5]
    again = memo("--db", str(db), "capture", str(path), "--json")
    assert again.code == 0 and again.json()["results"][0]["status"] == "unchanged"


def test_replace_flow_exit_codes(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "kickoff.txt"
    path.write_text(MEETING)
    db = str(tmp_path / "memo.db")
    assert memo("--db", db, "capture", str(path)).code == 0
    path.write_text(MEETING.replace("Friday", "Monday"))
    asked = memo("--db", db, "capture", str(path), "--json")
    assert asked.code == 1
    assert asked.json()["results"][0]["status"] == "needs_replace"
    assert "--replace" in asked.stderr
    replaced = memo("--db", db, "capture", str(path), "--replace", "--json")
    assert replaced.code == 0
    assert replaced.json()["results"][0]["status"] == "replaced"


BAD = {
    "empty.txt": b"",
    "blank.txt": b" \n \n",
    "binary.txt": b"\x00\x01\x02MZ",
    "deck.pptx": b"PK\x03\x04",
    "big.txt": b"Priya: " + b"a" * 100_100,
    "latin1.txt": "Priya: café".encode("latin-1"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_exits_1_with_a_message_and_changes_nothing(
    memo, tmp_path: Path, name: str
) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "memo.db"
    good = tmp_path / "good.txt"
    good.write_text(MEETING)
    assert memo("--db", str(db), "capture", str(good)).code == 0
    before = (table_rows(db), sorted(p.name for p in tmp_path.iterdir()))
    bad = tmp_path / name
    bad.write_bytes(BAD[name])
    run = memo("--db", str(db), "capture", str(bad), "--json")
    assert run.code == 1
    assert run.json()["results"][0]["status"] == "rejected"
    assert run.stderr.strip(), "the reason goes to stderr too"
    assert table_rows(db) == before[0]


def test_missing_path_and_empty_folder(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "nothing").mkdir()
    run = memo(
        "--db",
        str(tmp_path / "m.db"),
        "capture",
        str(tmp_path / "nope.txt"),
        str(tmp_path / "nothing"),
    )
    assert run.code == 1
    assert "no such file" in run.stderr and "no .txt, .md, .vtt, .srt, .docx files" in run.stderr


def test_usage_errors_exit_2(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert memo("capture").code == 2
    assert memo("facts", "--type", "gossip").code == 2
    assert memo("facts", "--since", "last tuesday").code == 2
    assert memo("frobnicate").code == 2


def test_run_help_lists_every_agent_with_what_it_works_on(memo) -> None:  # type: ignore[no-untyped-def]
    from memo_tui.core.agents.agents import AGENTS

    shown = memo("run", "--help").stdout
    listed = shown.split("agents:\n", 1)[1].splitlines()
    assert sorted(line.split()[0] for line in listed if line.strip()) == sorted(AGENTS)
    assert "  concept_compile CONCEPT   a concept's living document" in shown


def test_facts_json_filters_by_type_and_since(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "memo.db")
    assert memo("--db", db, "capture", str(DEMO)).code == 0
    facts = memo("--db", db, "facts", "--json").json()["facts"]
    assert {f["fact_type"] for f in facts} == {"decision", "action_item", "summary", "excerpt"}
    for fact in facts:
        assert set(fact) >= {
            "fact_type",
            "fact_id",
            "text",
            "capture_id",
            "captured_at",
            "source_type",
            "source_id",
            "lines",
        }
        assert fact["source_type"] == "meeting" and fact["source_id"].startswith("file:")
    decisions = memo("--db", db, "facts", "--type", "decision", "--json").json()["facts"]
    assert decisions and all(f["fact_type"] == "decision" for f in decisions)
    recent = memo("--db", db, "facts", "--since", "2026-11-01", "--json").json()["facts"]
    assert recent and all(f["occurred_at"] >= "2026-11-01" for f in recent)
    assert len(recent) < len(facts)


def demo_facts(memo, *options: str) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    run = memo("--demo", "facts", *options, "--json")
    assert run.code == 0, run.stderr
    return list(run.json()["facts"])


def allowed(home: Path, **flt: Any) -> set[tuple[str, int]]:
    """The demo facts a store filter allows, as (type, id): what the feed and search show."""
    with Store(home / "demo.db") as store:
        return {(f.fact_type, f.fact_id) for f in store.facts.page(FactFilter(**flt), 10_000)}


def pairs(facts: list[dict[str, Any]]) -> set[tuple[str, int]]:
    return {(f["fact_type"], f["fact_id"]) for f in facts}


def test_facts_filters_by_person_project_and_client_names(memo) -> None:  # type: ignore[no-untyped-def]
    everything = demo_facts(memo)  # (seeds the demo store)
    with Store(memo.home / "demo.db") as store:
        directory = store.people.directory()
    ids = {e.name: e.id for e in [*directory.people, *directory.projects, *directory.clients]}
    # A name resolves as everywhere in memo: "Cheng" is Sam Cheng (not Sam Chen).
    cheng = demo_facts(memo, "--person", "Cheng", "--type", "decision")
    theirs = allowed(memo.home, person_ids=(ids["Sam Cheng"],), fact_types=("decision",))
    assert theirs and pairs(cheng) == theirs
    decided = {f["fact_id"] for f in everything if f.get("decided_by") == "Sam Cheng"}
    assert decided and decided <= {f["fact_id"] for f in cheng}
    assert len(cheng) < sum(f["fact_type"] == "decision" for f in everything)
    atlas = demo_facts(memo, "--project", "atlas")
    assert pairs(atlas) == allowed(memo.home, project_ids=(ids["Atlas"],))
    assert {f["title"] for f in atlas} & {"Atlas kickoff"} and len(atlas) < len(everything)
    client = demo_facts(memo, "--client", "Halvorsen")
    assert pairs(client) == allowed(memo.home, client_ids=(ids["Halvorsen Freight"],))
    assert "client_note" in {f["fact_type"] for f in client}
    assert all("Atlas" not in (f["title"] or "") for f in client)
    shown = memo("--demo", "facts", "--project", "Atlas", "--type", "decision").stdout
    decisions = [line for line in shown.splitlines() if line.startswith("decision ")]
    assert len(decisions) == sum(f["fact_type"] == "decision" for f in atlas)


def test_facts_filters_by_until_and_status(memo) -> None:  # type: ignore[no-untyped-def]
    everything = demo_facts(memo)
    early = demo_facts(memo, "--until", "2026-09-10")
    assert early and len(early) < len(everything)
    assert all((f["occurred_at"] or f["captured_at"][:10]) <= "2026-09-10" for f in early)
    week = demo_facts(memo, "--since", "2026-09-08", "--until", "2026-09-15", "--type", "summary")
    assert week and all("2026-09-08" <= f["occurred_at"] <= "2026-09-15" for f in week)
    for status, kind in [
        ("current", "decision"),
        ("superseded", "decision"),
        ("open", "action_item"),
        ("done", "action_item"),
    ]:
        found = demo_facts(memo, "--status", status)
        expected = {
            (f["fact_type"], f["fact_id"])
            for f in everything
            if f["fact_type"] == kind and f["status"] == status
        }
        assert found and pairs(found) == expected, status
    dropped = demo_facts(memo, "--status", "dropped")  # a request turned down, if any
    assert pairs(dropped) == {
        (f["fact_type"], f["fact_id"]) for f in everything if f.get("status") == "dropped"
    }
    assert all(f["fact_type"] == "action_item" for f in dropped)
    text = memo("--demo", "facts", "--status", "superseded")
    assert (
        text.code == 0 and text.stdout.count("(superseded)") == 1
    )  # (a change across meetings waits for review)
    nothing = memo("--demo", "facts", "--status", "done", "--until", "2026-01-01")
    assert nothing.stdout == "No facts match these filters.\n"


def test_facts_filters_refuse_what_they_cannot_read(memo) -> None:  # type: ignore[no-untyped-def]
    assert memo("--demo", "facts", "--limit", "1").code == 0  # seeded
    db = memo.home / "demo.db"
    before = table_rows(db), aliases(db)
    for options, said in [
        (["--person", "Sam"], "person 'Sam' could be Sam Chen or Sam Cheng"),
        (["--person", "Zed"], "no person called 'Zed'"),
        (["--project", "Atlantis"], "no project called 'Atlantis' (did you mean Atlas?)"),
        (["--client", "Northwind"], "no client called 'Northwind'"),
        (["--until", "2026-02-30"], "until wants a date like 2026-03-01, not '2026-02-30'"),
        (["--since", "last tuesday"], "since wants a date like 2026-03-01"),
        (["--since", "2026-10-01", "--until", "2026-09-01"], "since is after until"),
    ]:
        run = memo("--demo", "facts", *options, "--json")  # (text mode reads the same options)
        assert run.code == 2, (options, run.stderr)
        assert f"memo facts: {said}" in run.stderr and run.stdout == ""
    text = memo("--demo", "facts", "--person", "Sam")
    assert text.code == 2 and "could be Sam Chen or Sam Cheng" in text.stderr and not text.stdout
    bad = memo("--demo", "facts", "--status", "finished")
    assert bad.code == 2 and "invalid choice: 'finished'" in bad.stderr
    assert memo("--demo", "facts", "--person", "Cheng").code == 0  # a fuzzy match caches nothing
    assert (table_rows(db), aliases(db)) == before


def test_doctor_reports_versions_counts_and_state(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "memo.db"
    report = memo("--db", str(db), "doctor", "--json").json()
    assert report["store"]["path"] == str(db)
    assert report["store"]["schema_version"] == SCHEMA_VERSION
    assert report["store"]["sqlite_version"].startswith("3.")
    assert report["store"]["sqlite_vec_version"].startswith("v")
    assert report["integrity"] == "ok"
    assert report["provider"]["in_use"] == "offline"
    assert "vectors" in report["embedding"]
    plain = memo("--db", str(db), "doctor")
    assert "sqlite-vec" in plain.stdout


def test_doctor_exits_1_when_it_reports_a_problem(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A problem said is a problem to fix: the exit code says so too (a script checks it)."""
    db = str(tmp_path / "memo.db")
    keyword_only = memo("--db", db, "doctor", "--offline")
    assert keyword_only.code == 1 and "problem: no embedding model here" in keyword_only.stdout
    as_json = memo("--db", db, "doctor", "--offline", "--json")
    assert as_json.code == 1 and "memo doctor: no embedding model here" in as_json.stderr
    model = {"MEMO_EMBED_MODEL_PATH": str(model_path())}
    healthy = memo("--db", db, "doctor", "--offline", extra_env=model)
    assert healthy.code == 0 and "problem:" not in healthy.stdout, healthy.stdout


def test_doctor_names_the_model_as_it_runs_and_says_when_vectors_are_another_models(
    memo, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "memo.db"
    with Store(db) as store:
        store.vectors.set_space("someone/else-model", 384)
    local = {"MEMO_EMBED_MODEL_PATH": str(tmp_path / "model")}
    embedding = memo("--db", str(db), "doctor", "--json", extra_env=local).json()["embedding"]
    assert embedding["runs_as"] == f"{embedding['model']}:int8"
    assert embedding["stored_space"] == "someone/else-model"
    assert (
        embedding["problems"][-1] == "the vectors come from someone/else-model: run memo backfill"
    )
    plain = memo("--db", str(db), "doctor", extra_env=local)
    assert f"embeddings   {embedding['model']}:int8" in plain.stdout
    assert "the vectors come from someone/else-model: run memo backfill" in plain.stdout
    full = memo("--db", str(db), "doctor", "--json", extra_env={**local, "MEMO_EMBED_INT8": "0"})
    assert full.json()["embedding"]["runs_as"] == embedding["model"]


def test_doctor_names_the_setting_that_gives_search_its_vectors(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "memo.db")
    none = memo("--db", db, "doctor", "--offline", "--json").json()["embedding"]["problems"]
    assert len(none) == 1 and "set MEMO_EMBED_MODEL_PATH to a local copy" in none[0]
    assert "unset MEMO_EMBED_DOWNLOAD (it is 0) to let memo fetch it" in none[0]
    empty = tmp_path / "empty"
    empty.mkdir()
    said = memo("--db", db, "doctor", "--offline", extra_env={"MEMO_EMBED_MODEL_PATH": str(empty)})
    assert "(no model.onnx there)" in said.stdout
    assert f"MEMO_EMBED_MODEL_PATH={empty} holds no model.onnx" in said.stdout


def test_db_defaults_to_memo_db_env_then_memo_home(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    report = memo("doctor", "--json").json()
    assert report["store"]["path"] == str(memo.home / "memo.db")
    chosen = tmp_path / "elsewhere" / "team.db"
    report = memo("doctor", "--json", extra_env={"MEMO_DB": str(chosen)}).json()
    assert report["store"]["path"] == str(chosen)
    flag = tmp_path / "flag.db"
    report = memo("--db", str(flag), "doctor", "--json", extra_env={"MEMO_DB": str(chosen)}).json()
    assert report["store"]["path"] == str(flag)


def test_demo_uses_its_own_store_seeded_once(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first = memo("--demo")
    assert first.code == 0, first.stderr
    assert "Seeding the demo store" in first.stderr
    assert "Postgres" in first.stdout
    assert (memo.home / "demo.db").exists() and not (memo.home / "memo.db").exists()
    second = memo("--demo", "facts", "--type", "decision", "--json")
    assert "Seeding" not in second.stderr
    assert len(second.json()["facts"]) >= 15
    user = memo("facts", "--json").json()["facts"]
    assert user == []


def test_terminal_output_never_carries_raw_escape_sequences(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run = memo("--demo", "facts")
    assert run.code == 0
    assert "\x1b" not in run.stdout and "\x07" not in run.stdout
    assert "\u241b]0;pwned" in run.stdout  # shown, made visible
    as_json = memo("--demo", "facts", "--json")
    assert "\x1b" not in as_json.stdout


def test_a_bad_store_file_is_refused_without_a_traceback(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    not_a_db = tmp_path / "notes.db"
    not_a_db.write_text("these are my notes, not a database\n")
    folder = tmp_path / "folder.db"
    folder.mkdir()
    for target in (not_a_db, folder):
        run = memo("--db", str(target), "doctor")
        assert run.code == 1
        assert "Traceback" not in run.stderr
        assert "cannot open" in run.stderr and "--db" in run.stderr
    assert not_a_db.read_text() == "these are my notes, not a database\n"


def test_rejected_input_does_not_create_a_store(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run = memo("capture", str(tmp_path / "nope.txt"))
    assert run.code == 1
    assert not (memo.home / "memo.db").exists()


def test_escape_sequences_in_paths_and_errors_are_made_visible(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    payload = "\x1b]0;PWNED\x07"
    empty = tmp_path / f"empty{payload}.txt"
    empty.write_text("")
    for args in (("capture", str(empty), "--json"), ("capture", str(empty))):
        run = memo("--db", str(tmp_path / "m.db"), *args)
        assert run.code == 1
        assert "\x1b" not in run.stderr + run.stdout and "\u241b]0;PWNED" in run.stderr
    doctor = memo("--db", str(tmp_path / f"x{payload}.db"), "doctor")
    assert "\x1b" not in doctor.stdout and "\u241b" in doctor.stdout


def test_costs_with_nothing_spent(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "memo.db")
    report = memo("--db", db, "costs", "--json").json()
    assert report["total"] == {"calls": 0, "failed": 0, "cost_microdollars": 0}
    assert report["by_day"] == [] and report["by_model"] == []
    assert "No model calls" in memo("--db", db, "costs").stdout


# llama.cpp's answer to GET /v1/models, recorded (it lists qwen-coder-0.5b with an 8,192 context).
LLAMA_CPP_MODELS = DATA / "llm-recordings" / "qwen2.5-coder-0.5b" / "001-resp.txt"


def _local_server(url: str, model: str = "qwen-coder-0.5b") -> dict[str, str]:
    """A local model server, and the embedding model (so doctor's only problems are the
    server's)."""
    return {
        "MEMO_PROVIDER": "openai",
        "MEMO_OPENAI_BASE_URL": url,
        "MEMO_OPENAI_MODEL": model,
        "MEMO_EMBED_MODEL_PATH": str(model_path()),
    }


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_doctor_says_when_the_model_server_is_unreachable(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    env = _local_server(f"http://127.0.0.1:{_closed_port()}/v1")
    run = memo("--db", str(tmp_path / "m.db"), "doctor", "--json", extra_env=env)
    assert run.code == 1
    server = run.json()["provider"]["server"]
    assert server["checked"] and not server["reachable"]
    [problem] = run.json()["provider"]["problems"]
    assert "cannot reach" in problem and "set MEMO_OPENAI_BASE_URL" in problem
    assert "set MEMO_OPENAI_BASE_URL" in run.stderr  # said beside the JSON, too
    text = memo("--db", str(tmp_path / "m.db"), "doctor", extra_env=env)
    assert (
        text.code == 1 and "unreachable" in text.stdout and "problem: cannot reach" in text.stdout
    )


def test_doctor_checks_the_model_against_the_servers_list(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "m.db")
    with FakeServer() as fake:
        fake.default = recorded_reply(LLAMA_CPP_MODELS)
        listed = memo("--db", db, "doctor", "--json", extra_env=_local_server(f"{fake.url}/v1"))
        unknown = memo(
            "--db", db, "doctor", "--json", extra_env=_local_server(f"{fake.url}/v1", "llama3.1")
        )
        one_task = memo(
            "--db",
            db,
            "doctor",
            extra_env={**_local_server(f"{fake.url}/v1"), "MEMO_ROUTER_MODEL": "qwen:0.5b"},
        )
    assert [seen.path for seen in fake.seen] == ["/v1/models"] * 3
    assert listed.code == 0, listed.stdout
    server = listed.json()["provider"]["server"]
    assert server["reachable"] and server["listed"] == ["qwen-coder-0.5b"]
    assert server["missing"] == [] and server["context_tokens"] == 8192
    assert listed.json()["provider"]["problems"] == []
    assert unknown.code == 1 and unknown.json()["provider"]["server"]["missing"] == ["llama3.1"]
    [problem] = unknown.json()["provider"]["problems"]
    assert "does not list 'llama3.1'" in problem and "(it lists: qwen-coder-0.5b)" in problem
    assert "set MEMO_OPENAI_MODEL" in problem
    assert one_task.code == 1  # the task's own setting is the one to change
    assert "does not list 'qwen:0.5b'" in one_task.stdout
    assert "set MEMO_ROUTER_MODEL to one it lists" in one_task.stdout
    assert "models qwen-coder-0.5b; context 8,192 tokens" in one_task.stdout


def test_doctor_says_when_the_slice_does_not_fit_the_servers_context(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with FakeServer() as fake:
        fake.default = recorded_reply(LLAMA_CPP_MODELS)
        env = {**_local_server(f"{fake.url}/v1"), "MEMO_LLM_SLICE_CHARS": "40000"}
        run = memo("--db", str(tmp_path / "m.db"), "doctor", "--json", extra_env=env)
    assert run.code == 1
    [problem] = run.json()["provider"]["problems"]
    assert "context is 8,192 tokens" in problem and "set MEMO_LLM_SLICE_CHARS=18000" in problem
    limits = run.json()["provider"]["limits"]
    assert limits["llm_slice_chars"] == 40000 and "llm_slice_chars" not in limits["local_defaults"]


def test_doctor_offline_contacts_nothing(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with FakeServer() as fake:
        env = _local_server(f"{fake.url}/v1")
        run = memo("--db", str(tmp_path / "m.db"), "doctor", "--offline", "--json", extra_env=env)
        text = memo("--db", str(tmp_path / "m.db"), "doctor", "--offline", extra_env=env)
    assert fake.seen == []
    assert run.code == 0 and text.code == 0
    assert run.json()["provider"]["server"] == {"checked": False, "why": "--offline"}
    assert "not contacted (--offline)" in text.stdout


def _anthropic_models(*ids: str) -> Reply:
    data = [
        {"type": "model", "id": i, "display_name": i, "created_at": "2026-01-01T00:00:00Z"}
        for i in ids
    ]
    return json_reply({"data": data, "has_more": False, "first_id": ids[0], "last_id": ids[-1]})


def test_doctor_asks_anthropic_only_for_its_free_model_list(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "m.db")
    with FakeServer() as fake:
        env = {
            "MEMO_PROVIDER": "anthropic",
            "ANTHROPIC_API_KEY": "test-key",
            "ANTHROPIC_BASE_URL": fake.url,
            "MEMO_EMBED_MODEL_PATH": str(model_path()),  # (no embedding problem to report)
        }
        fake.push(_anthropic_models("claude-sonnet-4-6", "claude-haiku-4-5-20251001"))
        healthy = memo("--db", db, "doctor", "--json", extra_env=env)
        fake.push(json_reply({"type": "error", "error": {"type": "authentication_error"}}, 401))
        refused = memo("--db", db, "doctor", "--json", extra_env=env)
        fake.push(_anthropic_models("claude-sonnet-4-6", "claude-haiku-4-5"))
        typo = memo("--db", db, "doctor", "--json", extra_env={**env, "MEMO_EXTRACT_MODEL": "x"})
        keyless = {**env, "ANTHROPIC_API_KEY": ""}
        no_key = memo("--db", db, "doctor", "--json", extra_env=keyless)
    assert [(s.path, s.body) for s in fake.seen] == [("/v1/models?limit=1000", {})] * 3
    sent = [s.headers.get("x-api-key") or s.headers.get("authorization") for s in fake.seen]
    assert all("test-key" in (key or "") for key in sent)  # the SDK's own auth header
    assert healthy.code == 0, healthy.stderr
    assert healthy.json()["provider"]["server"]["missing"] == []  # an alias is a prefix
    assert "test-key" not in healthy.stdout + refused.stdout + refused.stderr
    assert refused.code == 1 and "set ANTHROPIC_API_KEY to a valid key" in refused.stderr
    assert typo.code == 1 and "set MEMO_EXTRACT_MODEL to one it lists" in typo.stderr
    assert no_key.code == 1 and no_key.json()["provider"]["server"]["checked"] is False
    assert "no ANTHROPIC_API_KEY" in no_key.stderr


def test_a_capture_timeout_names_the_setting_to_raise(memo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "kickoff.txt"
    path.write_text(MEETING)
    with FakeServer() as fake:
        fake.default = Reply(200, {"content-type": "application/json"}, [3.0, b"{}"])
        env = {**_local_server(f"{fake.url}/v1"), "MEMO_EXTRACT_DEADLINE_S": "1"}
        run = memo("--db", str(tmp_path / "m.db"), "capture", str(path), "--json", extra_env=env)
    assert run.code == 1
    [result] = run.json()["results"]
    assert result["status"] == "rejected"
    assert "did not finish within 1 s" in result["error"]  # the setting wins over the default
    assert "raise MEMO_EXTRACT_DEADLINE_S" in result["error"]


def test_a_failure_memo_did_not_expect_is_one_line_and_a_crash_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Never a traceback on the terminal: a database's message holds the statement and the
    user's words. One line says what kind of failure, exit 70; the trace is kept for a report."""
    from memo_tui import cli

    def broken(args: object, services: object) -> int:
        raise RuntimeError("[SQL: INSERT INTO captures ...] [parameters: 'the board meeting']")

    monkeypatch.setenv("MEMO_HOME", str(tmp_path / "home"))
    monkeypatch.setitem(cli._HANDLERS, "facts", broken)
    code = cli.main(["--db", str(tmp_path / "memo.db"), "facts"])
    said = capsys.readouterr().err
    assert code == 70
    assert said.count("\n") == 1 and "RuntimeError" in said, said
    assert "board meeting" not in said and "Traceback" not in said and "SQL" not in said
    [report] = (tmp_path / "home" / "cache" / "crashes").iterdir()
    assert str(report) in said
    assert "Traceback" in report.read_text() and "board meeting" in report.read_text()
    assert report.stat().st_mode & 0o077 == 0  # this user's alone
