"""The Ask pane's conversation: each question answered by the chat agent (its run in a
thread of its own), the answer streamed to the pane as it comes, its sources as they are
cited; ctrl+l forgets the conversation. The pane posts the question and draws."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from memo_tui.ui.controllers.base import Controller

if TYPE_CHECKING:
    from memo_tui.core.agents.chat import Chat
    from memo_tui.ui.widgets.ask import AskPane


class AskController(Controller):
    chat: Chat | None = None  # the conversation so far (one to the app)

    def answer(self, pane: AskPane, question: str) -> None:
        self.run(self._answer(pane, question), group="ask")

    def new_chat(self) -> None:
        """Forget the conversation: the next question starts afresh."""
        self.app.workers.cancel_group(self.app, "ask")
        if self.chat is not None:
            self.chat.reset()

    async def _answer(self, pane: AskPane, question: str) -> None:
        """Stream the answer in; sources appear as they are cited."""
        from memo_tui.core.agents.chat import Chat, Looking, Replied, Source
        from memo_tui.core.recall.answer import AnswerDelta

        if self.chat is None:
            self.chat = Chat(self.services)
        pane.asking(question)
        streaming = False
        self.app.refresh_bindings()  # ctrl+x can stop it
        try:
            async for event in self.chat.ask(question):
                if isinstance(event, Looking):
                    streaming = False  # what came before was the agent thinking aloud
                    pane.looking(event.name, event.arguments)
                elif isinstance(event, AnswerDelta):
                    if not streaming:
                        pane.answer_starts()
                        streaming = True
                    pane.answer_grows(event.text)
                elif isinstance(event, Source):
                    pane.source_cited(event.n, event.fact)
                elif isinstance(event, Replied):
                    pane.replied(event)
            pane.scroll_to_end()
        except asyncio.CancelledError:
            pane.stopped()
            raise
        except Exception as error:  # noqa: BLE001 - any failure is shown, the app stays usable
            pane.failed(error)
        finally:
            self.app.call_later(self.app.refresh_bindings)
