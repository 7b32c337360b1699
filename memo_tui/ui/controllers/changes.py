"""The review: decisions and action items memo is not sure of, then decisions that may
replace earlier ones and lines that may close an action item, one dialog each; memo applies
an answer only here (or `memo review`, `memo changes`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from memo_tui.ui.controllers.base import Controller
from memo_tui.ui.text import plural

if TYPE_CHECKING:
    from memo_tui.core.history.review import ReviewService
    from store import ReviewItem


class ChangesController(Controller):
    def review(self) -> None:
        self.run(self._review(), group="changes")

    async def _review(self) -> None:
        """Items first, then changes; escape stops both."""
        decided, stopped = await self._items()
        if not stopped:
            decided += await self._changes()
        if decided:
            # the re-worded facts get their vectors again
            self.app.controllers.jobs.start_backfill(quiet=True)
        self.app.refresh_lists()
        self.app.refresh_pages()

    async def _items(self) -> tuple[int, bool]:
        """Accept, reject, edit, or leave for later each proposed item: (how many the user
        settled, whether they stopped with escape)."""
        from memo_tui.core.history.review import ReviewService

        service = ReviewService(self.services.store, self.services.settings.user_name)
        waiting = await asyncio.to_thread(service.listed)
        decided = 0
        for number, item in enumerate(waiting, 1):
            answer = await self._item(service, item, number, len(waiting))
            if answer is None:
                return decided, True
            decided += answer != "later"
        if decided:
            self.app.notify(f"{plural(decided, 'item')} reviewed")
        return decided, False

    async def _item(
        self, service: ReviewService, item: ReviewItem, number: int, count: int
    ) -> str | None:
        """One item's dialog and the user's word on it, written ("later" when an edit was
        left or refused)."""
        from memo_tui.core.history.review import ReviewError
        from memo_tui.ui.dialogs.item_review import ItemEdit, ItemReview

        said = await asyncio.to_thread(service.evidence, item)
        answer = await self.app.push_screen_wait(ItemReview(item, said, number, count))
        if answer in ("accept", "reject"):
            await self.commit(service.decide, item.handle, answer)
        elif answer == "edit":
            edit = await self.app.push_screen_wait(ItemEdit(item))
            if edit is None:
                return "later"
            try:
                await self.commit(service.edit, item.handle, edit)
            except ReviewError as error:
                self.say(f"Not saved: {error}")
                return "later"
        return answer

    async def _changes(self) -> int:
        """Accept, reject, or leave for later; then keep or undo what memo applied on its
        own; escape stops. How many the user decided."""
        from memo_tui.core.history.service import ChangesService
        from memo_tui.ui.dialogs.change_review import AppliedReview, ChangeReview

        service = ChangesService(self.services.store, self.services.settings.user_name)
        waiting = await asyncio.to_thread(service.review)
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
        return decided
