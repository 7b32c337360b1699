"""Agent runs from the app: one at a time, its steps in the job bar, its questions (approve
a write) as dialogs; ctrl+x stops it after the step in hand, and r in Runs resumes it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from textual.worker import get_current_worker

from memo_tui.ui import dialogs
from memo_tui.ui.controllers.base import Controller
from memo_tui.ui.widgets.runs import RunsPane

if TYPE_CHECKING:
    from memo_tui.core.agents.proposals import Proposal
    from memo_tui.ui.screens.page import Page


class AgentsController(Controller):
    def run_agent(
        self,
        agent: str,
        entity: str = "",
        page: Page | None = None,
        resume: int | None = None,
        on: tuple[str, int] | None = None,
    ) -> None:
        """Run an agent on an entity (named, or a list's row `on`), or go on with run
        `resume`; one at a time. What needs the store (a run's status, a row's name) is read
        first, in a worker."""
        if resume is None and on is None:
            self._go(agent, entity, page, None)
        else:
            self.run_thread(self._what, agent, page, resume, on, group="agent-check")

    def _go(self, agent: str, entity: str, page: Page | None, resume: int | None) -> None:
        if self.app.controllers.jobs.running("agent"):
            self.app.notify("An agent is running; this page updates when it is done.")
            return
        self.run_thread(self._run, agent, entity, page, resume, group="agent")

    def _what(
        self, agent: str, page: Page | None, resume: int | None, on: tuple[str, int] | None
    ) -> None:
        """The run to resume (if it can be) or the row's entity, then the run."""
        from memo_tui.core.agents.service import UnknownEntity, named, resumable

        entity = ""
        try:
            if resume is not None:
                agent = resumable(self.services, resume).agent_type
            elif on is not None:
                entity = named(self.services, *on)
        except UnknownEntity as why:
            said = str(why)
            self.from_thread(self.app.notify, said[:1].upper() + said[1:] + ".")
            return
        self.from_thread(self._go, agent, entity, page, resume)

    def _run(self, agent: str, entity: str, page: Page | None, resume: int | None) -> None:
        """Its document appears on the page when it is done."""
        from memo_tui.core.agents.outcome import what_changed
        from memo_tui.core.agents.service import UnknownEntity, resume_run, run_agent

        jobs = self.app.controllers.jobs
        worker = get_current_worker()
        steps = 0

        def follow(seq: int, kind: str, payload: dict[str, Any]) -> None:
            nonlocal steps
            if kind == "started":  # a new run: listed in Runs, and selected there
                newest = self.services.store.runs.all(limit=1)[0].id  # newest first
                self.from_thread(self._started, newest)
            if kind == "tool_call":
                steps += 1
                self.from_thread(jobs.show, f"{agent}: {payload.get('name')}", steps, max(steps, 8))

        def stopped() -> bool:
            return worker.is_cancelled

        self.from_thread(jobs.show, f"{agent}: starting", 0, 8)
        self.from_thread(self.app.refresh_lists)  # a resumed run shows as running
        try:
            if resume is None:
                outcome = run_agent(self.services, agent, entity, follow, self._ask_user, stopped)
            else:
                outcome = resume_run(self.services, resume, follow, self._ask_user, stopped)
        except UnknownEntity as error:
            self.from_thread(jobs.done, str(error))
            return
        said = f"{agent} {outcome.status}: {what_changed(outcome)}" + (
            f"; {outcome.error}" if outcome.error else ""
        )
        self.from_thread(jobs.done, said)
        self.from_thread(self.app.refresh_lists)
        if page is not None:
            self.from_thread(page.reload)

    def _started(self, run_id: int) -> None:
        self.app.query_one(RunsPane).select_run(run_id)
        self.app.refresh_lists()

    async def _ask_user(self, proposal: Proposal) -> str:
        """An agent's proposal (from the run's own event loop, on the worker's thread): the
        Approve dialog on the app's thread; its answer, or 'skipped' when time runs out."""
        from memo_tui.core.agents.proposals import described

        said = "\n".join(described(proposal.arguments, proposal.evidence))
        dialog = dialogs.Approve(proposal.agent, said, proposal.timeout_s)
        answer = self.ask_from_thread(dialog)
        try:
            choice = await asyncio.wrap_future(answer)
        except asyncio.CancelledError:  # the run's own timeout: take the question away
            with contextlib.suppress(RuntimeError):
                self.from_thread(dialog.withdraw, None)
            raise
        if choice is None:
            return "skipped"
        return "accepted" if choice else "rejected"
