"""The app's work, one controller to a subject; the app holds one of each and routes the
messages its widgets post to them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memo_tui.ui.controllers.agents import AgentsController
from memo_tui.ui.controllers.ask import AskController
from memo_tui.ui.controllers.capture import CaptureController
from memo_tui.ui.controllers.changes import ChangesController
from memo_tui.ui.controllers.facts import FactsController
from memo_tui.ui.controllers.jobs import JobsController
from memo_tui.ui.controllers.lists import ListsController
from memo_tui.ui.controllers.names import NamesController
from memo_tui.ui.controllers.notes import NotesController
from memo_tui.ui.controllers.projects import ProjectsController
from memo_tui.ui.controllers.startup import StartupController

if TYPE_CHECKING:
    from memo_tui.ui.app import MemoApp

__all__ = ["Controllers"]


class Controllers:
    def __init__(self, app: MemoApp) -> None:
        self.startup = StartupController(app)
        self.jobs = JobsController(app)
        self.lists = ListsController(app)
        self.capture = CaptureController(app)
        self.names = NamesController(app)
        self.changes = ChangesController(app)
        self.facts = FactsController(app)
        self.notes = NotesController(app)
        self.projects = ProjectsController(app)
        self.agents = AgentsController(app)
        self.ask = AskController(app)
