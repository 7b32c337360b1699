"""The Changes review: decisions that may replace earlier ones and lines that may close an
action item, one dialog each; memo applies an answer only here (or `memo changes`)."""

from __future__ import annotations

import asyncio

from memo_tui.ui.controllers.base import Controller
from memo_tui.ui.text import plural


class ChangesController(Controller):
    def review(self) -> None:
        self.run(self._review(), group="changes")

    async def _review(self) -> None:
        """Accept, reject, or leave for later; then keep or undo what memo applied on its
        own; escape stops."""
        from memo_tui.core.history.service import ChangesService
        from memo_tui.ui.dialogs.change_review import AppliedReview, ChangeReview

        service = ChangesService(self.services.store, self.services.settings.user_name)
        waiting = await asyncio.to_thread(service.review)
        if not waiting:
            self.app.notify("No changes wait for review.")
            return
        decided = 0
        for number, change in enumerate(waiting, 1):
            dialog = AppliedReview if change.applied_by_memo else ChangeReview
            answer = await self.app.push_screen_wait(dialog(change, number, len(waiting)))
            if answer is None:
                break
            if answer in ("accept", "reject"):
                await self.commit(service.decide, change.id, answer)
                decided += 1
        if decided:
            self.app.notify(f"{plural(decided, 'change')} decided")
            # the re-worded facts get their vectors again
            self.app.controllers.jobs.start_backfill(quiet=True)
        self.app.refresh_lists()
        self.app.refresh_pages()
