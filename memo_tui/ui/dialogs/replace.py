"""Replace a stored meeting with a new version of it? Both versions side by side."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from memo_tui.ui.dialogs.confirm import Confirm
from memo_tui.ui.text import line, plural

if TYPE_CHECKING:
    from memo_tui.core.capture.versions import Change, Version


def replace_dialog(
    name: str, stored: Version, new: Version, change: Change | None = None
) -> Confirm:
    """ "Replace the stored meeting with this file?", showing what would change."""
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column("")
    table.add_column("Stored", overflow="fold")
    table.add_column("This file", overflow="fold")
    rows = [
        ("Title", stored.title, new.title),
        ("Date", stored.date or "none", new.date or "none"),
        ("Decisions", str(stored.decisions), str(new.decisions)),
        ("Action items", str(stored.action_items), str(new.action_items)),
        ("Lines", str(stored.lines), str(new.lines)),
    ]
    if change is not None:
        rows.append(("Changed", "", f"{plural(change.lines, 'line')}, from L{change.first}"))
        rows.append((f"L{change.first}", change.was, change.now))
    for label, old, fresh in rows:
        style = "bold" if old != fresh else "dim"
        table.add_row(label, line(old, 30), line(fresh, 30, style=style))
    intro = line(f"{name} looks like a new version of a stored meeting.")
    body = Table.grid()
    body.add_row(intro)
    body.add_row(table)
    body.add_row(Text("Replacing keeps nothing of the stored version.", style="dim"))
    return Confirm(
        "Replace the stored meeting?", body, "Replace", "Keep the stored one", danger=True
    )
