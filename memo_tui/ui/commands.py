"""The command palette (ctrl+p): go to a person, project or meeting; ask; capture; backfill.

Names and titles come from transcripts, so hits are drawn as plain content (the stock
highlighter would read them as markup) and sanitized first.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from memo_tui.ui import messages
from memo_tui.ui.text import line

if TYPE_CHECKING:
    from memo_tui.ui.app import MemoApp

KINDS = {"person": "Go to person", "project": "Go to project", "capture": "Open meeting"}


class MemoCommands(Provider):
    """memo's own commands, and every person, project and meeting by name."""

    @property
    def memo(self) -> MemoApp:
        from memo_tui.ui.app import MemoApp

        assert isinstance(self.app, MemoApp)
        return self.app

    def _actions(self) -> list[tuple[str, Callable[[], object], str]]:
        app = self.memo
        return [
            ("Capture a file or folder", app.action_capture, "c: a path, completed as you type"),
            ("Ask a question", partial(app.action_pane, "ask"), "5: answers cite their sources"),
            ("Backfill embeddings", app.action_backfill, "embed facts that have no vector yet"),
            *(
                [("Settle names (who is it?)", app.action_who, "w: names several people fit")]
                if app.waiting_names
                else []
            ),
            *(
                [
                    (
                        "Review what memo is not sure of",
                        app.action_review_changes,
                        "v: unconfirmed items, replaced decisions and done items memo proposes",
                    )
                ]
                if app.waiting_changes
                else []
            ),
            (
                "Add a project",
                lambda: app.post_message(messages.ProjectAddRequested()),
                "a project, optionally under a client",
            ),
            (
                "Write this week's digest",
                lambda: app.post_message(messages.AgentRunRequested("digest", "this-week")),
                "the digest agent: the week's decisions and open action items",
            ),
            (
                "Write last week's digest",
                lambda: app.post_message(messages.AgentRunRequested("digest", "last-week")),
                "it lands in the facts as a digest",
            ),
            *[
                (f"Go to {pane.title()}", partial(app.action_pane, pane), f"{n}: the {pane} pane")
                for n, pane in enumerate(
                    (
                        "captures",
                        "facts",
                        "people",
                        "projects",
                        "ask",
                        "runs",
                        "newsletters",
                        "concepts",
                    ),
                    1,
                )
            ],
        ]

    def _entities(self) -> list[tuple[str, Callable[[], object], str]]:
        app = self.memo
        return [
            (f"{KINDS[kind]}: {line(name, 120).plain}", partial(app.go_to, kind, entity_id), "")
            for kind, entries in app.catalog.items()
            for entity_id, name in entries
        ]

    async def discover(self) -> Hits:
        for text, command, help_text in self._actions():
            yield DiscoveryHit(Content(text), command, text=text, help=help_text)

    async def search(self, query: str) -> AsyncIterator[Hit]:
        matcher = self.matcher(query)
        for text, command, help_text in [*self._actions(), *self._entities()]:
            score = matcher.match(text)
            if score > 0:
                yield Hit(
                    score,
                    _highlight(matcher, query, text),
                    command,
                    text=text,
                    help=help_text or None,
                )
        question = line(query, 200).plain
        if len(question.split()) >= 2:  # a sentence: offer to ask it
            yield Hit(
                0.1,
                Content(f"Ask: {question}"),
                partial(self.memo.ask, question),
                text=f"Ask: {question}",
                help="answer from your meetings, with citations",
            )


def _highlight(matcher: object, query: str, text: str) -> Content:
    """The hit as plain content with the matched letters styled (never parsed as markup)."""
    content = Content(text)
    fuzzy = getattr(matcher, "fuzzy_search", None)
    if fuzzy is None:
        return content
    _, offsets = fuzzy.match(query, text)
    for offset in offsets:
        content = content.stylize("bold reverse", offset, offset + 1)
    return content
