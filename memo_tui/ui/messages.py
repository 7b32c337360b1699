"""What widgets and screens tell the app. They post these and never call the app's work
directly; the app routes each to its controller (or moves to the page asked for).

Requests say what the user asked for (`AgentRunRequested`); events say what happened
(`RowOpened`, `FeedShown`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from memo_tui.core.projects import Kind
    from memo_tui.ui.screens.page import Page
    from memo_tui.ui.widgets.ask import AskPane
    from memo_tui.ui.widgets.facts import FactsPane
    from store import FactFilter, FactRecord, NoteRecord, SectionRecord


class RowOpened(Message):
    """A list's row was opened: a capture, a person, a project, a concept or a run."""

    def __init__(self, kind: str, key: int) -> None:
        super().__init__()
        self.kind, self.key = kind, key


class FactOpened(Message):
    """A fact was opened: its meeting at the lines it came from."""

    def __init__(self, fact: FactRecord) -> None:
        super().__init__()
        self.fact = fact


class SourceOpened(Message):
    """A line of a page was opened: its meeting, at those lines."""

    def __init__(self, capture_id: int, lines: tuple[int, int] | None) -> None:
        super().__init__()
        self.capture_id, self.lines = capture_id, lines


class FeedRequested(Message):
    """The facts feed's first page, or a search's hits, under the filters as typed (and
    fact `types` chosen); `hiding_excerpts` when excerpts are left out of them."""

    def __init__(
        self,
        pane: FactsPane,
        typed: dict[str, str],
        types: tuple[str, ...],
        hiding_excerpts: bool,
        page: int,
    ) -> None:
        super().__init__()
        self.pane, self.typed, self.types, self.page = pane, typed, types, page
        self.hiding_excerpts = hiding_excerpts


class FeedPageRequested(Message):
    """The feed's next page, after `last`, under `flt`."""

    def __init__(self, pane: FactsPane, last: FactRecord, flt: FactFilter, page: int) -> None:
        super().__init__()
        self.pane, self.last, self.flt, self.page = pane, last, flt, page


class AnswerRequested(Message):
    """Answer `question` in the Ask pane's conversation."""

    def __init__(self, pane: AskPane, question: str) -> None:
        super().__init__()
        self.pane, self.question = pane, question


class NewChatRequested(Message):
    """Forget the conversation (ctrl+l): the next question starts afresh."""


class FeedShown(Message):
    """The facts feed's first page is on screen (`memo bench startup` times it)."""


class CaptureDeleteRequested(Message):
    """Delete the capture and what it holds (after a question saying what goes)."""

    def __init__(self, capture_id: int) -> None:
        super().__init__()
        self.capture_id = capture_id


class PersonMergeRequested(Message):
    """This person is someone else listed twice: ask who, then merge."""

    def __init__(self, person_id: int) -> None:
        super().__init__()
        self.person_id = person_id


class PersonSplitRequested(Message):
    """Undo the latest merge into this person."""

    def __init__(self, person_id: int) -> None:
        super().__init__()
        self.person_id = person_id


class ProjectAddRequested(Message):
    """A new project: ask its name and client, then add it."""


class ConceptAddRequested(Message):
    """A new concept: ask its name, then add it (r writes its document)."""


class ProjectRenameRequested(Message):
    """Rename the project (`kind` "project") or its client ("client")."""

    def __init__(self, project_id: int, page: Page, kind: Kind = "project") -> None:
        super().__init__()
        self.project_id, self.page, self.kind = project_id, page, kind


class ProjectDeleteRequested(Message):
    """Delete the project (after a question saying what goes with it); its page closes."""

    def __init__(self, project_id: int, page: Page) -> None:
        super().__init__()
        self.project_id, self.page = project_id, page


class NoteWriteRequested(Message):
    """A new note about a project (or its client); `page` shows it once written."""

    def __init__(self, project_id: int, page: Page | None = None) -> None:
        super().__init__()
        self.project_id, self.page = project_id, page


class NoteEditRequested(Message):
    """Edit the user's note; `page` shows the new text."""

    def __init__(self, note: NoteRecord, page: Page | None = None) -> None:
        super().__init__()
        self.note, self.page = note, page


class NoteDeleteRequested(Message):
    """Delete the note (after a question); `page` no longer shows it."""

    def __init__(self, note: NoteRecord, page: Page | None = None) -> None:
        super().__init__()
        self.note, self.page = note, page


class SectionEditRequested(Message):
    """The user edits a section of a living document (agents leave it after)."""

    def __init__(
        self, entity_type: str, entity_id: int, section: SectionRecord, page: Page | None
    ) -> None:
        super().__init__()
        self.entity_type, self.entity_id = entity_type, entity_id
        self.section, self.page = section, page


class SectionResetRequested(Message):
    """Give a section the user edited back to the agent that writes the document."""

    def __init__(
        self, entity_type: str, entity_id: int, section: SectionRecord, page: Page
    ) -> None:
        super().__init__()
        self.entity_type, self.entity_id = entity_type, entity_id
        self.section, self.page = section, page


class AgentRunRequested(Message):
    """Run `agent` on `entity` (named, or a list's row: `on`, as `RowOpened` gives it), or go
    on with run `resume`; `page` reloads after."""

    def __init__(
        self,
        agent: str,
        entity: str = "",
        page: Page | None = None,
        resume: int | None = None,
        on: tuple[str, int] | None = None,
    ) -> None:
        super().__init__()
        self.agent, self.entity, self.page, self.resume, self.on = agent, entity, page, resume, on
