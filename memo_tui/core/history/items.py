"""Action items as `memo items` lists them: every meeting's, oldest meeting first, narrowed
to those still open, those a person owes, or those a person asked someone else for."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from store import ActionItemRecord, Store


def action_items(
    store: Store, open_only: bool = False, owner: int | None = None, owed_to: int | None = None
) -> list[ActionItemRecord]:
    """The items; `owner` and `owed_to` are person ids. An item is owed to the person who
    asked for it (by their name or an alias, as said), unless they also own it."""
    items = store.captures.action_items(store.captures.ids_by_date())
    if open_only:
        items = [i for i in items if i.status == "open"]
    if owner is not None:
        items = [i for i in items if i.person_id == owner]
    if owed_to is not None:
        asker = store.people.get(owed_to)
        names = {asker.name.lower(), *(a.alias.lower() for a in asker.aliases)} if asker else set()
        items = [i for i in items if (i.asked_by or "").lower() in names and i.person_id != owed_to]
    return items
