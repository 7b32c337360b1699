"""Keys: which binding ids a user's keymap may move, and what F1 lists for the screen in
hand (its keys, with their ids, including those shown only while they can do something)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual.binding import Binding

from memo_tui.ui import dialogs
from memo_tui.ui.widgets.pane import ListPane, Pane
from memo_tui.ui.widgets.table import Table

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

# Keys that show only while they can do something; F1 lists them all the same.
SOMETIMES = {
    "app.who": "Who? (settle a name several people fit, while one waits)",
    "app.review": "Review unconfirmed items and changes across meetings (while one waits)",
    "app.cancel": "Stop the running job (while one runs)",
}


def known_ids(app: App[None]) -> set[str]:
    """Every binding id in the app: the app's own, the panes', pages', screens' and dialogs'."""
    from memo_tui.ui.screens.capture import CaptureScreen
    from memo_tui.ui.screens.page import Page
    from memo_tui.ui.screens.run import RunScreen

    classes = (
        *Pane.__subclasses__(),
        *ListPane.__subclasses__(),
        Page,
        *Page.__subclasses__(),
        CaptureScreen,
        RunScreen,
        Table,
        dialogs.Dialog,
        *dialogs.Dialog.__subclasses__(),
    )
    ids: set[str | None] = set()
    for cls in (*type(app).__mro__, *classes):
        ids |= {b.id for b in getattr(cls, "BINDINGS", []) if isinstance(b, Binding)}
    return {i for i in ids if i}


def _own(app: App[None]) -> list[Binding]:
    """The app's own bindings (its class's and its bases')."""
    return [
        b
        for cls in type(app).__mro__
        for b in getattr(cls, "BINDINGS", [])
        if isinstance(b, Binding)
    ]


def help_rows(
    app: App[None], screen: Screen[object], app_keys: bool = True
) -> list[tuple[str, str, str]]:
    """(keys, what they do, binding id) for each key of `screen`, and the app's keys that
    show only sometimes (listed even while hidden); `app_keys=False`: the screen's own keys
    (a dialog's, where the app's wait)."""
    keys: dict[str, tuple[list[str], str]] = {}  # binding id: its keys, what it does
    bound = screen.active_bindings.items()
    active = [(key, a.binding) for key, a in bound if app_keys or a.node is not app]
    later = [(key, b) for b in _own(app) if b.id in SOMETIMES for key in b.key.split(",")]
    later = later if app_keys else []
    for key, binding in [*active, *later]:
        if binding.description and binding.id:
            does = SOMETIMES.get(binding.id, binding.description)
            shown = keys.setdefault(binding.id, ([], does))[0]
            display = app.get_key_display(replace(binding, key=key)) or key
            if display not in shown:
                shown.append(display)
    return [(" ".join(k), does, binding_id) for binding_id, (k, does) in keys.items()]
