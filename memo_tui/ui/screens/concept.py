"""A concept's page: its living document."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding

from memo_tui.ui.screens.page import Entry, Page
from memo_tui.ui.text import line, plural, styled

if TYPE_CHECKING:
    from memo_tui.core.services import Services


class ConceptPage(Page):
    HELP = (
        "A concept's living document: its scope, what was learned or decided about it, and "
        "how the understanding changed, each section citing the facts it rests on (r: the "
        "concept_compile agent writes it; e edits a section, and agents then leave it; u gives "
        "it back to them)."
    )
    BINDINGS = [Binding("e", "edit", "Edit", id="concept.edit")]
    agent = "concept_compile"
    entity_type = "concept"

    def __init__(self, services: Services, concept_id: int) -> None:
        super().__init__(services)
        self.entity_id = concept_id

    def build(self) -> tuple[Text, list[Entry]]:
        from memo_tui.core.views.pages import concept_view

        view = concept_view(self.services, self.entity_id)
        if view is None:
            return styled("This concept is no longer in the store.", "bold"), []
        concept = view.concept
        self.app.call_from_thread(setattr, self, "entity_name", concept.name)
        head = line(concept.name, style="bold")
        head.append(f"\nconcept · {plural(concept.sections, 'section')}")
        return head, self.document(view.sections)
