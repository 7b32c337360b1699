"""The app's work on the store, off the UI thread: settling names, capturing (with the replace
dialog), deleting, projects and notes, embedding, seeding the demo; the job bar that shows
the long ones, ctrl+x that stops them, and the dialog that reports a failure.

`MemoApp` (ui.app) lays out the screen and moves around it; this is what it does.
"""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App
from textual.css.query import NoMatches
from textual.widgets import Label, ProgressBar
from textual.worker import Worker, WorkerState, get_current_worker

from memo_tui.core.capture import versions
from memo_tui.ui import dialogs
from memo_tui.ui.text import line, plural

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from memo_tui.core.agents.runtime import Proposal
    from memo_tui.core.capture import CaptureResult, Replacement
    from memo_tui.core.entities.service import EntityService, Pending
    from memo_tui.core.notes import NotesService
    from memo_tui.core.services import Services
    from memo_tui.ui.screens.page import Page
    from store import (
        ActionItemRecord,
        AddressRecord,
        Backfill,
        DecisionRecord,
        NoteRecord,
        PersonRow,
        SectionRecord,
    )

JOBS = ("capture", "backfill", "seed", "agent")  # worker groups the job bar reports
# A capture's outcome as the summary after a batch says it ("3 captured, 1 kept as stored").
_OUTCOMES = {
    "needs_replace": "kept as stored",
    "rejected": "not captured",
    "unchanged": "already captured",
}
# Worker groups ctrl+x stops (an agent run stops after the step in hand, interrupted and
# resumable: each of its writes is whole).
CANCELLABLE = ("capture", "backfill", "seed", "agent", "ask", "facts")


class Workflows(App[None]):
    """What the app does with the store; the layout it updates is MemoApp's."""

    _services: Services | None = None

    @property
    def services(self) -> Services:
        if self._services is None:
            raise RuntimeError("the store is still opening")
        return self._services

    @property
    def ready(self) -> bool:
        """The store is open (until then only moving around and quitting work)."""
        return self._services is not None

    def refresh_lists(self) -> object:
        """Lists and the status line again, from the store (MemoApp's worker)."""
        raise NotImplementedError

    # Names

    @work(exclusive=True, group="who", exit_on_error=False)
    async def action_who(self, only: list[str] | None = None) -> None:
        """Settle the names waiting for the user, one dialog each (`only` those names)."""
        from memo_tui.core.entities.service import EntityService

        entities = EntityService(self.services.store, self.services.settings.user_name)
        waiting = await asyncio.to_thread(entities.pending)
        if only is not None:
            waiting = [w for w in waiting if w.mention.mention in only]
        addresses = [] if only is not None else self.services.store.address_proposals()
        if not waiting and not addresses:
            if only is None:
                self.notify("No names are waiting: every owner and decider is settled.")
            return
        for item in waiting:
            settle = self._settle_in_room if item.in_room else self._settle_name
            if not await settle(entities, item):
                break  # escape: the rest wait
        else:
            await self._settle_addresses(addresses)
        self.refresh_lists()
        self.refresh_pages()

    # Changes across meetings

    @work(exclusive=True, group="changes", exit_on_error=False)
    async def action_review_changes(self) -> None:
        """The proposals, one dialog each: accept, reject, or leave for later; escape stops."""
        from memo_tui.core.history.service import ChangesService
        from memo_tui.ui.dialogs.change_review import ChangeReview

        service = ChangesService(self.services.store, self.services.settings.user_name)
        waiting = await asyncio.to_thread(service.review)
        if not waiting:
            self.notify("No changes wait for review.")
            return
        decided = 0
        for number, change in enumerate(waiting, 1):
            answer = await self.push_screen_wait(ChangeReview(change, number, len(waiting)))
            if answer is None:
                break
            if answer in ("accept", "reject"):
                await asyncio.to_thread(service.decide, change.id, answer)
                decided += 1
        if decided:
            self.notify(f"{plural(decided, 'change')} decided")
            if not self.running("backfill"):
                self.backfill(quiet=True)  # the re-worded facts get their vectors again
        self.refresh_lists()
        self.refresh_pages()

    async def _settle_name(self, entities: EntityService, item: Pending) -> bool:
        """A name several people memo knows fit: one answer, remembered for the name (an
        alias) and given to every item waiting on it. False when the user escaped."""
        mention = item.mention.mention
        candidates = [(c.id, c.name) for c in item.resolution.candidates]
        facts = await asyncio.to_thread(entities.waiting_on, item.mention)
        said = await asyncio.to_thread(self._described, facts)
        note = f'memo will read "{mention}" as the one you choose from now on.'
        choice = await self.push_screen_wait(dialogs.WhoIsIt(mention, said, candidates, note))
        if choice is None:
            return False
        person = self._person(choice)
        meetings = item.mention.capture_ids  # (not those where both were in the room)
        filled = await asyncio.to_thread(entities.confirm, mention, person, meetings, True)
        self._said_who(mention, person, filled)
        return True

    async def _settle_in_room(self, entities: EntityService, item: Pending) -> bool:
        """The people the name fits were in the room (two Sams): one question per item,
        with the transcript lines it came from, and nothing remembered for the name (the
        next meeting with both asks again). False when the user escaped."""
        mention = item.mention.mention
        candidates = [(c.id, c.name) for c in item.resolution.candidates]
        names = [name for _, name in candidates]
        both = (
            f"{names[0]} and {names[1]} were both there"
            if len(names) == 2
            else f"{', '.join(names[:-1])} and {names[-1]} were all there"
        )
        facts = await asyncio.to_thread(entities.waiting_on, item.mention)
        for n, fact in enumerate(facts, 1):
            said = await asyncio.to_thread(self._described, [fact])
            context = await asyncio.to_thread(self._lines_of, fact)
            note = f"{both}: this answer is for this item only ({n} of {len(facts)})."
            dialog = dialogs.WhoIsIt(mention, said, candidates, note, context)
            choice = await self.push_screen_wait(dialog)
            if choice is None:
                return False
            person = self._person(choice)
            filled = await asyncio.to_thread(entities.settle, [fact], person)
            self._said_who(mention, person, filled)
        return True

    def _person(self, choice: int) -> PersonRow | None:
        """The person a Who is it? button names (0: None of these)."""
        people = self.services.store.directory().people
        return next((p for p in people if p.id == choice), None) if choice else None

    def _said_who(self, mention: str, person: PersonRow | None, filled: Backfill) -> None:
        who = person.name if person else "none of the people memo knows"
        count = plural(filled.action_items + filled.decisions, "item")
        self.notify(line(f"{mention} = {who}: {count} updated").plain, markup=False)

    async def _settle_addresses(self, proposals: list[AddressRecord]) -> None:
        """An address whose name matches a person known at another domain: the same person?
        (The Who is it dialog: their name, or None of these to keep the address apart.)"""
        for proposal in proposals:
            said = [
                f"Mail from {proposal.address} is signed {proposal.display_name!r}.",
                f"{proposal.proposed_name} is known at another address; the same name at "
                "another domain is not enough for memo to merge them.",
            ]
            mention = f"{proposal.display_name} <{proposal.address}>"
            dialog = dialogs.WhoIsIt(
                mention, said, [(proposal.proposed_person_id, proposal.proposed_name)]
            )
            choice = await self.push_screen_wait(dialog)
            if choice is None:
                return
            await asyncio.to_thread(
                self.services.store.merge_address, proposal.address, choice or None
            )
            who = proposal.proposed_name if choice else "someone memo does not know yet"
            self.notify(line(f"{proposal.address} = {who}").plain, markup=False)

    def _described(self, facts: Sequence[ActionItemRecord | DecisionRecord]) -> list[str]:
        """Each waiting item as the dialog lists it, with its meeting."""
        from store import ActionItemRecord

        store = self.services.store
        meetings = {c: found for c in {f.capture_id for f in facts} if (found := store.capture(c))}
        said = []
        for fact in facts:
            kind = "owes" if isinstance(fact, ActionItemRecord) else "decided"
            text = f"{kind}: {fact.description}"
            meeting = meetings.get(fact.capture_id)
            if meeting is not None:
                text += f" ({meeting.title}, {meeting.occurred_at or 'no date'})"
            said.append(text)
        return said

    def _lines_of(self, fact: ActionItemRecord | DecisionRecord) -> list[tuple[str, bool]]:
        """The transcript lines a waiting item came from (True), and one on each side."""
        if fact.line_start is None:
            return []
        body = self.services.store.capture_source(fact.capture_id)[1].split("\n")
        start = fact.line_start
        end = fact.line_end if fact.line_end is not None else start
        first, last = max(1, start - 1), min(len(body), end + 1, start + 4)
        return [(f"L{n}  {body[n - 1]}", start <= n <= end) for n in range(first, last + 1)]

    def refresh_pages(self) -> None:
        from memo_tui.ui.screens.capture import CaptureScreen
        from memo_tui.ui.screens.page import Page

        for screen in self.screen_stack:
            if isinstance(screen, Page):
                screen.reload()
            elif isinstance(screen, CaptureScreen):
                screen.load()

    # Capture

    def running(self, group: str) -> bool:
        return any(w.group == group and w.is_running for w in self.workers)

    def action_capture(self) -> None:
        if self.running("capture"):  # one at a time: the job bar shows the one under way
            self.notify("A capture is under way: ctrl+x stops it.")
            return

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.capture_job(path)

        self.push_screen(dialogs.CaptureFile(), chosen)

    @work(thread=True, group="capture", exit_on_error=False)
    def capture_job(self, path: Path) -> None:
        """Capture a file or a folder, one file at a time; ctrl+x stops between files. Mail
        (an mbox, a Maildir folder, an .eml file) is imported, its progress in the job bar."""
        from memo_tui.core.capture import iter_sources
        from memo_tui.core.email.read import is_mail_source

        worker = self._current_worker()
        if is_mail_source(path):
            self._import_mail(path, lambda: worker.is_cancelled)
            return
        sources = list(iter_sources([path]))
        results: list[CaptureResult] = []
        self.call_from_thread(self._job, "Capturing", 0, len(sources))
        for number, (source, problem) in enumerate(sources):
            if worker.is_cancelled:
                break
            self.call_from_thread(self._job, f"Capturing {source.name}", number, len(sources))
            if problem is not None:
                from memo_tui.core.capture import CaptureResult

                results.append(CaptureResult(str(source), "rejected", error=problem.message))
                continue
            results.append(
                self.services.capture.capture_file(source, ask_replace=self._ask_replace)
            )
        self.call_from_thread(self._captured, results, len(sources), worker.is_cancelled)

    def _import_mail(self, path: Path, stopped: Callable[[], bool]) -> None:
        """An email import in the job bar: messages read (rate, ETA when the count is known),
        then threads captured; ctrl+x stops it and what is done stays."""
        from memo_tui.core.email.importer import ImportProgress, import_mail

        def progress(state: ImportProgress) -> None:
            if state.stage == "reading":
                eta = f", ~{state.eta_s:.0f} s left" if state.eta_s is not None else ""
                said = (
                    f"{path.name}: {state.share:.0%}, {state.messages:,} messages read, "
                    f"{state.rate:,.0f}/s{eta}"
                )
                self.call_from_thread(self._job, said, round(state.share * 1000), 1000, False)
            elif state.stage == "threads":
                said = f"{path.name}: threads"
                self.call_from_thread(
                    self._job, said, state.threads_done, max(state.threads_total, 1)
                )

        self.call_from_thread(self._job, f"Importing {path.name}", 0, 1)
        done = import_mail(
            self.services.store, path, self.services.capture.capture_thread, progress, stopped
        )
        skipped = f", {len(done.skipped)} malformed skipped" if done.skipped else ""
        if done.failed:
            skipped += f", {plural(len(done.failed), 'thread')} failed (tried again next import)"
        said = (
            f"{path.name}: {done.messages:,} messages, {done.new:,} new, "
            f"{done.bulk:,} newsletter{skipped}; {plural(done.threads, 'thread')} captured"
            + ("; stopped (ctrl+x): import again to go on" if done.stopped else "")
        )
        self.call_from_thread(self._job_done, said)
        self.call_from_thread(self.refresh_lists)

    def _ask_replace(self, replacement: Replacement) -> bool:
        """From the capture worker: show what would change and wait for the answer."""
        store = self.services.store
        stored = store.capture(replacement.stored_id)
        title, body, _, _ = store.capture_source(replacement.stored_id)
        new = replacement.new
        dialog = dialogs.replace_dialog(
            replacement.name,
            versions.Version(
                title,
                stored.occurred_at if stored else None,
                stored.decisions if stored else 0,
                stored.action_items if stored else 0,
                body.count("\n") + 1,
            ),
            versions.Version(
                new.title,
                new.occurred_at,
                len(new.decisions),
                len(new.action_items),
                new.line_count,
            ),
            versions.what_changed(body, new.text),
        )
        answer = self._ask_from_thread(dialog)
        worker = self._current_worker()
        while not worker.is_cancelled:  # quitting cancels the worker: stop waiting, keep all
            try:
                return bool(answer.result(timeout=0.2))
            except FutureTimeout:
                continue
        if not answer.done():  # stopped (ctrl+x) or quitting: take the question away
            with contextlib.suppress(RuntimeError):  # the app may be gone already
                self.call_from_thread(dialog.dismiss, False)
        return False

    def _ask_from_thread(self, dialog: dialogs.Dialog[bool]) -> Future[bool | None]:
        """From a worker's thread: show `dialog` on the app's thread; its answer arrives in
        the future (once: a dialog taken away after its question lapsed answers no one)."""
        answer: Future[bool | None] = Future()

        def answered(choice: bool | None) -> None:
            if not answer.done():
                answer.set_result(choice)

        self.call_from_thread(self.push_screen, dialog, answered)
        return answer

    def _captured(self, results: list[CaptureResult], total: int, cancelled: bool) -> None:
        self._job_done()
        counts: dict[str, int] = {}
        for result in results:
            counts[result.status] = counts.get(result.status, 0) + 1
        said = ", ".join(f"{n} {_OUTCOMES.get(status, status)}" for status, n in counts.items())
        if cancelled:
            said += f"; stopped after {len(results)} of {total} (ctrl+x)"
        problems = [r.error for r in results if r.status == "rejected" and r.error]
        kept = [r.error for r in results if r.status == "needs_replace" and r.error]
        self.notify(line(said or "nothing captured").plain, markup=False)
        if problems:
            self.push_screen(
                dialogs.ErrorDialog(
                    f"{plural(len(problems), 'file')} not captured",
                    "\n".join(problems[:20]) + ("\n..." if len(problems) > 20 else ""),
                )
            )
        for message in kept:
            self.notify(line(message).plain, markup=False)
        self.refresh_lists()
        self.refresh_pages()  # a replaced meeting may be open
        names = [name for r in results if r.ok for name in r.pending_names]
        if names:  # the meeting named someone several people fit: ask now
            self.action_who(list(dict.fromkeys(names)))

    # Delete, projects, notes

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def delete_capture(self, capture_id: int) -> None:
        from memo_tui.core.capture import delete

        store = self.services.store
        try:
            found = await asyncio.to_thread(delete.capture_to_delete, store, capture_id)
        except delete.UnknownCapture:
            return
        dialog = dialogs.delete_dialog(
            found.title, found.occurred_at, found.decisions, found.action_items
        )
        if not await self.push_screen_wait(dialog):
            return
        with contextlib.suppress(delete.UnknownCapture):  # gone meanwhile: gone all the same
            await asyncio.to_thread(delete.delete_capture, store, capture_id)
        if getattr(self.screen, "capture_id", None) == capture_id:  # its page: leave it
            self.pop_screen()
        self.notify(line(f"Deleted {found.title}").plain, markup=False)
        self.refresh_lists()
        self.refresh_pages()  # a person's or project's page may list its items

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def merge_person(self, person_id: int) -> None:
        """Ask who a person really is, then ask first, then merge them in one transaction."""
        from memo_tui.core.entities.names import similarity

        store = self.services.store
        directory = await asyncio.to_thread(store.directory)
        merged = next((p for p in directory.people if p.id == person_id), None)
        if merged is None:
            return
        others = sorted(
            (p for p in directory.people if p.id != person_id),
            key=lambda p: (-similarity(merged.name, p.name), p.name.casefold()),
        )
        note = "Their items, meetings, aliases and addresses move over; u undoes it."
        picked = await self.push_screen_wait(
            dialogs.PickPerson(merged.name, [(p.id, p.name) for p in others], note)
        )
        kept = next((p for p in others if p.id == picked), None)
        if kept is None:
            return
        body = line(f"{merged.name} and {kept.name} are one person: keep {kept.name}.")
        if not await self.push_screen_wait(
            dialogs.Confirm(f"Merge {merged.name} into {kept.name}?", body, "Merge")
        ):
            return
        done = await asyncio.to_thread(
            store.merge_people, merged.id, kept.id, self.services.settings.user_name
        )
        self.notify(
            line(f"Merged {merged.name} into {kept.name} ({done.action_items} items)").plain,
            markup=False,
        )
        self.refresh_lists()
        self.refresh_pages()

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def split_person(self, person_id: int) -> None:
        """Undo the latest merge into a person, once asked."""
        store = self.services.store
        undoable = await asyncio.to_thread(store.merges_into, person_id)
        person = await asyncio.to_thread(store.person, person_id)
        if person is None:
            return
        if not undoable:
            self.notify(line(f"Nobody was merged into {person.name}.").plain, markup=False)
            return
        latest = undoable[0]
        body = line(
            f"{latest.merged_name} comes back as a person of their own, with the "
            f"{plural(latest.action_items, 'item')} and {plural(latest.meetings, 'meeting')} "
            "the merge moved."
        )
        title = f"Split {latest.merged_name} back out of {person.name}?"
        if not await self.push_screen_wait(dialogs.Confirm(title, body, "Split")):
            return
        await asyncio.to_thread(store.split_person, latest.id)
        self.notify(line(f"Split {latest.merged_name} back out").plain, markup=False)
        self.refresh_lists()
        self.refresh_pages()

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def add_project(self) -> None:
        directory = await asyncio.to_thread(self.services.store.directory)
        clients = [client.name for client in directory.clients]
        answer = await self.push_screen_wait(dialogs.NewProject(clients))
        if answer is None:
            return
        name, client = answer
        try:
            await asyncio.to_thread(self.services.store.add_project, name, client)
        except Exception as error:  # noqa: BLE001 - e.g. the name is taken: say so
            self.push_screen(dialogs.ErrorDialog("Project not added", str(error)))
            return
        self.notify(line(f"Added project {name}").plain, markup=False)
        self.refresh_lists()

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def add_concept(self) -> None:
        name = await self.push_screen_wait(dialogs.NewConcept())
        if name is None:
            return
        try:
            await asyncio.to_thread(self.services.store.add_concept, name)
        except Exception as error:  # noqa: BLE001 - e.g. the name is taken: say so
            self.push_screen(dialogs.ErrorDialog("Concept not added", str(error)))
            return
        self.notify(line(f"Added concept {name}: r writes its document").plain, markup=False)
        self.refresh_lists()

    def _notes(self) -> NotesService:
        from memo_tui.core.notes import NotesService

        # (no `refreshed`: _noted embeds in the background, in the job bar)
        return NotesService(self.services.store, self.services.settings.user_name)

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def write_note(self, project_id: int, page: Page | None = None) -> None:
        """A note about a project, or about its client."""
        from memo_tui.core.notes import UnknownOwner

        notes = self._notes()
        try:
            owners = await asyncio.to_thread(notes.owners_of, project_id)
        except UnknownOwner:
            return
        said = {"project": "the project", "client": "its client"}
        written = await self.push_screen_wait(
            dialogs.NoteEditor(
                f"A note about {owners[0].name}",
                owners=tuple(f"{o.name} ({said[o.kind]})" for o in owners),
            )
        )
        if written is None:
            return
        await asyncio.to_thread(notes.add, owners[written.about], written.body)
        await self._noted(page)

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def edit_note(self, note: NoteRecord, page: Page | None = None) -> None:
        about = f"Your note about {note.owner}" + (" (the client)" if note.kind == "client" else "")
        written = await self.push_screen_wait(dialogs.NoteEditor(about, note.body))
        if written is None:
            return
        edited = await asyncio.to_thread(self._notes().edit, note.id, written.body)
        if edited.changed:
            await self._noted(page)

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def delete_note(self, note: NoteRecord, page: Page | None = None) -> None:
        from memo_tui.core.notes import UnknownNote

        dialog = dialogs.Confirm("Delete this note?", line(note.body, 200), "Delete", danger=True)
        if not await self.push_screen_wait(dialog):
            return
        with contextlib.suppress(UnknownNote):  # gone meanwhile: gone all the same
            await asyncio.to_thread(self._notes().delete, note.id)
        await self._noted(page)

    async def _noted(self, page: Page | None) -> None:
        """A note changed: embed it (best effort), refresh what shows it."""
        if not self.services.embed.unavailable and not self.running("backfill"):
            self.backfill(quiet=True)  # (a backfill under way picks the note up itself)
        if page is not None:
            page.reload()
        self.refresh_lists()

    # Agents

    def run_agent_job(
        self, agent: str, entity: str, page: Page | None = None, resume: int | None = None
    ) -> None:
        """Run an agent on an entity (or go on with run `resume`), one at a time."""
        if self.running("agent"):
            self.notify("An agent is running; this page updates when it is done.")
            return
        self.agent_job(agent, entity, page, resume)

    @work(thread=True, group="agent", exit_on_error=False)
    def agent_job(self, agent: str, entity: str, page: Page | None, resume: int | None) -> None:
        """Run an agent, its steps in the job bar; its document appears on the page. ctrl+x
        stops it after the step in hand: the run is interrupted, and r in Runs resumes it."""
        from memo_tui.core.agents.service import UnknownEntity, resume_run, run_agent

        worker = self._current_worker()
        steps = 0

        def follow(seq: int, kind: str, payload: dict[str, Any]) -> None:
            nonlocal steps
            if kind == "tool_call":
                steps += 1
                what = f"{agent}: {payload.get('name')}"
                self.call_from_thread(self._job, what, steps, max(steps, 8))

        def stopped() -> bool:
            return worker.is_cancelled

        self.call_from_thread(self._job, f"{agent}: starting", 0, 8)
        self.call_from_thread(self.refresh_lists)  # the run shows in the Runs pane
        try:
            if resume is None:
                outcome = run_agent(self.services, agent, entity, follow, self._ask_user, stopped)
            else:
                outcome = resume_run(self.services, resume, follow, self._ask_user, stopped)
        except UnknownEntity as error:
            self.call_from_thread(self._job_done, str(error))
            return
        said = f"{agent} {outcome.status}: {len(outcome.writes)} writes" + (
            f"; {outcome.error}" if outcome.error else ""
        )
        self.call_from_thread(self._job_done, said)
        self.call_from_thread(self.refresh_lists)
        if page is not None:
            self.call_from_thread(page.reload)

    async def _ask_user(self, proposal: Proposal) -> str:
        """An agent's proposal (from the run's own event loop, on the worker's thread): the
        Approve dialog on the app's thread; its answer, or 'skipped' when time runs out."""
        store = self.services.store
        ids = [int(c) for c in proposal.arguments.get("capture_ids", [])]
        meetings = {i: store.capture(i) for i in ids}
        said = "\n".join(
            [f"Link {len(ids)} meeting(s) to the project:"]
            + [f"- {m.title if m else f'meeting {i}'}" for i, m in meetings.items()]
            + [f"Why: {proposal.arguments.get('reason', '')}"]
        )
        dialog = dialogs.Approve(proposal.agent, said, proposal.timeout_s)
        answer = self._ask_from_thread(dialog)
        try:
            choice = await asyncio.wrap_future(answer)
        except asyncio.CancelledError:  # the run's own timeout: take the question away
            with contextlib.suppress(RuntimeError):
                self.call_from_thread(dialog.dismiss, None)
            raise
        if choice is None:
            return "skipped"
        return "accepted" if choice else "rejected"

    @work(exclusive=True, group="edit", exit_on_error=False)
    async def edit_section(
        self, entity_type: str, entity_id: int, section: SectionRecord, page: Page | None
    ) -> None:
        """The user's edit of a living document's section: final (agents leave it)."""
        from memo_tui.core.sections import SectionService
        from memo_tui.ui.screens.page import section_title

        title = f"{section_title(section.key)} (agents will leave your edit)"
        written = await self.push_screen_wait(dialogs.NoteEditor(title, section.body))
        if written is None or written.body == section.body:
            return
        sections = SectionService(self.services.store)
        await asyncio.to_thread(
            sections.edit,
            entity_type,
            entity_id,
            section.key,
            written.body,
            section.cited_fact_keys,
        )
        if page is not None:
            page.reload()

    # Embeddings and the demo

    def action_backfill(self) -> None:
        if self.running("backfill"):
            self.notify("Embedding is under way: ctrl+x stops it.")
            return
        self.backfill()

    @work(thread=True, group="backfill", exit_on_error=False)
    def backfill(self, quiet: bool = False) -> None:
        """Embed every fact without a vector, a batch at a time (ctrl+x stops)."""
        worker = self._current_worker()
        embed = self.services.embed
        total = self.services.store.count_without_vectors()
        if not quiet:
            self.call_from_thread(self._job, "Embedding facts", 0, total)

        def progress(result: Any) -> None:
            if worker.is_cancelled:
                raise _Stopped
            if not quiet:
                done = result.embedded + result.reused
                self.call_from_thread(self._job, "Embedding facts", done, total)

        try:
            result = embed.backfill(progress=progress)
        except _Stopped:
            self.call_from_thread(self._job_done, "Embedding stopped; memo backfill resumes it")
            return
        said = (
            f"Embedded {result.embedded}, reused {result.reused}; "
            f"{result.remaining} without a vector" + (f" ({result.error})" if result.error else "")
        )
        # Quiet (a note's embedding): a missing model is no news (the status line says
        # "keyword search only"); a model that failed is.
        failed = result.error and not embed.unavailable
        self.call_from_thread(self._job_done, None if quiet and not failed else said)
        self.call_from_thread(self.refresh_lists)

    @work(thread=True, exclusive=True, group="seed", exit_on_error=False)
    def seed(self) -> None:
        """The demo store on first use: capture the sample meetings, showing progress."""
        from memo_tui.core.demo import demo_meetings, seed_demo

        total = len(demo_meetings())
        self.call_from_thread(self._job, "Seeding the demo meetings", 0, total)
        done = 0

        def one(_: object) -> None:
            nonlocal done
            done += 1
            self.call_from_thread(self._job, "Seeding the demo meetings", done, total)

        seed_demo(self.services.capture, progress=one)
        self.call_from_thread(self._job_done)
        self.call_from_thread(self.refresh_lists)

    # The job bar, cancel and failures

    def _job(self, label: str, done: int, total: int, counted: bool = True) -> None:
        """The job bar: what runs, how far (`counted`: say done/total in words too)."""
        bar = self.query_one("#job")
        if not bar.has_class("running"):
            bar.add_class("running")
            self.refresh_bindings()  # ctrl+x appears
        said = f"{label} ({done}/{total})" if counted else label
        self.query_one("#job-label", Label).update(line(f"{said} · ctrl+x stops"))
        self.query_one(ProgressBar).update(total=max(total, 1), progress=done)

    def _job_done(self, message: str | None = None) -> None:
        try:
            self.query_one("#job").remove_class("running")
        except NoMatches:  # the app is closing: a worker finished after its screen went
            return
        self.refresh_bindings()
        if message:
            self.notify(line(message).plain, markup=False)

    def action_cancel_job(self) -> None:
        running = [w for w in self.workers if w.group in (*JOBS, "ask", "facts") and w.is_running]
        if not running:
            self.notify("Nothing is running.")
            return
        for worker in running:
            worker.cancel()
        self.notify("Stopping…")

    def _current_worker(self) -> Worker[Any]:

        return get_current_worker()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker failed: say what happened; the app carries on. (And ctrl+x shows only
        while something it can stop is running.)"""
        if event.worker.group in CANCELLABLE:
            self.refresh_bindings()
        if event.state is WorkerState.ERROR:
            self._job_done()
            what = event.worker.group or event.worker.name or "work"
            self.push_screen(
                dialogs.ErrorDialog(f"Something went wrong ({what})", str(event.worker.error))
            )


class _Stopped(Exception):
    """The user pressed ctrl+x during a backfill."""
