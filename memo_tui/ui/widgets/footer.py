"""The key footer, made to fit the terminal's width.

The keys of the screen in hand matter most, so when every key with its description does not
fit, the pane keys give way first: they fold into one group (`1 2 3 4 5 6 panes`), then,
if that is still too wide, leave the footer to a `F1 keys` hint (they keep working, and F1
lists every key). The command palette's key goes with them.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel

PANE_PREFIX = "pane."  # the ids of the bindings that give way
STOP_ID = "app.cancel"  # ctrl+x, shown while a job runs
PALETTE_ROOM = 12  # "▏^p Palette " docked on the right
FULL, FOLDED, HIDDEN = 0, 1, 2  # how the pane keys are shown

Shown = list[tuple[Binding, bool, str]]


def _is_pane(binding: Binding) -> bool:
    return (binding.id or "").startswith(PANE_PREFIX)


class KeyFooter(Footer):
    """Textual's compact footer, whose pane keys give way when the keys would not fit."""

    def __init__(self, show_command_palette: bool = True) -> None:
        super().__init__(compact=True, show_command_palette=show_command_palette)
        self.wants_palette = show_command_palette
        self.level = FULL

    def _shown(self) -> Shown:
        """The bindings to show, one per action, as the screen has them now; the key that
        stops a running job first (it comes and goes, and matters most while it shows)."""
        seen: dict[str, tuple[Binding, bool, str]] = {}
        for _, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen[binding.action] = (binding, enabled, tooltip)
        return sorted(seen.values(), key=lambda shown: shown[0].id != STOP_ID)

    def _width(self, shown: Shown, level: int) -> int:
        """Cells the keys take at `level` (compact: key, space, description, space)."""
        width = 0
        for binding, _, _ in shown:
            key = cell_len(self.app.get_key_display(binding)) + 1
            if not _is_pane(binding) or level == FULL:
                width += key + cell_len(binding.description) + 1
            elif level == FOLDED:
                width += key
        panes = any(_is_pane(b) for b, _, _ in shown)
        hint = {FULL: 0, FOLDED: len("panes "), HIDDEN: len("F1 keys ")}[level]
        palette = PALETTE_ROOM if self.wants_palette and level != HIDDEN else 0
        return width + (hint if panes else 0) + palette

    def _fitting_level(self, shown: Shown) -> int:
        room = self.size.width or self.app.size.width
        return next((n for n in (FULL, FOLDED) if self._width(shown, n) <= room), HIDDEN)

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        shown = self._shown()
        self.level = self._fitting_level(shown)
        self.set_reactive(Footer.show_command_palette, self.wants_palette and self.level != HIDDEN)
        panes = [b for b, _, _ in shown if _is_pane(b)]
        for binding, enabled, tooltip in shown:
            pane = _is_pane(binding)
            if not pane or self.level == FULL:
                yield self._key(binding, enabled, tooltip)
            elif self.level == FOLDED:
                yield self._key(binding, enabled, tooltip or binding.description, said=False)
            if pane and binding is panes[-1] and self.level != FULL:
                yield FooterLabel("panes" if self.level == FOLDED else "F1 keys", classes="hint")
        palette = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE and palette:
            _, binding, enabled, tooltip = palette
            key = self._key(binding, enabled, tooltip or binding.description)
            key.add_class("-command-palette")
            yield key

    def _key(self, binding: Binding, enabled: bool, tooltip: str, said: bool = True) -> FooterKey:
        key = FooterKey(
            binding.key,
            self.app.get_key_display(binding),
            binding.description if said else "",
            binding.action,
            disabled=not enabled,
            tooltip=tooltip,
        )
        return key.data_bind(compact=Footer.compact)

    def on_resize(self) -> None:
        """Fold or unfold as the terminal's width changes."""
        if self._bindings_ready and self.level != self._fitting_level(self._shown()):
            self.call_after_refresh(self.recompose)
