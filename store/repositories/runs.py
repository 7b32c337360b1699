"""Agent runs, written as they happen, so a viewer replays them and a crashed one resumes."""

from __future__ import annotations

from store import agent_steps, agents
from store.records import (
    Approval,
    EventRecord,
    RunDecisionRecord,
    RunRecord,
    RunStatus,
    StepRecord,
    ToolCallRecord,
)
from store.repository import Repository, utc_now


class Runs(Repository):
    """Agent runs, written as they happen, so a viewer replays them and a crashed one resumes."""

    def start(
        self,
        agent_type: str,
        entity_type: str | None,
        entity_id: int | None,
        model: str | None,
        spec_json: str,
    ) -> int:
        """A new run, status 'running'; its id."""
        with self._write() as conn:
            return agents.start_run(
                conn, agent_type, entity_type, entity_id, model, spec_json, utc_now()
            )

    def set_status(self, run_id: int, status: RunStatus, error: str | None = None) -> None:
        """completed, failed and interrupted set finished_at; any other status clears it."""
        with self._write() as conn:
            agents.set_run_status(conn, run_id, status, error, utc_now())

    def claim(self, run_id: int, spec_json: str) -> bool:
        """Take an interrupted or failed run to go on with it; False when another process
        took it first (or it is not resumable)."""
        with self._write() as conn:
            return agents.claim_run(conn, run_id, spec_json)

    def interrupt(self, run_id: int, error: str) -> bool:
        """A live run whose process is gone becomes interrupted; False when it was not live."""
        with self._write() as conn:
            return agents.interrupt_run(conn, run_id, error, utc_now())

    def set_spec(self, run_id: int, spec_json: str) -> None:
        with self._write() as conn:
            agents.set_run_spec(conn, run_id, spec_json)

    def add_usage(
        self, run_id: int, input_tokens: int, output_tokens: int, cost_microdollars: int
    ) -> None:
        """Add one model call's tokens and cost to the run's totals."""
        with self._write() as conn:
            agents.add_run_usage(conn, run_id, input_tokens, output_tokens, cost_microdollars)

    def get(self, run_id: int) -> RunRecord | None:
        with self._read() as conn:
            return agents.run(conn, run_id)

    def all(self, limit: int = 100) -> list[RunRecord]:
        """The latest runs, newest first."""
        with self._read() as conn:
            return agents.runs(conn, limit)

    def mark_interrupted(self) -> list[int]:
        """At process start: every run still running or waiting for the user was cut off.
        They become 'interrupted'; returns their ids."""
        with self._write() as conn:
            return agents.mark_interrupted(conn, utc_now())

    def start_step(self, run_id: int, step_index: int, kind: str) -> int:
        with self._write() as conn:
            return agent_steps.start_step(conn, run_id, step_index, kind, utc_now())

    def finish_step(
        self,
        step_id: int,
        status: str,
        input_tokens: int,
        output_tokens: int,
        message_json: str | None,
    ) -> None:
        """`message_json`: the assistant's turn (text and tool calls), to resume from."""
        with self._write() as conn:
            agent_steps.finish_step(
                conn, step_id, status, input_tokens, output_tokens, message_json, utc_now()
            )

    def steps(self, run_id: int) -> list[StepRecord]:
        with self._read() as conn:
            return agent_steps.steps(conn, run_id)

    def start_tool_call(
        self,
        run_id: int,
        step_id: int | None,
        call_id: str,
        tool_name: str,
        arguments_json: str,
        mutating: bool,
    ) -> int:
        """A call, status 'running'. One that finished already raises StoreError: resume
        with `completed_tool_call` instead."""
        with self._write() as conn:
            return agent_steps.start_tool_call(
                conn, run_id, step_id, call_id, tool_name, arguments_json, mutating, utc_now()
            )

    def finish_tool_call(
        self, run_id: int, call_id: str, status: str, result_json: str | None
    ) -> None:
        with self._write() as conn:
            agent_steps.finish_tool_call(conn, run_id, call_id, status, result_json, utc_now())

    def tool_calls(self, run_id: int) -> list[ToolCallRecord]:
        with self._read() as conn:
            return agent_steps.tool_calls(conn, run_id)

    def completed_tool_call(self, run_id: int, call_id: str) -> ToolCallRecord | None:
        """The call and its result if it finished (whatever its status): a resumed run
        reuses it rather than calling the tool again."""
        with self._read() as conn:
            return agent_steps.completed_tool_call(conn, run_id, call_id)

    def append_event(self, run_id: int, kind: str, payload_json: str) -> int:
        """The event's seq: 1, 2, 3... per run, without gaps, whoever appends."""
        with self._write() as conn:
            return agent_steps.append_event(conn, run_id, kind, payload_json, utc_now())

    def events(self, run_id: int, after_seq: int = 0) -> list[EventRecord]:
        with self._read() as conn:
            return agent_steps.events(conn, run_id, after_seq)

    def record_decision(
        self,
        run_id: int,
        tool_call_id: int | None,
        decision: Approval,
        decided_by: str,
        payload_json: str = "{}",
    ) -> int:
        """The human's answer to a run's request (`tool_call_id`: the row id of the call
        that asked)."""
        with self._write() as conn:
            return agent_steps.record_decision(
                conn, run_id, tool_call_id, decision, decided_by, payload_json, utc_now()
            )

    def decisions(self, run_id: int) -> list[RunDecisionRecord]:
        with self._read() as conn:
            return agent_steps.decisions(conn, run_id)
