"""The start: the first paint before anything heavy, then the store opened in a worker (the
imports it needs are most of the start-up time), the settings applied (theme, animation, the
user's keymap), the demo seeded on first use, and the watch for other processes' writes.

`memo bench startup` times it through MEMO_STARTUP_PROBE: the first paint, the lists filled
and the facts feed's first page shown (then the app leaves).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from memo_tui.ui import keys
from memo_tui.ui.controllers.base import Controller
from memo_tui.ui.text import line

if TYPE_CHECKING:
    from textual.theme import Theme

    from memo_tui.core.services import Services
    from memo_tui.settings import Settings


class StartupController(Controller):
    probe: Path | None = None  # where `memo bench startup` wants the times

    def mount(self) -> None:
        """From the app's on_mount: open the store after the first paint (or start on the
        services the app was given)."""
        self.stamped: set[str] = set()
        probe = os.environ.get("MEMO_STARTUP_PROBE")
        if probe:
            self.probe = Path(probe)
            self.app.call_after_refresh(self.stamp, "painted")
        if self.app.ready:
            self.start()
        else:  # after the first paint: the imports would slow it
            self.app.call_after_refresh(self.open)

    def stamp(self, what: str) -> None:
        """`memo bench startup`: note when `what` happened (and leave once all have)."""
        if self.probe is None or what in self.stamped:
            return
        with self.probe.open("a", encoding="utf-8") as out:
            out.write(f"{what} {time.time()}\n")
        self.stamped.add(what)
        if {"ready", "feed"} <= self.stamped:
            self.app.exit()

    def open(self) -> None:
        self.run_thread(self._open, group="open", exclusive=True)

    def _open(self) -> None:
        """Open the store (importing SQLAlchemy and the rest); a store that cannot open ends
        the app with the CLI's exit code and why."""
        opener = self.app.opener
        assert opener is not None
        try:
            services = opener()
            from memo_tui.core.demo import unseeded  # (after the opener's imports)

            seed = self.app.seed_demo and unseeded(services.store)
        except Exception as error:  # noqa: BLE001 - the app cannot work without its store
            bad_settings = isinstance(error, ValueError)  # (the opener says which setting)
            message = f"memo: {error}" if bad_settings else f"memo: cannot open the store: {error}"
            code = 2 if bad_settings else 1  # the CLI's usage and refused exit codes
            self.from_thread(lambda: self.app.exit(return_code=code, message=line(message)))
            return
        self.from_thread(self._opened, services, seed)

    def _opened(self, services: Services, seed: bool) -> None:
        self.app.opened(services, seed)
        self.app.refresh_bindings()
        self.start()

    def start(self) -> None:
        app = self.app
        self._apply(app.services.settings)
        if app.seed_demo:
            app.controllers.jobs.seed()  # then catches up (one job bar: one job at a time)
        else:
            app.refresh_lists()
            app.controllers.jobs.catch_up()
        app.set_interval(app.WATCH_EVERY_S, app.controllers.lists.watch)

    def _theme_chosen(self, theme: Theme) -> None:
        """A theme picked in the palette is the one the app starts with next time."""
        self.run_thread(self._remember_theme, theme.name, group="settings")

    def _remember_theme(self, name: str) -> None:
        from memo_tui.settings import remember

        try:
            remember("theme", name)
        except OSError as error:
            self.from_thread(self.say, f"The theme was not saved: {error}")

    def _apply(self, settings: Settings) -> None:
        """Theme, animation and the user's keymap (a binding id it names that no key has is
        reported, and left out)."""
        app = self.app
        app.animation_level = "full" if settings.animations else "none"
        if settings.theme in app.available_themes:
            app.theme = settings.theme
        else:
            app.notify(
                f"Unknown theme {settings.theme!r}; try one of: "
                + ", ".join(sorted(app.available_themes)),
                severity="warning",
                markup=False,
            )
        # (after the configured theme: a theme picked from now on is kept, a bad one fixed too)
        app.theme_changed_signal.subscribe(app, self._theme_chosen)
        known = keys.known_ids(app)
        unknown = sorted(set(settings.keymap) - known)
        if unknown:
            app.notify(
                f"keymap: no binding has the id {', '.join(unknown)} (F1 lists them)",
                severity="warning",
                markup=False,
            )
        app.set_keymap({k: v for k, v in settings.keymap.items() if k in known})
